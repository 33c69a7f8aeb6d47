package io.metaroce.cli;

import static io.metaroce.testsupport.LauncherCases.says;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import io.metaroce.testsupport.LauncherCases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad option values of {@code dissect}, {@code analyze} and {@code simulate}, through the shipped launcher: each
 * was accepted without a word (and ignored or misread), ran out of memory, hung, or failed with an internal error
 * or a line that named nothing. Each must now be one line on stderr naming the tool, and exit 2. The launcher
 * processes run in parallel, once, before the checks (as in {@link LauncherIT}).
 */
class OptionSweepAIT {
    @TempDir
    static Path tmp;

    private static final LauncherCases CASES = new LauncherCases();

    @BeforeAll
    static void runEveryCase() {
        String sample = Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString();
        String[] fields = {"dissect", "-r", sample, "-c", "1", "-T", "fields", "-e", "frame.number", "-e", "ip.addr"};

        // --threads: 0 and negatives were the default in silence; 100000 workers filled the heap (out of memory).
        for (String n : new String[] {"0", "-1", "100000"}) {
            add("dissect --threads " + n, Call.of("dissect", "-r", sample, "--threads", n), says("--threads must be 1 to 1024, not " + n));
        }
        add("analyze --threads 0", Call.of("analyze", "-r", sample, "--threads", "0"), says("--threads must be at least 1, not 0"));
        add("analyze --threads -1, several files", Call.of("analyze", sample, sample, "--threads", "-1"),
                says("--threads must be at least 1, not -1"));
        // analyze -c counts live frames; on a file it was ignored (every frame analyzed, exit 0).
        add("analyze -r FILE -c 5", Call.of("analyze", "-r", sample, "-c", "5"), says("-c applies to a live capture (-i IFACE)"));

        // --pmtu and --path-count outside validate's ranges were taken in silence and judged by (--pmtu 1000 made a
        // full 1024-byte packet a retransmission by timeout); a QPN that is not hex was "For input string" alone.
        for (String v : new String[] {"1000", "0", "-1"}) {
            add("analyze --pmtu " + v, Call.of("analyze", "-r", sample, "--pmtu", v), says("PMTU must be 256, 512, 1024, 2048 or 4096, not " + v));
        }
        add("analyze --path-count 0", Call.of("analyze", "-r", sample, "--path-count", "0x000201=0"), says("path_count must be 1..1024, not 0"));
        add("analyze --pmtu 0xzz=1024", Call.of("analyze", "-r", sample, "--pmtu", "0xzz=1024"),
                says("--pmtu must be N, FLOW=N or 0xQPN=N, not '0xzz=1024'"));
        add("analyze --pmtu =1024", Call.of("analyze", "-r", sample, "--pmtu", "=1024"), says("--pmtu must be N, FLOW=N or 0xQPN=N, not '=1024'"));
        // --events jsonl with -T json printed the events alone, -T dropped without a word.
        add("analyze --events jsonl -T json", Call.of("analyze", "-r", sample, "--events", "jsonl", "-T", "json"),
                says("--events jsonl and -T json are two outputs"));
        // The help's examples are whole lines of at most 80 columns: picocli cut a filter in the middle of a field name.
        for (String c : new String[] {"dissect", "simulate"}) {
            add(c + " -h, examples fit 80 columns", Call.of(c, "-h"), r -> {
                assertEquals(0, r.exit(), r.show());
                String examples = r.out().substring(r.out().indexOf("Examples:"));
                for (String line : examples.lines().skip(1).toList()) {
                    assertTrue(line.isEmpty() || line.startsWith("  metaroce ") || line.startsWith("      -"),
                            "a cut example line: '" + line + "'\n" + examples);
                    assertTrue(line.length() <= 80, line);
                }
            });
        }

        // A capture filter or a stop condition with a capture file was ignored (tshark refuses both with -r).
        add("dissect -r FILE -f udp", Call.of("dissect", "-r", sample, "-f", "udp"), says("-f is a capture filter: it applies to a live capture"));
        add("analyze -r FILE -f udp", Call.of("analyze", "-r", sample, "-f", "udp"), says("-f is a capture filter: it applies to a live capture"));
        add("dissect -r FILE -a duration:5", Call.of("dissect", "-r", sample, "-a", "duration:5"),
                says("-a duration:5 stops a live capture (-i IFACE)"));
        add("analyze -r FILE -a nosuch", Call.of("analyze", "-r", sample, "-a", "nosuch"), says("-a nosuch stops a live capture (-i IFACE)"));

        // -E values outside the documented ones: header=maybe was n, quote=z was n, separator=xx was "xx".
        for (String e : new String[] {"header=maybe", "quote=z", "separator=xx", "separator=", "aggregator="}) {
            add("dissect -E " + e, call(fields, "-E", e), says("bad -E value '" + e + "'"));
        }
        add("dissect -E, the documented values", call(fields, "-E", "header=y", "-E", "separator=,", "-E", "aggregator=/s", "-E", "quote=d"),
                r -> {
                    assertEquals(0, r.exit(), r.show());
                    assertEquals("frame.number,ip.addr\n\"1\",\"10.0.0.1 10.0.0.2\"\n", r.out(), r.show());
                });

        // -r -: tshark's standard input (read through a copy, StdinAndGzipIT); it said "-: no such file". Here empty.
        add("dissect -r -", Call.of("dissect", "-r", "-"), says("-: empty input"));

        // simulate: NaN passed the probability checks (every comparison with NaN is false) and the run went on.
        String out = tmp.resolve("x.pcap").toString();
        add("simulate --loss NaN", Call.of("simulate", "--scenario", "rocev2-clean", "--loss", "NaN", "--out", out),
                says("parameter loss: 'NaN' is not a valid value"));
        add("simulate --capture-drop NaN", Call.of("simulate", "--scenario", "rocev2-clean", "--capture-drop", "NaN", "--out", out),
                says("parameter capture-drop: 'NaN' is not a valid value"));
        add("simulate -p line-rate-gbps=Infinity", Call.of("simulate", "--scenario", "rocev2-clean", "-p", "line-rate-gbps=Infinity", "--out", out),
                says("parameter line-rate-gbps: 'Infinity' is not a valid value"));
        add("simulate -p delay-ns=-1", Call.of("simulate", "--scenario", "rocev2-clean", "-p", "delay-ns=-1", "--out", out),
                says("parameter delay-ns must be 0..1000000000000000, not -1"));
        // mirror-paths: a path that is not there was an internal error (ArrayIndexOutOfBoundsException), a word
        // a bare "For input string".
        add("simulate -p mirror-paths=99", Call.of("simulate", "--scenario", "rocev2-clean", "--tap", "mirror", "-p", "mirror-paths=99",
                "--out", out), says("mirror-paths must be 'all' or path numbers 0..3"));
        add("simulate -p mirror-paths=x", Call.of("simulate", "--scenario", "rocev2-clean", "--tap", "mirror", "-p", "mirror-paths=x",
                "--out", out), says("mirror-paths must be 'all' or path numbers 0..3"));
        // --out and --truth on one file: the JSON overwrote the capture and the run said it wrote both.
        String same = tmp.resolve("same.pcap").toString();
        add("simulate --out and --truth the same file", Call.of("simulate", "--scenario", "rocev2-clean", "--out", same,
                "--truth", tmp.resolve(".").resolve("same.pcap").toString()), r -> {
                    says("--out and --truth name the same file").accept(r);
                    assertFalse(Files.exists(Path.of(same)), "nothing written");
                });
        // A full disk: the line said "cannot write No space left on device", without the file.
        add("simulate --out /dev/full", Call.of("simulate", "--scenario", "rocev2-clean", "--out", "/dev/full"),
                says("cannot write /dev/full: No space left on device"));
        add("simulate --out ''", Call.of("simulate", "--scenario", "rocev2-clean", "--out", ""), says("the file name is empty"));

        // Stdout onto a device that refuses the bytes: PrintStream kept the error to itself and the run exited 0 with
        // an incomplete output (tshark: one line, exit 2). A pipe whose reader went away stays a quiet 0 (README).
        Path toFull = tmp.resolve("to-dev-full");
        try {
            Files.writeString(toFull, "#!/bin/sh\nexec '" + Launcher.SCRIPT + "' \"$@\" > /dev/full\n");
            toFull.toFile().setExecutable(true);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        for (List<String> a : List.of(List.of("dissect", "-r", sample), List.of("dissect", "-r", sample, "-q"), List.of("analyze", "-r", sample),
                List.of("analyze", "-r", sample, "-T", "json", "--compact"), List.of("simulate", "--list"))) {
            add(String.join(" ", a).replace(sample, "FILE") + " > /dev/full", Call.of(a).via(toFull, Launcher.ROOT),
                    says("cannot write to standard output (/dev/full): the disk is full or the output cannot grow"));
        }

        CASES.runAll();
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return CASES.checks().map(c -> DynamicTest.dynamicTest(c.getKey(), c.getValue()::run));
    }

    /** A retransmission timeout of 0 ns fired again at the same instant for ever: simulate never ended. */
    @Test
    void simulateWithAZeroRetransmissionTimeoutEnds() {
        Run r = Launcher.run(Call.of("simulate", "--scenario", "rocev2-clean", "-p", "rto-us=0",
                "--out", tmp.resolve("rto.pcap").toString()).timeout(60));
        says("rto-us must be at least 0.001 (1 ns)").accept(r);
    }


    private static Call call(String[] base, String... more) {
        List<String> args = new ArrayList<>(List.of(base));
        args.addAll(List.of(more));
        return Call.of(args);
    }

    private static void add(String name, Call call, Consumer<Run> check) { CASES.add(name, call, check); }
}

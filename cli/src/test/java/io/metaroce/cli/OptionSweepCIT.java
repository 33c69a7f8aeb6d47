package io.metaroce.cli;

import static io.metaroce.testsupport.LauncherCases.oneLine;
import static io.metaroce.testsupport.LauncherCases.oneLineExit2;
import static io.metaroce.testsupport.LauncherCases.topLine;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The front door, the help texts, simulate's parameters and a few analyze and index options, through the shipped
 * launcher (option sweep C, twenty-fifth session): each case printed picocli's raw words, a help example cut in the
 * middle of a word, accepted a value without a word (or ran out of memory), or exited 0 having done nothing. Each
 * bad command line must now be one line on stderr naming the tool, and exit 2. The launcher processes run in
 * parallel, once, before the checks (as in {@link LauncherIT}).
 */
class OptionSweepCIT {
    @TempDir
    static Path tmp;

    private static final LauncherCases CASES = new LauncherCases();
    private static final String CLEAN = Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString();

    @BeforeAll
    static void runEveryCase() throws Exception {
        frontDoorCases();
        helpCases();
        badValueCases();
        simulateCases();
        analyzeAndIndexCases();
        emptyNameCases();
        CASES.runAll();
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return CASES.checks().map(c -> DynamicTest.dynamicTest(c.getKey(), c.getValue()::run));
    }

    // ------------------------------------------------------------------ the front door

    private static void frontDoorCases() {
        // picocli said "Unmatched argument at index 0: 'nosuch'" and pointed at the help in a second line.
        add("metaroce nosuch", Call.of("nosuch"), r -> topLine(r, "metaroce: unknown command 'nosuch' (commands: dissect, analyze, "
                + "validate, simulate, capture, index, search, extract, viewer, compare, merge, edit, info, reorder, gui; see metaroce --help)"));
        add("metaroce analyse", Call.of("analyse", "-r", CLEAN),
                r -> topLine(r, "metaroce: unknown command 'analyse'; did you mean 'analyze'? (see metaroce --help)"));
        add("metaroce valid", Call.of("valid", CLEAN),
                r -> topLine(r, "metaroce: unknown command 'valid'; did you mean 'validate'? (see metaroce --help)"));
    }

    // ------------------------------------------------------------------ help texts

    /**
     * Every subcommand's help (the commands listed by the top help, as a user finds them): picocli cut an example
     * longer than its 80 columns anywhere, validate's in the middle of a file name ("report." / "html"), so a copied
     * example did not run. Each example line must be whole: a command, a backslash continuation of the line before
     * it, or a shell comment after a whole command.
     */
    private static void helpCases() {
        Run top = Launcher.run("--help");
        assertEquals(0, top.exit(), top.show());
        List<String> commands = new ArrayList<>();
        boolean listed = false;
        for (String line : top.out().lines().toList()) {
            if (line.equals("Commands:")) listed = true;
            else if (listed && line.matches("  [a-z]+ .*") && !line.startsWith("  help ")) commands.add(line.strip().split(" ")[0]);
        }
        assertTrue(commands.containsAll(List.of("dissect", "analyze", "validate", "simulate", "capture", "index", "search", "extract")),
                top.show());
        for (String c : commands) add(c + " --help, whole example lines", Call.of(c, "--help"), OptionSweepCIT::wholeExamples);
    }

    private static void wholeExamples(Run r) {
        assertEquals(0, r.exit(), r.show());
        int at = r.out().indexOf("Examples:");
        if (at < 0) return;
        List<String> lines = r.out().substring(at).lines().skip(1).toList();
        String previous = "";
        for (String line : lines) {
            assertTrue(line.length() <= 80, "wider than 80 columns: '" + line + "'");
            boolean continued = previous.endsWith(" \\");
            if (line.isEmpty()) {
                assertFalse(continued, "a continuation missing after '" + previous + "'");
            } else if (line.startsWith("      #")) {
                assertFalse(continued || previous.isEmpty(), "a comment where a command goes on: '" + line + "'");
            } else if (line.startsWith("      ")) {
                assertTrue(continued, "a cut example line: '" + line + "' after '" + previous + "'");
            } else {
                assertFalse(continued, "a continuation missing after '" + previous + "'");
                assertTrue(line.startsWith("  metaroce ") || line.startsWith("  sudo metaroce "), "a cut example line: '" + line + "'\n" + r.out());
            }
            previous = line;
        }
        assertFalse(previous.endsWith(" \\"), "the last example goes on: " + previous);
    }

    // ------------------------------------------------------------------ bad typed values

    private static void badValueCases() {
        // picocli's "Invalid value for option '--count': 'abc' is not a long" (the long name when -c was typed, Java's
        // type names), "expected one of [...] (case-sensitive) but was 'xml'", "Value for option option ...".
        Path idx = tmp.resolve("none.idx");
        bad("analyze -c abc", "metaroce analyze: -c must be a whole number, not 'abc'", "analyze", "-i", "lo", "-c", "abc");
        bad("dissect -c abc", "metaroce dissect: -c must be a whole number, not 'abc'", "dissect", "-r", CLEAN, "-c", "abc");
        bad("dissect -c past a long", "metaroce dissect: -c: '99999999999999999999' is too large (at most 9223372036854775807)",
                "dissect", "-r", CLEAN, "-c", "99999999999999999999");
        bad("validate --threads below an int", "metaroce validate: --threads: '-99999999999' is too small (at least -2147483648)",
                "validate", "--threads", "-99999999999", CLEAN);
        bad("dissect -T xml", "metaroce dissect: -T must be text, json, jsonl, fields, ek, pdml, psml or tabs, not 'xml'", "dissect", "-r", CLEAN, "-T", "xml");
        bad("validate --threads x", "metaroce validate: --threads must be a whole number, not 'x'", "validate", "--threads", "x", CLEAN);
        bad("validate --severity x", "metaroce validate: --severity must be RULE=LEVEL, not 'x'", "validate", "--severity", "x", CLEAN);
        bad("simulate --loss x", "metaroce simulate: --loss must be a number, not 'x'", "simulate", "--scenario", "rocev2-clean",
                "--loss", "x", "--out", tmp.resolve("loss.pcap").toString());
        bad("capture -c x", "metaroce capture: -c must be a whole number, not 'x'", "capture", "-i", "lo", "-c", "x", "-a", "duration:1",
                "-w", tmp.resolve("c.pcapng").toString());
        bad("index --threads q", "metaroce index: --threads must be a whole number, not 'q'", "index", CLEAN, "--index", idx.toString(),
                "--threads", "q");
        bad("search -n q", "metaroce search: -n must be a whole number, not 'q'", "search", "--index", idx.toString(), "*:*", "-n", "q");
        bad("extract -n x", "metaroce extract: -n must be a whole number, not 'x'", "extract", "--index", idx.toString(), "*:*",
                "-w", tmp.resolve("x.pcapng").toString(), "-n", "x");
        bad("merge -F xml", "metaroce merge: -F must be pcap, nsecpcap or pcapng, not 'xml'", "merge", "-F", "xml",
                "-w", tmp.resolve("m.pcapng").toString(), CLEAN);
        bad("edit -c 0", "metaroce edit: -c must be at least 1, not 0", "edit", "-c", "0", CLEAN, tmp.resolve("e.pcapng").toString());
        bad("edit -A yesterday", "metaroce edit: -A must be 'YYYY-MM-DD HH:MM:SS[.nnnnnnnnn]' or seconds since 1970, not 'yesterday'",
                "edit", "-A", "yesterday", CLEAN, tmp.resolve("e.pcapng").toString());
        bad("merge -I merge", "metaroce merge: -I must be none, all or any, not 'merge'", "merge", "-I", "merge",
                "-w", tmp.resolve("m.pcapng").toString(), CLEAN);
        bad("edit -a 7", "metaroce edit: -a must be FRAME:COMMENT (a frame number from 1, a colon, the comment), not '7'",
                "edit", "-a", "7", CLEAN, tmp.resolve("e.pcapng").toString());
    }

    private static void bad(String name, String line, String... args) {
        add(name, Call.of(args), r -> oneLine(r, line));
    }

    // ------------------------------------------------------------------ simulate -p

    private static void simulateCases() {
        // Each was taken as given (a VLAN id past 12 bits, a DSCP past 6, an unknown transport as rocev2), raised
        // in silence (ack-every=0 as 1, fixed:-1 as 1-byte messages), or ended in Java's "For input string".
        Map<String, String> params = new LinkedHashMap<>();
        params.put("transport=nosuch", "transport must be rocev2 or metaroce, not 'nosuch'");
        params.put("workload=nosuch", "workload must be write, send, mixed, read-atomic, ring-allreduce, incast or alltoall, not 'nosuch'");
        params.put("dscp=999", "parameter dscp must be 0..63, not 999");
        params.put("vlan=5000", "parameter vlan must be -1..4094, not 5000");
        params.put("ack-every=0", "parameter ack-every must be at least 1, not 0");
        params.put("rnr-timer=32", "parameter rnr-timer must be 0..31, not 32");
        params.put("hosts=99999999999", "parameter hosts must be 2..4096, not 99999999999");
        params.put("qps=100000000", "parameter qps must be 1..65536, not 100000000");
        params.put("lossy-path=7", "lossy-path must be -1 (none) or a path 0..3, not 7");
        params.put("peer-pmtu=-5", "peer-pmtu must be 0 (pmtu), 256, 512, 1024, 2048 or 4096, not -5");
        params.put("duration-us=1e20", "parameter duration-us must be at most 1000000000000 (11.6 days), not 1e20");
        params.put("message-size=fixed:-1", "message-size must be fixed:N with N 1..4194304, not 'fixed:-1'");
        params.put("message-size=uniform:9:2", "message-size must be uniform:MIN:MAX with 1 <= MIN <= MAX <= 4194304, not 'uniform:9:2'");
        params.put("message-size=fixed", "message-size must be fixed:N, not 'fixed'");
        int i = 0;
        for (var e : params.entrySet()) {
            Path out = tmp.resolve("sim-" + i++ + ".pcap");
            add("simulate -p " + e.getKey(), Call.of("simulate", "--scenario", "rocev2-clean", "-p", e.getKey(), "--out", out.toString()), r -> {
                oneLine(r, "metaroce simulate: " + e.getValue());
                assertFalse(Files.exists(out), "no file for a usage error: " + out);
            });
        }
        // 2.5 MiB of rings per QP pair: qps=100000 (within the range) ran half a minute and ended out of memory.
        Path out = tmp.resolve("sim-heap.pcap");
        add("simulate -p qps beyond the heap", Call.of("simulate", "--scenario", "rocev2-clean", "-p", "qps=300", "--out", out.toString())
                .env(Map.of("METAROCE_JAVA_OPTS", "-Xmx256m")), r -> {
            oneLineExit2(r);
            assertTrue(r.err().startsWith("metaroce simulate: qps=300, hosts=2, workload=mixed: 300 RC QP pairs need about 750 MiB; a heap of "),
                    r.show());
            assertTrue(r.err().strip().endsWith(": fewer qps or hosts, or more heap (METAROCE_JAVA_OPTS=-Xmx8g)"), r.show());
            assertFalse(Files.exists(out), "no file for a usage error: " + out);
        });
    }

    // ------------------------------------------------------------------ analyze -c 0, index of an empty directory

    private static void analyzeAndIndexCases() throws Exception {
        // -c 0 was "no count limit" inside: the live analysis ran on until the other stop, exit 0.
        add("analyze -i lo -c 0", Call.of("analyze", "-i", "lo", "-c", "0", "-a", "duration:1"),
                r -> oneLine(r, "metaroce analyze: -c must be at least 1, not 0"));
        add("analyze -i lo -c -3", Call.of("analyze", "-i", "lo", "-c", "-3", "-a", "duration:1"),
                r -> oneLine(r, "metaroce analyze: -c must be at least 1, not -3"));
        // A directory without a capture: exit 0 and not a word (and an empty index made), where validate says so.
        Path empty = Files.createDirectories(tmp.resolve("empty dir"));
        Path notes = Files.createDirectories(tmp.resolve("notes"));
        Files.writeString(notes.resolve("readme.txt"), "no capture here\n");
        Path idx = tmp.resolve("empty.idx");
        add("index, an empty directory", Call.of("index", empty.toString(), "--index", idx.toString()), r -> {
            oneLine(r, "metaroce index: " + empty + ": no pcap or pcapng capture in this directory");
            assertFalse(Files.exists(idx), "no index made of nothing");
        });
        add("index, a directory of notes", Call.of("index", notes.toString(), "--index", tmp.resolve("notes.idx").toString()), r -> {
            assertEquals(2, r.exit(), r.show());
            assertEquals(List.of("metaroce index: skipped " + notes.resolve("readme.txt") + ": not a pcap or pcapng capture",
                    "metaroce index: " + notes + ": no pcap or pcapng capture in this directory"), r.errLines(), r.show());
        });
        add("index, an empty directory and a capture", Call.of("index", empty.toString(), CLEAN, "--index", tmp.resolve("both.idx").toString()), r -> {
            assertEquals(2, r.exit(), r.show());
            assertEquals("metaroce index: " + empty + ": no pcap or pcapng capture in this directory", r.err().strip(), r.show());
            assertTrue(r.out().startsWith("indexed "), "the capture is still indexed: " + r.show());
        });
    }

    // ------------------------------------------------------------------ an empty file name

    /**
     * '' is the path of the working directory: analyze, validate and index read every capture under it (index of the
     * project's tree ran for minutes), dissect said ": is a directory, not a capture file".
     */
    private static void emptyNameCases() {
        String line = ": '': the file name is empty";
        add("dissect -r ''", Call.of("dissect", "-r", ""), r -> oneLine(r, "metaroce dissect" + line));
        add("analyze -r ''", Call.of("analyze", "-r", ""), r -> oneLine(r, "metaroce analyze" + line));
        add("analyze ''", Call.of("analyze", CLEAN, ""), r -> oneLine(r, "metaroce analyze" + line));
        add("validate ''", Call.of("validate", ""), r -> oneLine(r, "metaroce validate" + line));
        Path idx = tmp.resolve("empty-name.idx");
        add("index ''", Call.of("index", "", "--index", idx.toString()), r -> {
            oneLine(r, "metaroce index" + line);
            assertFalse(Files.exists(idx), "no index made of nothing");
        });
    }

    private static void add(String name, Call call, Consumer<Run> check) { CASES.add(name, call, check); }
}

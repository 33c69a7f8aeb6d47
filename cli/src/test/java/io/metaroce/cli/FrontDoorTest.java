package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code metaroce --version} is answered before picocli loads (issue 14.1: start-up), and says exactly what
 * picocli says for {@code --version} on the top command and on every subcommand.
 */
class FrontDoorTest {
    @Test
    void versionWithoutPicocliSaysWhatPicocliSays() throws Exception {
        for (String flag : List.of("--version", "-V")) {
            String log = java(flag);
            List<String> out = log.lines().filter(l -> !l.startsWith("[")).toList();
            assertEquals(List.of(CliRun.of("--version").out().strip()), out, flag);
            assertTrue(log.contains("io.metaroce.cli.FrontDoor"), "the class loading is logged");
            assertFalse(log.contains("picocli."), "no picocli class loaded for " + flag);
        }
        assertEquals(CliRun.of("--version").out(), CliRun.of("analyze", "--version").out());
    }

    @Test
    void analyzeOfOneFileNamesItToOpenAhead() {
        assertEquals("a.pcap", FrontDoor.prefetchTarget(new String[] {"analyze", "-r", "a.pcap"}));
        assertEquals("a.pcap", FrontDoor.prefetchTarget(new String[] {"analyze", "-T", "json", "--read", "a.pcap", "--compact"}));
        assertEquals("a.pcap", FrontDoor.prefetchTarget(new String[] {"analyze", "--read=a.pcap"}));
        // Several files, none, a dangling -r, or the file after "--": the command opens them as before.
        assertEquals(null, FrontDoor.prefetchTarget(new String[] {"analyze", "-r", "a.pcap", "-r", "b.pcap"}));
        assertEquals(null, FrontDoor.prefetchTarget(new String[] {"analyze", "-r", "a.pcap", "--read=b.pcap"}));
        assertEquals(null, FrontDoor.prefetchTarget(new String[] {"analyze", "-i", "eth0"}));
        assertEquals(null, FrontDoor.prefetchTarget(new String[] {"analyze", "-r"}));
        assertEquals(null, FrontDoor.prefetchTarget(new String[] {"analyze", "--", "-r", "a.pcap"}));
    }

    @Test
    void validateOfOneFileNamesItToOpenAhead() {
        assertEquals("a.pcap", FrontDoor.validatePrefetchTarget(new String[] {"validate", "a.pcap"}));
        assertEquals("a.pcap", FrontDoor.validatePrefetchTarget(new String[] {"validate", "-T", "json", "a.pcap"}));
        assertEquals("a.pcap", FrontDoor.validatePrefetchTarget(new String[] {"validate", "a.pcap", "-T", "json", "--fail-on=never"}));
        assertEquals("a.pcap", FrontDoor.validatePrefetchTarget(new String[] {"validate", "-r", "a.pcap", "--tap", "auto"}));
        assertEquals("a.pcap", FrontDoor.validatePrefetchTarget(new String[] {"validate", "--read=a.pcap"}));
        // An option's value is never taken for the capture (it may be a file validate writes), nor a file after a
        // flag (picocli alone knows that --not-offloaded takes no value); several files, none, or "--": nothing.
        assertEquals(null, FrontDoor.validatePrefetchTarget(new String[] {"validate", "-o", "out.xml"}));
        assertEquals("a.pcap", FrontDoor.validatePrefetchTarget(new String[] {"validate", "-o", "out.xml", "--report", "r.html", "a.pcap"}));
        assertEquals(null, FrontDoor.validatePrefetchTarget(new String[] {"validate", "--not-offloaded", "a.pcap"}));
        assertEquals(null, FrontDoor.validatePrefetchTarget(new String[] {"validate", "a.pcap", "b.pcap"}));
        assertEquals(null, FrontDoor.validatePrefetchTarget(new String[] {"validate", "a.pcap", "-r", "b.pcap"}));
        assertEquals(null, FrontDoor.validatePrefetchTarget(new String[] {"validate", "-i", "eth0"}));
        assertEquals(null, FrontDoor.validatePrefetchTarget(new String[] {"validate"}));
        assertEquals(null, FrontDoor.validatePrefetchTarget(new String[] {"validate", "--", "a.pcap"}));
    }

    /**
     * validate resolves --tap auto ahead with the default RoCE ports only for a line that sets neither the ports nor
     * the tap (nor may, through a config file or a cluster of short options holding -d).
     */
    @Test
    void validateResolvesTheTapAheadOnlyWithTheDefaultPortsAndTap() {
        for (String[] line : List.of(new String[] {"validate", "a.pcap"}, new String[] {"validate", "-r", "a.pcap"},
                new String[] {"validate", "-T", "json", "a.pcap", "--report", "r.html"}, new String[] {"validate", "--fail-on=never", "a.pcap"})) {
            assertTrue(FrontDoor.defaultDecoderAndTap(line), String.join(" ", line));
        }
        for (String[] line : List.of(new String[] {"validate", "--tap", "mirror", "a.pcap"}, new String[] {"validate", "--tap=auto", "a.pcap"},
                new String[] {"validate", "--config", "c.yaml", "a.pcap"}, new String[] {"validate", "-d", "udp.port==4792,metaroce", "a.pcap"},
                new String[] {"validate", "--decode-as=udp.port==4792,metaroce", "a.pcap"}, new String[] {"validate", "-pd", "x", "a.pcap"})) {
            assertFalse(FrontDoor.defaultDecoderAndTap(line), String.join(" ", line));
        }
    }

    /** analyze -r FILE and validate FILE alone run without picocli; any other argument, or a file picocli reads otherwise, with it. */
    @Test
    void onlyThePlainFormsRunWithoutPicocli() {
        for (String[] plain : List.of(new String[] {"analyze", "-r", "a.pcap"}, new String[] {"analyze", "--read", "a.pcap"},
                new String[] {"analyze", "a.pcap"},
                new String[] {"validate", "a.pcap"}, new String[] {"validate", "-r", "a.pcap"}, new String[] {"validate", "--read", "d/"})) {
            assertNotNull(FrontDoor.plainCommand(plain), String.join(" ", plain));
        }
        for (String[] plain : List.of(new String[] {"index", "a.pcap", "--index", "i"}, new String[] {"index", "--index", "i", "a.pcap"},
                new String[] {"index", "a.pcap", "--index", "i", "d/", "b.pcapng"})) {
            IndexCommand c = (IndexCommand) FrontDoor.plainCommand(plain);
            assertNotNull(c, String.join(" ", plain));
            assertEquals(Path.of("i"), c.backend.dir);
            assertEquals(plain.length - 3, c.paths.size(), String.join(" ", plain));
        }
        // With --no-progress (scripts, bench/index-cpu.sh), --progress or --rules, once each, anywhere.
        for (String[] plain : List.of(new String[] {"index", "a.pcap", "--index", "i", "--no-progress"},
                new String[] {"index", "--no-progress", "a.pcap", "--index", "i"}, new String[] {"index", "a.pcap", "--progress", "--index", "i"},
                new String[] {"index", "a.pcap", "--index", "i", "--rules"}, new String[] {"index", "--rules", "--index", "i", "a.pcap", "--no-progress"})) {
            assertNotNull(FrontDoor.plainCommand(plain), String.join(" ", plain));
        }
        for (String[] other : List.of(new String[] {"analyze", "-r", "a.pcap", "-T", "json"}, new String[] {"analyze", "@args"},
                new String[] {"analyze", "--read=a.pcap"}, new String[] {"analyze", "-r", "-T"}, new String[] {"analyze", "-r", "@args"},
                new String[] {"analyze", "-r", ""}, new String[] {"analyze", "-r", "a\0.pcap"},
                new String[] {"analyze", "-c", "a.pcap"}, new String[] {"validate", "-T", "json", "a.pcap"},
                new String[] {"validate", "--help"}, new String[] {"validate", "@args"}, new String[] {"validate", "a.pcap", "b.pcap"},
                new String[] {"validate"}, new String[] {"dissect", "-r", "a.pcap"}, new String[] {"index", "a.pcap"},
                new String[] {"index", "--index", "i"}, new String[] {"index", "a.pcap", "--index"},
                new String[] {"index", "a.pcap", "--index", "i", "--index", "j"}, new String[] {"index", "a.pcap", "--index=i"},
                new String[] {"index", "a.pcap", "--index", "i", "--rules", "--rules"}, new String[] {"index", "a.pcap", "--index", "-i"},
                new String[] {"index", "a.pcap", "--index", "i", "--no-progress", "--progress"},
                new String[] {"index", "a.pcap", "--index", "i", "--no-progress", "--no-progress"},
                new String[] {"index", "a.pcap", "--index", "--no-progress"}, new String[] {"index", "a.pcap", "--index", "i", "--progress=false"},
                new String[] {"index", "a.pcap", "--index", "i", "--threads", "1"}, new String[] {"index", "--no-progress", "--index", "i"},
                new String[] {"index", "@args", "--index", "i"}, new String[] {"index", "a.pcap", "--index", "@i"},
                new String[] {"index", "", "--index", "i"}, new String[] {"index", "--expire-before", "2026-11-01", "--index", "i"})) {
            assertNull(FrontDoor.plainCommand(other), String.join(" ", other));
        }
    }

    /**
     * index's plain form sets the fields picocli would set from the same arguments: the paths, the index, {@code
     * --progress} / {@code --no-progress} (a Boolean: null, true or false) and {@code --rules}; every other field keeps
     * its initial value, which is picocli's default.
     */
    @Test
    void indexsPlainFormSetsWhatPicocliSets() throws Exception {
        for (String[] args : List.of(new String[] {"index", "a.pcap", "--index", "i"}, new String[] {"index", "a.pcap", "--index", "i", "--no-progress"},
                new String[] {"index", "--progress", "a.pcap", "b.pcap", "--index", "i"}, new String[] {"index", "a.pcap", "--rules", "--index", "i"},
                new String[] {"index", "--no-progress", "--index", "i", "--rules", "d/"})) {
            IndexCommand plain = (IndexCommand) FrontDoor.plainCommand(args);
            assertNotNull(plain, String.join(" ", args));
            IndexCommand parsed = new IndexCommand();
            new picocli.CommandLine(parsed).parseArgs(java.util.Arrays.copyOfRange(args, 1, args.length));
            String line = String.join(" ", args);
            assertEquals(parsed.paths, plain.paths, line);
            assertEquals(parsed.backend.dir, plain.backend.dir, line);
            assertEquals(parsed.progress, plain.progress, line);
            assertEquals(parsed.rules, plain.rules, line);
            List<String> given = List.of(args);
            assertEquals(given.contains("--no-progress") ? Boolean.FALSE : given.contains("--progress") ? Boolean.TRUE : null, plain.progress, line);
            assertEquals(given.contains("--rules"), plain.rules, line);
            for (String field : List.of("expireBefore", "threads", "split", "tap", "ports", "commitDocuments", "commitSeconds")) {
                java.lang.reflect.Field f = IndexCommand.class.getDeclaredField(field);
                f.setAccessible(true);
                assertEquals(f.get(parsed), f.get(plain), line + ": " + field);
            }
        }
    }

    /** A plain form prints, and exits with, what picocli's run of the same command line does. */
    @Test
    void thePlainFormsSayWhatPicocliSays() {
        for (String[] args : List.of(new String[] {"analyze", "-r", SAMPLE}, new String[] {"analyze", SAMPLE}, new String[] {"validate", SAMPLE},
                new String[] {"validate", "--read", SAMPLE}, new String[] {"analyze", "-r", "../samples/captures"},
                new String[] {"analyze", "-r", "/nonexistent.pcap"}, new String[] {"validate", "/nonexistent.pcap"},
                new String[] {"analyze", "-r", "../README.md"}, new String[] {"validate", "../README.md"})) {
            assertNotNull(FrontDoor.plainCommand(args));
            CliRun picocli = CliRun.of(args);
            CliRun plain = front(args);
            String line = String.join(" ", args);
            assertFalse(picocli.out().isEmpty() && picocli.err().isEmpty(), line);
            assertEquals(picocli, plain, line);
        }
    }

    /**
     * index's plain form prints, and exits with, what picocli's run prints: into two new indexes (the same lines, but for
     * the index's name), then into a directory that is not an index, then with a capture that does not exist.
     */
    @Test
    void indexsPlainFormSaysWhatPicocliSays(@org.junit.jupiter.api.io.TempDir Path tmp) {
        String a = tmp.resolve("a").toString(), b = tmp.resolve("b").toString();
        CliRun picocli = CliRun.of("index", SAMPLE, "--index", a);
        CliRun plain = front("index", SAMPLE, "--index", b);
        assertEquals(0, plain.exit(), plain.err());
        assertTrue(plain.out().contains("7 flows"), plain.out());
        assertEquals(picocli.out().replace(a, b), plain.out());
        assertEquals(picocli.err().replace(a, b), plain.err());
        // With the flags of the plain form: the same capture, with its rules, said the same.
        String c = tmp.resolve("c").toString(), d = tmp.resolve("d").toString();
        CliRun picocliRules = CliRun.of("index", SAMPLE, "--index", c, "--no-progress", "--rules");
        CliRun plainRules = front("index", "--rules", SAMPLE, "--no-progress", "--index", d);
        assertEquals(0, plainRules.exit(), plainRules.err());
        assertEquals(picocliRules.out().replace(c, d), plainRules.out());
        assertEquals(picocliRules.err().replace(c, d), plainRules.err());
        for (String[] args : List.of(new String[] {"index", SAMPLE, "--index", "../samples/captures"},
                new String[] {"index", "--index", a, "/nonexistent.pcap"})) {
            assertNotNull(FrontDoor.plainCommand(args));
            CliRun viaPicocli = CliRun.of(args);
            assertFalse(viaPicocli.err().isEmpty(), String.join(" ", args));
            assertEquals(viaPicocli, front(args), String.join(" ", args));
        }
    }

    /** In a fresh JVM, {@code analyze -r FILE} builds no picocli model: only the exception classes its code names are loaded. */
    @Test
    void thePlainFormLoadsNoPicocliModel() throws Exception {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xlog:class+load=info",
                "-cp", System.getProperty("java.class.path"), "io.metaroce.cli.FrontDoor", "analyze", "-r", SAMPLE);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), log);
        assertTrue(log.contains("QP Conversations"), "the report is printed");
        List<String> picocli = log.lines().filter(l -> l.contains("[class,load] picocli.")).toList();
        assertTrue(log.contains("io.metaroce.cli.AnalyzeCommand "), "the log names the classes loaded");
        for (String l : picocli) assertTrue(l.contains("Exception "), l);
    }

    private static final String SAMPLE = "../samples/captures/rocev2-clean.pcapng";

    /** {@link FrontDoor#run} with System.out and System.err captured, as {@link CliRun#of} captures picocli's run. */
    private static CliRun front(String... args) {
        return CliRun.through(FrontDoor::run, args);
    }

    /** Runs FrontDoor in a fresh JVM on the compiled classes only, logging every class it loads. */
    private static String java(String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info", "-cp", Path.of("target/classes").toAbsolutePath().toString(), "io.metaroce.cli.FrontDoor"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
        return new String(out, StandardCharsets.UTF_8);
    }
}

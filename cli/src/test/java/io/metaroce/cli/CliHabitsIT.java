package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tshark user's habits (issue 10 items 1, 2, 5, 6), each through the shipped launcher: help and flags,
 * one option vocabulary, damaged input, pipes and terminals, installation through a symlink, simulate's errors
 * and the validate config file.
 */
class CliHabitsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CLEAN = Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString();
    private static final String GBN = Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng").toString();
    private static final String EDGE = Launcher.ROOT.resolve("samples/reference/roce_edge.pcap").toString();

    @TempDir
    static Path tmp;

    /** A capture with more than a few thousand frames, so that long-command behaviour (progress) shows. */
    private static Path big;

    @BeforeAll
    static void bigCapture() {
        big = tmp.resolve("big.pcap");
        LauncherIT.ok(Launcher.run("simulate", "--scenario", "rocev2-clean", "--frames", "20000", "--out", big.toString()));
    }

    // ------------------------------------------------------------------ 1. help and flags

    @Test
    void helpOnEverySubcommandPrintsUsageAndExits0() {
        List<Call> calls = new ArrayList<>();
        for (String cmd : List.of("dissect", "analyze", "validate", "simulate")) {
            calls.add(Call.of(cmd, "-h"));
            calls.add(Call.of(cmd, "--help"));
        }
        for (Run r : Launcher.runAll(calls)) {
            LauncherIT.ok(r);
            assertTrue(r.out().startsWith("Usage: metaroce " + r.command().get(1)), r.show());
        }
    }

    @Test
    void versionOnEverySubcommandAndNoVerboseHijack() {
        List<Call> calls = new ArrayList<>();
        for (String cmd : List.of("dissect", "analyze", "validate", "simulate")) calls.add(Call.of(cmd, "--version"));
        calls.add(Call.of("analyze", "-r", CLEAN, "-V"));
        calls.add(Call.of("validate", "-V", CLEAN));
        calls.add(Call.of("simulate", "-V", "--list"));
        List<Run> runs = Launcher.runAll(calls);
        for (Run r : runs.subList(0, 4)) {
            LauncherIT.ok(r);
            assertTrue(r.out().startsWith("metaroce 0.1.0"), r.show());
        }
        // -V is verbose for a tshark user: where it means nothing, a usage error that says where it is, never a silent exit 0.
        for (Run r : runs.subList(4, 7)) {
            assertEquals(2, r.exit(), r.show());
            assertEquals("", r.out(), "no work done, nothing printed: " + r.show());
            assertTrue(r.err().contains("-V (verbose)") && r.err().contains("metaroce dissect -r FILE -V"), r.show());
            assertEquals(1, r.errLines().size(), r.show());
        }
        // dissect -V is the field tree, as in tshark.
        Run tree = Launcher.run("dissect", "-r", EDGE, "-V", "-c", "1");
        LauncherIT.ok(tree);
        assertTrue(tree.out().startsWith("Frame 1:"), tree.show());
    }

    @Test
    void noArgumentsIsAUsageErrorOnStderr() {
        Run r = Launcher.run();
        assertEquals(2, r.exit(), r.show());
        assertEquals("", r.out(), r.show());
        assertTrue(r.err().startsWith("Usage: metaroce"), r.show());
    }

    @Test
    void countZeroOrNegativeIsAnErrorInTsharksWords() {
        List<Run> runs = Launcher.runAll(List.of(Call.of("dissect", "-r", CLEAN, "-c", "0"), Call.of("dissect", "-r", CLEAN, "-c", "-1")));
        assertEquals(2, runs.get(0).exit(), runs.get(0).show());
        assertEquals("metaroce dissect: The specified packet count is zero", runs.get(0).err().strip());
        assertEquals(2, runs.get(1).exit(), runs.get(1).show());
        assertEquals("metaroce dissect: The specified packet count \"-1\" is a negative number", runs.get(1).err().strip());
    }

    @Test
    void tapValuesAreCheckedEverywhere() {
        List<Run> runs = Launcher.runAll(List.of(
                Call.of("dissect", "-r", CLEAN, "--tap", "bogus", "-c", "2"),
                Call.of("analyze", "-r", CLEAN, "--tap", "bogus"),
                Call.of("validate", "--tap", "bogus", "-r", CLEAN),
                Call.of("analyze", "-r", GBN, "--tap", "host:1.2.3.4"),
                Call.of("validate", "--tap", "host:1.2.3.4", GBN),
                Call.of("dissect", "-r", GBN, "-A", "-c", "1", "--tap", "host:1.2.3.4"),
                Call.of("analyze", "-r", GBN, "--tap", "host:10.0.0.1")));
        for (Run r : runs.subList(0, 3)) {
            assertEquals(2, r.exit(), r.show());
            assertTrue(r.err().contains("tap must be auto, mirror or host:IP, not 'bogus'"), r.show());
            assertEquals(1, r.errLines().size(), r.show());
        }
        for (Run r : runs.subList(3, 6)) {
            assertTrue(r.exit() == 0 || r.exit() == 1, r.show());
            assertEquals(1, r.errLines().size(), "one warning line: " + r.show());
            assertTrue(r.err().contains("warning: --tap host:1.2.3.4") && r.err().contains("addresses seen: 10.0.0.1, 10.0.0.2"),
                    r.show());
        }
        LauncherIT.ok(runs.get(6));
    }

    @Test
    void decodeAsIsTsharksFormInEverySubcommandAndAddsThePort() {
        List<Run> runs = Launcher.runAll(List.of(
                Call.of("analyze", "-r", EDGE, "-T", "json"),
                Call.of("analyze", "-r", EDGE, "-T", "json", "-d", "udp.port==4792,roce"),
                Call.of("analyze", "-r", EDGE, "-T", "json", "-d", "udp.port==4792,infiniband"),
                Call.of("analyze", "-r", EDGE, "-T", "json", "-d", "4792"),
                Call.of("dissect", "-r", EDGE, "-d", "udp.port==4792,roce", "-T", "fields", "-e", "bth.psn", "-Y", "udp.dstport == 4792"),
                Call.of("validate", "-T", "json", "-d", "udp.port==4792,infiniband", EDGE),
                Call.of("validate", "-T", "json", EDGE),
                Call.of("analyze", "-r", EDGE, "-d", "udp.port==x,roce")));
        long base = roce(runs.get(0)), with = roce(runs.get(1));
        assertEquals(base + 1, with, "the port-4792 frame is added, the 4791 frames stay");
        assertEquals(with, roce(runs.get(2)), "infiniband, as in tshark");
        assertEquals(with, roce(runs.get(3)), "-d N: shorthand for the same");
        LauncherIT.ok(runs.get(4));
        assertEquals("503", runs.get(4).out().strip());
        long v = LauncherIT.parse(runs.get(5).out(), runs.get(5)).get("files").get(0).get("summary").get("roce_frames").asLong();
        long v0 = LauncherIT.parse(runs.get(6).out(), runs.get(6)).get("files").get(0).get("summary").get("roce_frames").asLong();
        assertEquals(v0 + 1, v, runs.get(5).show());
        assertEquals(2, runs.get(7).exit(), runs.get(7).show());
        assertTrue(runs.get(7).err().contains("-d expects udp.port==N,roce"), runs.get(7).show());
    }

    private static long roce(Run r) {
        LauncherIT.ok(r);
        JsonNode c = LauncherIT.parse(r.out(), r).get("capture");
        return c.get("roce_frames").asLong();
    }

    // ------------------------------------------------------------------ 2. damaged input

    @Test
    void damagedCapturesPrintEveryReadableFrameButExit2() throws Exception {
        Map<String, Path> bad = LauncherIT.badInputs(tmp);
        Path cut = bad.get("capture cut mid-record"), cut10 = bad.get("capture cut in its file header");
        List<Run> runs = Launcher.runAll(List.of(
                Call.of("dissect", "-r", cut.toString(), "-T", "fields", "-e", "frame.number"),
                Call.of("validate", cut.toString()),
                Call.of("validate", cut10.toString()),
                Call.of("validate", "-T", "junit", cut.toString(), CLEAN),
                Call.of("validate", "-T", "json", cut.toString())));
        Run d = runs.get(0);
        assertEquals(2, d.exit(), d.show());
        assertTrue(d.out().lines().count() > 10, "the frames before the cut are printed: " + d.show());
        assertTrue(d.err().contains("truncated block at byte"), d.show());
        for (Run v : runs.subList(1, 3)) {
            assertEquals(2, v.exit(), v.show());
            assertTrue(v.out().contains(": DAMAGED "), "damage is a verdict, never PASS: " + v.show());
            assertFalse(v.out().contains("PASS"), v.show());
        }
        assertTrue(runs.get(2).out().contains("DAMAGED  0 frames"), runs.get(2).show());
        String junit = runs.get(3).out();
        assertEquals(2, runs.get(3).exit());
        assertTrue(junit.contains("<error type=\"damaged\""), junit);
        JsonNode j = LauncherIT.parse(runs.get(4).out(), runs.get(4));
        assertTrue(j.get("files").get(0).get("capture_problems").size() > 0, runs.get(4).show());
    }

    // ------------------------------------------------------------------ 5. pipes and terminals

    /**
     * {@code dissect -V | head -1}: the capture is cut at its very end, so a run that went on to the end would
     * report the damage and exit 2; a run that stops at the closed pipe ends quietly with 0 before it gets there. The
     * same for {@code search -T jsonl|json | head -1}.
     */
    @Test
    void aClosedStdoutStopsTheRunQuietly() throws Exception {
        byte[] all = Files.readAllBytes(big);
        Path cutAtEnd = Files.write(tmp.resolve("big-cut.pcap"), Arrays.copyOf(all, all.length - 20));
        // search's JSON lines of every sample's flows (~300 KB, more than a pipe holds) behind the same closed pipe.
        Path idx = tmp.resolve("closed-stdout.idx");
        Run indexed = Launcher.run(Call.of("index", Launcher.CAPTURES.toString(), "--index", idx.toString()));
        assertEquals(0, indexed.exit(), indexed.show()); // its stderr names the samples' truth files it skipped
        List<List<String>> commands = List.of(List.of("dissect", "-r", cutAtEnd.toString(), "-V"),
                List.of("dissect", "-r", cutAtEnd.toString(), "-T", "jsonl", "--threads", "1"),
                List.of("search", "--index", idx.toString(), "*:*", "-T", "jsonl", "-n", "100000"),
                List.of("search", "--index", idx.toString(), "*:*", "-T", "json", "-n", "100000"));
        List<Process> running = new ArrayList<>();     // all four at once: each blocks on its full pipe until read
        for (List<String> args : commands) {
            List<String> cmd = new ArrayList<>();
            cmd.add(Launcher.SCRIPT.toString());
            cmd.addAll(args);
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(false);
            pb.environment().put("METAROCE_NO_BUILD", "1");
            running.add(pb.start());
        }
        for (int i = 0; i < commands.size(); i++) {
            Process p = running.get(i);
            List<String> args = commands.get(i);
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                assertTrue(r.readLine() != null, "a first line");
            } // | head -1: the reader goes away
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "ends");
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals("", err, "quietly, before the damage at the end: " + args);
            assertEquals(0, p.exitValue(), err);
        }
    }

    @Test
    void oneProgressBarOnStderrForEveryLongCommandOnlyOnATerminal() {
        Map<String, String> forced = Map.of("METAROCE_PROGRESS", "1");
        List<Run> runs = Launcher.runAll(List.of(
                Call.of("dissect", "-r", big.toString(), "-q").env(forced),
                Call.of("analyze", "-r", big.toString()).env(forced),
                Call.of("validate", big.toString()).env(forced),
                Call.of("simulate", "--scenario", "rocev2-clean", "--frames", "40000", "--out", tmp.resolve("p.pcap").toString()).env(forced),
                Call.of("analyze", "-r", big.toString())));
        for (Run r : runs.subList(0, 4)) {
            String cmd = r.command().get(1);
            assertTrue(r.err().startsWith("\r" + cmd + " "), "bar on stderr: " + r.show());
            assertTrue(r.err().endsWith("\r"), "erased at the end: " + r.show());
            if (!cmd.equals("simulate")) assertTrue(r.err().matches("(?s)\r" + cmd + " \\[[#.]{30}\\] +\\d+%  .*"), r.show());
            assertFalse(r.out().contains("\r"), "nothing of it on stdout");
        }
        assertEquals("", runs.get(4).err(), "stderr not a terminal: no bar");
    }

    @Test
    void textTablesFitTheTerminalAndJsonIsNeverCut() {
        String spray = Launcher.CAPTURES.resolve("metaroce-spray-lossy-path.pcapng").toString();
        Map<String, String> cols = Map.of("COLUMNS", "80");
        List<Run> runs = Launcher.runAll(List.of(
                Call.of("analyze", "-r", spray).env(cols),
                Call.of("validate", Launcher.CAPTURES.toString()).env(cols),
                Call.of("analyze", "-r", spray),
                Call.of("analyze", "-r", spray, "-T", "json").env(cols)));
        for (Run r : runs.subList(0, 2)) {
            assertTrue(r.exit() == 0 || r.exit() == 1, r.show());
            for (String l : r.out().lines().toList()) assertTrue(l.codePointCount(0, l.length()) <= 80, "fits 80 columns: " + l);
            assertTrue(r.out().contains("(lines cut to 80 columns at '>'"), r.show());
        }
        assertTrue(runs.get(2).out().lines().anyMatch(l -> l.length() > 80), "a pipe gets whole lines");
        LauncherIT.parse(runs.get(3).out(), runs.get(3));
        assertFalse(runs.get(3).out().contains("lines cut to"), "JSON is never cut");
    }

    @Test
    void quietOpcodeCountsAreOneColumn() {
        Run r = Launcher.run("dissect", "-r", CLEAN, "-q");
        LauncherIT.ok(r);
        List<String> lines = r.out().lines().toList();
        int start = lines.indexOf("Opcodes:") + 1;
        assertTrue(start > 0, r.show());
        int end = start;
        while (end < lines.size() && !lines.get(end).isEmpty()) end++;
        List<String> ops = lines.subList(start, end);
        assertTrue(ops.size() > 5, r.show());
        for (String l : ops) {
            assertEquals(ops.get(0).length(), l.length(), "counts right-aligned in one column:\n" + String.join("\n", ops));
            assertTrue(l.matches("  \\S.*\\S +\\d+"), l);
        }
    }

    // ------------------------------------------------------------------ 6. installation, simulate, config

    @Test
    void theLauncherWorksThroughASymlinkOnThePath() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin")), other = Files.createDirectories(tmp.resolve("elsewhere"));
        Path link = Files.createSymbolicLink(bin.resolve("metaroce"), Launcher.SCRIPT);
        // A relative link to that link: the launcher follows the chain to the real file.
        Path rel = Files.createSymbolicLink(other.resolve("mr"), other.relativize(link));
        for (Path l : List.of(link, rel)) {
            Run r = Launcher.run(Call.of("dissect", "-r", CLEAN, "-c", "1").via(l, Path.of("/")));
            LauncherIT.ok(r);
            assertEquals(1, r.out().lines().count(), r.show());
        }
    }

    @Test
    void simulateAnswersBadValuesAndUnwritableFilesInOnePlainLine() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("adir"));
        List<Run> runs = Launcher.runAll(List.of(
                Call.of("simulate", "--scenario", "rocev2-clean", "--loss", "2", "--out", tmp.resolve("a.pcap").toString()),
                Call.of("simulate", "--scenario", "rocev2-clean", "--pmtu", "1000", "--out", tmp.resolve("b.pcap").toString()),
                Call.of("simulate", "--scenario", "rocev2-clean", "--out", "/nonexistent-dir/z.pcap"),
                Call.of("simulate", "--scenario", "rocev2-clean", "--out", dir.toString()),
                Call.of("simulate", "--scenario", "no-such-scenario", "--out", tmp.resolve("c.pcap").toString())));
        for (Run r : runs) {
            assertEquals(2, r.exit(), r.show());
            assertEquals(1, r.errLines().size(), "one line: " + r.show());
            assertTrue(r.err().startsWith("metaroce simulate: "), r.show());
            assertFalse(r.err().contains("java.") || r.err().contains("internal error"), r.show());
        }
        assertTrue(runs.get(0).err().contains("loss"), runs.get(0).show());
        assertTrue(runs.get(1).err().contains("pmtu"), runs.get(1).show());
        assertTrue(runs.get(2).err().contains("cannot write /nonexistent-dir/z.pcap"), runs.get(2).show());
        assertFalse(Files.exists(tmp.resolve("a.pcap")), "no file left behind by a bad value");
    }

    /** The README's example config file is one the shipped command accepts (the docs cannot drift from the keys). */
    @Test
    void theReadmeConfigExampleIsAccepted() throws Exception {
        String readme = Files.readString(Launcher.ROOT.resolve("README.md"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?s)```yaml\n(.*?)```").matcher(readme);
        assertTrue(m.find(), "README has the example");
        Path cfg = Files.writeString(tmp.resolve("readme.yaml"), m.group(1));
        Run r = Launcher.run("validate", "-T", "json", "--config", cfg.toString(), Launcher.CAPTURES.resolve("rocev2-read-atomic.pcapng").toString());
        assertTrue(r.exit() == 0 || r.exit() == 1, r.show());
        JsonNode s = LauncherIT.parse(r.out(), r).get("settings");
        assertEquals(List.of(4791, 4792), JSON.convertValue(s.get("roce_udp_ports"), List.class), r.show());
        assertFalse(s.get("rules").toString().contains("MR-CC-003"), "skip_rules applied");
    }

    @Test
    void validateConfigAcceptsAnUnquotedOff() throws Exception {
        String atomic = Launcher.CAPTURES.resolve("rocev2-read-atomic.pcapng").toString();
        Path cfg = Files.writeString(tmp.resolve("validate.yaml"), """
                # the README's example keys
                tap: auto
                thresholds:
                  cnp_interval_us: 50
                  reorder_window_us: 1000
                severity:
                  MR-RTX-005: off
                skip_rules: [MR-CC-003]
                """);
        List<Run> runs = Launcher.runAll(List.of(Call.of("validate", "-T", "json", atomic),
                Call.of("validate", "-T", "json", "--config", cfg.toString(), atomic)));
        JsonNode without = LauncherIT.parse(runs.get(0).out(), runs.get(0)), with = LauncherIT.parse(runs.get(1).out(), runs.get(1));
        assertEquals("", runs.get(1).err(), runs.get(1).show());
        assertTrue(without.get("files").get(0).get("summary").get("rules").has("MR-RTX-005"), "the sample has MR-RTX-005 notes");
        assertFalse(with.get("files").get(0).get("summary").get("rules").has("MR-RTX-005"), "off: " + runs.get(1).show());
        assertNotEquals(runs.get(0).out(), runs.get(1).out());
    }
}

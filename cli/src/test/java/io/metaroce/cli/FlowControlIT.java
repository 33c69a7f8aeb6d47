package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.LauncherCases;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import io.metaroce.testsupport.PauseFrames;
import io.metaroce.testsupport.Tools;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * PAUSE and PFC frames (MAC Control) through the shipped launcher: dissect's line, fields and filter as tshark's on
 * the vectors (test-support PauseFrames), analyze's "Flow control" section and JSON flow_control, and bad --link-speed
 * values as one line and exit 2. The launcher runs go in parallel, once, before the checks (as OptionSweepAIT).
 */
class FlowControlIT {
    @TempDir
    static Path tmp;

    private static final LauncherCases CASES = new LauncherCases();

    @BeforeAll
    static void runEveryCase() {
        String v = PauseFrames.write(tmp.resolve("pause-pfc.pcap"), PauseFrames.vectors()).toString();
        String sample = Launcher.CAPTURES.resolve("rocev2-clean.pcapng").toString();

        // dissect: tshark's Info on every line, its values for a PFC class's pause time, the same frames for a filter.
        add("dissect lines", Call.of("dissect", "-r", v), r -> {
            assertEquals(0, r.exit(), r.show());
            List<String> ours = r.out().lines().toList();
            List<String> info = tshark("-r", v, "-T", "fields", "-e", "_ws.col.Info");
            assertEquals(PauseFrames.vectors().size(), ours.size(), r.show());
            for (int i = 0; i < ours.size(); i++) {
                assertTrue(ours.get(i).contains(" MAC CTRL "), ours.get(i));
                if (info != null) {
                    String theirs = info.get(i).replace("[Malformed Packet]", "");
                    assertTrue(ours.get(i).contains(" " + theirs), "tshark's Info '" + theirs + "' in " + ours.get(i));
                }
            }
            assertTrue(ours.get(0).contains("02:00:00:00:00:0a \u2192 01:80:c2:00:00:01 MAC CTRL 60 Class Based Flow Control [CBFC] Pause"),
                    ours.get(0));
            assertTrue(ours.get(7).contains("[PFC class pause times truncated: 16 bytes needed, 3 left]"), ours.get(7));
        });
        String[] fields = {"-T", "fields", "-e", "frame.number", "-e", "macc.opcode", "-e", "macc.pause_time", "-e", "macc.cbfc.enbv",
                "-e", "macc.cbfc.enbv.c3", "-e", "macc.cbfc.pause_time.c3"};
        add("dissect -T fields -e macc.*", call("dissect", v, fields), r -> {
            assertEquals(0, r.exit(), r.show());
            List<String> t = tshark(concat(new String[] {"-r", v}, fields));
            if (t != null) assertEquals(t, r.out().lines().toList(), "as tshark");
            assertTrue(r.out().startsWith("1\t0x0101\t\t0x0018\t1\t65535\n"), r.show());
        });
        add("dissect -Y 'macc.opcode == 0x0101'", Call.of("dissect", "-r", v, "-Y", "macc.opcode == 0x0101", "-T", "fields", "-e", "frame.number"),
                r -> {
                    assertEquals(0, r.exit(), r.show());
                    List<String> t = tshark("-r", v, "-Y", "macc.opcode == 0x0101", "-T", "fields", "-e", "frame.number");
                    if (t != null) assertEquals(t, r.out().lines().toList(), "as tshark");
                    assertEquals(List.of("1", "2", "3", "4", "8", "9", "10"), r.out().lines().toList());
                });
        add("dissect -V", Call.of("dissect", "-r", v, "-V", "-c", "1"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("MAC Control\n    Opcode: Class Based Flow Control [CBFC] Pause (0x0101)  [macc.opcode]\n"), r.show());
            assertTrue(r.out().contains("        C3: 1  [macc_cbfc.enbv.c3]\n"), r.show());
            assertTrue(r.out().contains("    C3: 65535  [macc_cbfc_times.c3]\n"), r.show());
        });

        // analyze: the section and the JSON key, with and without the link speed.
        add("analyze --link-speed 100", Call.of("analyze", "-r", v, "--link-speed", "100"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("Flow control (PAUSE/PFC per sender and priority class; XOFF: pause time > 0, XON: 0; "
                    + "a quantum of 512 bit times at 100 Gb/s is 5.12 ns)\n"), r.show());
            assertTrue(r.out().contains("02:00:00:00:00:0a  3           6     5    1  197109  1009.198    0.000000  0.002000  300.000                 15.13      15.13\n"), r.show());
        });
        add("analyze without --link-speed", Call.of("analyze", "-r", v), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("02:00:00:00:00:0b  link        2     1    1   65535  0.000400  0.000500  >=4.19     >=83.89\n"), r.show());
            assertFalse(r.out().contains("Longest paused run"), r.show());
        });
        add("analyze -T json --link-speed 25", Call.of("analyze", "-r", v, "-T", "json", "--compact", "--link-speed", "25"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains(",\"flow_control\":{\"link_speed_gbps\":25,\"quantum_ns\":20.48,\"paused_lower_bound\":false,\"classes\":[{\"source\":\"02:00:00:00:00:0a\",\"class\":3,"),
                    r.show());
        });
        add("analyze, no PAUSE frames", Call.of("analyze", "-r", sample, "--link-speed", "100"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertFalse(r.out().contains("Flow control"), r.show());
        });
        for (String bad : new String[] {"0", "-5", "NaN", "Infinity", "100000"}) {
            add("analyze --link-speed " + bad, Call.of("analyze", "-r", v, "--link-speed", bad),
                    says("--link-speed must be the link's speed in Gb/s (e.g. 100), not " + bad));
        }
        add("analyze --link-speed abc", Call.of("analyze", "-r", v, "--link-speed", "abc"), says("--link-speed must be a number, not 'abc'"));

        // A PFC storm: switch A pauses class 3 every 50 us for 250 ms (past the watchdogs' 200 ms detection time).
        List<PauseFrames.Frame> frames = new java.util.ArrayList<>();
        for (long t = 0; t <= 250_000_000L; t += 50_000) frames.add(new PauseFrames.Frame(t, PauseFrames.pfc(PauseFrames.SWITCH_A, 0x08, 0, 0, 0, 65535)));
        String storm = PauseFrames.write(tmp.resolve("storm.pcap"), frames).toString();
        add("analyze, a PFC storm", Call.of("analyze", "-r", storm), r -> {
            assertEquals(0, r.exit(), r.show());
            assertTrue(r.out().contains("pfc-pause-storm            02:00:00:00:00:0a priority 3\n    priority 3 paused for at least 250.0 ms "
                    + "without a break by 02:00:00:00:00:0a, still at the end of the capture: a PFC storm (a receiver that stopped "
                    + "taking frames); a switch watchdog (200 ms) would have dropped it\n    started at 0.000000 s (capture time)\n"
                    + "    evidence frames [1, 5001]\n"), r.show());
            assertFalse(r.out().contains("pfc-pause-heavy"), r.show());
        });
        add("analyze --pfc-watchdog 300, no storm but a heavily paused class", Call.of("analyze", "-r", storm, "--pfc-watchdog", "300"), r -> {
            assertEquals(0, r.exit(), r.show());
            assertFalse(r.out().contains("pfc-pause-storm"), r.show());
            assertTrue(r.out().contains("pfc-pause-heavy            02:00:00:00:00:0a priority 3\n    priority 3 paused at least 100.0 % "
                    + "of the capture by 02:00:00:00:00:0a, never for the watchdog's 300 ms at once"), r.show());
        });
        add("validate, a PFC storm: MR-DIAG-022", Call.of("validate", storm), r -> {
            assertTrue(r.out().contains("MR-DIAG-022"), r.show());
            assertTrue(r.out().contains("pfc-pause-storm 02:00:00:00:00:0a priority 3: priority 3 paused for at least 250.0 ms"), r.show());
            assertFalse(r.out().contains("MR-DIAG-023"), r.show());
        });
        add("validate --pfc-watchdog 300: the storm is heavy, not a storm", Call.of("validate", storm, "--pfc-watchdog", "300"), r -> {
            assertFalse(r.out().contains("MR-DIAG-022"), r.show());
            assertTrue(r.out().contains("MR-DIAG-023"), r.show());
        });
        for (String bad : new String[] {"0", "-5", "NaN", "60001"}) {
            add("validate --pfc-watchdog " + bad, Call.of("validate", storm, "--pfc-watchdog", bad),
                    says("--pfc-watchdog must be a detection time in ms above 0 and at most 60000 (e.g. 200), not " + bad));
        }
        add("validate, PAUSE/PFC vectors: no MR-DIAG-022/023", Call.of("validate", v), r -> {
            assertFalse(r.out().contains("MR-DIAG-022"), r.show());
            assertFalse(r.out().contains("MR-DIAG-023"), r.show());
        });
        for (String bad : new String[] {"0", "-5", "NaN", "Infinity", "60001"}) {
            add("analyze --pfc-watchdog " + bad, Call.of("analyze", "-r", v, "--pfc-watchdog", bad),
                    says("--pfc-watchdog must be a detection time in ms above 0 and at most 60000 (e.g. 200), not " + bad));
        }
        add("analyze --pfc-watchdog abc", Call.of("analyze", "-r", v, "--pfc-watchdog", "abc"), says("--pfc-watchdog must be a number, not 'abc'"));
        add("analyze --pfc-watchdog 300 --events jsonl", Call.of("analyze", "-r", v, "--pfc-watchdog", "300", "--events", "jsonl"),
                says("--pfc-watchdog applies to the diagnosis of -r FILE (-T text or json)"));

        CASES.runAll();
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return CASES.checks().map(c -> DynamicTest.dynamicTest(c.getKey(), c.getValue()::run));
    }

    private static Consumer<Run> says(String what) { return LauncherCases.says(what); }

    private static List<String> tshark(String... args) { return Tools.tshark(tmp, List.of(), args); }

    private static Call call(String cmd, String file, String[] more) {
        return Call.of(concat(new String[] {cmd, "-r", file}, more));
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static void add(String name, Call call, Consumer<Run> check) { CASES.add(name, call, check); }
}

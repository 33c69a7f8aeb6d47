package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.dissector.DissectorConfig;
import io.metaroce.testsupport.PauseFrames;
import io.metaroce.testsupport.PauseFrames.Frame;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * analyze's flow-control report on the PAUSE/PFC vectors: per sender and class the frames, XOFF/XON, quanta, and the
 * longest run a class stayed paused (refreshed before it expired), in time only when the link speed is given; and
 * nothing of it for a capture without such frames.
 */
class FlowControlTest {
    @TempDir
    Path tmp;

    private static final AnalysisSettings AT_100G = AnalysisSettings.DEFAULT.withLinkSpeed(100);

    private AnalysisResult analyze(List<Frame> frames, AnalysisSettings s) throws Exception {
        return Analyzer.analyze(PauseFrames.write(tmp.resolve("f.pcap"), frames), s, false, null);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> classes(AnalysisResult r) {
        return (List<Map<String, Object>>) r.flowControl().get("classes");
    }

    @Test
    void perSenderAndClassAt100G() throws Exception {
        AnalysisResult r = analyze(PauseFrames.vectors(), AT_100G);
        assertEquals(5.12, r.flowControl().get("quantum_ns"));
        List<Map<String, Object>> c = classes(r);
        assertEquals(3, c.size(), c.toString());
        // Switch A, class 3: XOFF at 0, 100, 200 us (65535 quanta = 335.5 us each, refreshed in time), XON at 300 us;
        // the tagged XOFF (500 quanta) at 1 ms and the one with a reserved enable bit (4 quanta) at 2 ms expire alone.
        // The cut frame and the unknown opcode are not counted.
        Map<String, Object> a3 = c.get(0);
        assertEquals("02:00:00:00:00:0a", a3.get("source"));
        assertEquals(3L, a3.get("class"));
        assertEquals(List.of(6L, 5L, 1L, 197109L, 1009198L, 300_000L, 0L),
                List.of(a3.get("frames"), a3.get("xoff"), a3.get("xon"), a3.get("quanta"), a3.get("quanta_ns"),
                        a3.get("longest_run_ns"), a3.get("longest_run_start_ns")));
        Map<String, Object> a4 = c.get(1);
        assertEquals(4L, a4.get("class"));
        assertEquals(1311L, a4.get("longest_run_ns"), "256 quanta at 100 Gb/s, never refreshed");
        Map<String, Object> b = c.get(2);
        assertEquals("02:00:00:00:00:0b", b.get("source"));
        assertEquals("link", b.get("class"), "802.3x PAUSE: the whole link");
        assertEquals(List.of(2L, 1L, 1L, 100_000L, 400_000L, 400_000L, 500_000L),
                List.of(b.get("frames"), b.get("xoff"), b.get("xon"), b.get("longest_run_ns"), b.get("longest_run_start_ns"),
                        b.get("first_ns"), b.get("last_ns")));
    }

    @Test
    void pausedSharesOfTheCaptureAndOfTheSpan() throws Exception {
        List<Map<String, Object>> c = classes(analyze(PauseFrames.vectors(), AT_100G));
        // Class 3 of switch A: 300 us (0 to its XON) + 2.56 us (the tagged 500 quanta) + the 20 ns of the last XOFF,
        // which reach past the capture's last frame (its own) and are not counted: 302.56 us of the 2 ms capture.
        Map<String, Object> a3 = c.get(0);
        assertEquals(List.of(302_560L, 0.1513, 0.1513), List.of(a3.get("paused_ns"), a3.get("paused_share"), a3.get("paused_share_of_span")));
        // Switch B: paused from 400 us to its XON at 500 us, its whole span.
        Map<String, Object> b = c.get(2);
        assertEquals(List.of(100_000L, 0.05, 1.0), List.of(b.get("paused_ns"), b.get("paused_share"), b.get("paused_share_of_span")));
    }

    @Test
    void withoutALinkSpeedThePausedSharesAreLowerBoundsAt400G() throws Exception {
        AnalysisResult r = analyze(PauseFrames.vectors(), AnalysisSettings.DEFAULT);
        assertEquals(true, r.flowControl().get("paused_lower_bound"));
        // 65535 quanta at 400 Gb/s last 83.885 us, less than the 100 us to the next XOFF: three runs of 83.885 us,
        // then 500 quanta (640 ns); at 100 Gb/s (above) the same frames paused the class 302.56 us.
        Map<String, Object> a3 = classes(r).getFirst();
        assertEquals(List.of(252_295L, 0.1261), List.of(a3.get("paused_ns"), a3.get("paused_share")));
        assertEquals(false, analyze(PauseFrames.vectors(), AT_100G).flowControl().get("paused_lower_bound"));
    }

    @Test
    void aPauseThatExpiredBeforeItsRefreshEndsTheRun() throws Exception {
        long a = PauseFrames.SWITCH_A;
        List<Frame> frames = List.of(
                new Frame(0, PauseFrames.pfc(a, 0x01, 100)),            // 512 ns at 100 Gb/s
                new Frame(10_000, PauseFrames.pfc(a, 0x01, 65535)),     // after it expired: a new run
                new Frame(200_000, PauseFrames.pfc(a, 0x01, 65535)),    // refreshed in time (335.5 us)
                new Frame(250_000, PauseFrames.pfc(a, 0x01, 0)));       // XON
        Map<String, Object> c0 = classes(analyze(frames, AT_100G)).getFirst();
        assertEquals(240_000L, c0.get("longest_run_ns"));
        assertEquals(10_000L, c0.get("longest_run_start_ns"));
        // At 1 Gb/s 100 quanta are 51.2 us: the first pause was still on at 10 us, one run from 0 to the XON.
        Map<String, Object> slow = classes(analyze(frames, AnalysisSettings.DEFAULT.withLinkSpeed(1))).getFirst();
        assertEquals(250_000L, slow.get("longest_run_ns"));
        assertEquals(0L, slow.get("longest_run_start_ns"));
    }

    @Test
    void withoutALinkSpeedQuantaOnly() throws Exception {
        AnalysisResult r = analyze(PauseFrames.vectors(), AnalysisSettings.DEFAULT);
        Map<String, Object> a3 = classes(r).getFirst();
        assertEquals(197109L, a3.get("quanta"));
        assertNull(a3.get("quanta_ns"));
        assertNull(a3.get("longest_run_ns"), "when a pause expires depends on the speed");
        assertNull(r.flowControl().get("link_speed_gbps"));
        StringBuilder text = new StringBuilder();
        Reports.text(r, null, text);
        assertTrue(text.toString().contains("Flow control (PAUSE/PFC"), text.toString());
        assertTrue(text.toString().contains("02:00:00:00:00:0a  3           6     5    1  197109  0.000000  0.002000  >=12.61    >=12.61\n"), text.toString());
        assertTrue(text.toString().contains("at least: timed at 400 Gb/s, the shortest quantum"), text.toString());
        assertFalse(text.toString().contains("Longest"), text.toString());
    }

    @Test
    void textAndJsonAt100G() throws Exception {
        Path f = PauseFrames.write(tmp.resolve("v.pcap"), PauseFrames.vectors());
        StringBuilder text = new StringBuilder(), json = new StringBuilder();
        AnalyzeOutput.write(f, AT_100G, AnalyzeOutput.Form.TEXT, false, text);
        AnalyzeOutput.write(f, AT_100G, AnalyzeOutput.Form.JSON, false, json);
        assertTrue(text.toString().contains("""
                Source             Class  Frames  XOFF  XON  Quanta  Quanta(us)  First(s)  Last(s)   Longest paused run(us)  Paused(%)  Of span(%)
                02:00:00:00:00:0a  3           6     5    1  197109  1009.198    0.000000  0.002000  300.000                 15.13      15.13
                02:00:00:00:00:0a  4           1     1    0     256  1.311       0.000000  0.000000  1.311                   0.07       100.00
                02:00:00:00:00:0b  link        2     1    1   65535  335.539     0.000400  0.000500  100.000                 5.00       100.00
                """), text.toString());
        assertTrue(json.toString().contains(",\"flow_control\":{\"link_speed_gbps\":100"), json.toString());
    }

    @Test
    void aCaptureWithoutPauseFramesReportsNothingOfIt() throws Exception {
        Path f = Path.of("../samples/captures/rocev2-gbn-loss.pcapng");
        AnalysisResult r = Analyzer.analyze(f, AT_100G, false, null);
        assertNull(r.flowControl());
        StringBuilder text = new StringBuilder(), json = new StringBuilder();
        AnalyzeOutput.write(f, AT_100G, AnalyzeOutput.Form.TEXT, false, text);
        AnalyzeOutput.write(f, AT_100G, AnalyzeOutput.Form.JSON, false, json);
        assertFalse(text.toString().contains("Flow control"));
        assertFalse(json.toString().contains("flow_control"));
    }

    @Test
    void theFastPathDeclinesPauseFramesSoRoceFramesPayNothing() {
        FrameFacts f = new FrameFacts();
        for (Frame fr : PauseFrames.vectors()) {
            assertFalse(new FastFacts(DissectorConfig.DEFAULT).fill(f, MemorySegment.ofArray(fr.bytes()), 1, fr.timeNanos(),
                    fr.bytes().length, 1, -1), "FastFacts takes RoCE frames only");
        }
    }

    /**
     * The paused runs the GUI draws as bands (AnalysisResult.pauseRuns): on the vectors at 100 Gb/s, switch A's class 3
     * run from 0 to its XON at 300 us is the longest the report gives; every run lies inside its class's span; and a
     * class paused a hundred thousand times keeps only the first FlowControl.MAX_RUNS runs.
     */
    @Test
    void pausedRunsAsTheReportTimesThem() throws Exception {
        AnalysisResult r = analyze(PauseFrames.vectors(), AT_100G);
        List<long[]> runs = r.pauseRuns();
        assertFalse(runs.isEmpty());
        long[] a3 = runs.stream().filter(x -> x[FlowControl.R_SRC] == PauseFrames.SWITCH_A && x[FlowControl.R_CLASS] == 3)
                .findFirst().orElseThrow();
        assertEquals(List.of(0L, 300_000L, 1L, 4L), List.of(a3[FlowControl.R_START], a3[FlowControl.R_END],
                a3[FlowControl.R_FIRST_FRAME], a3[FlowControl.R_LAST_FRAME]));
        long[] link = runs.stream().filter(x -> x[FlowControl.R_CLASS] == FlowControl.LINK).findFirst().orElseThrow();
        assertEquals(List.of(400_000L, 500_000L), List.of(link[FlowControl.R_START], link[FlowControl.R_END]));
        for (long[] x : runs) assertTrue(x[FlowControl.R_END] > x[FlowControl.R_START], java.util.Arrays.toString(x));
        List<Frame> many = new java.util.ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            many.add(new Frame(i * 1_000L, PauseFrames.pfc(PauseFrames.SWITCH_A, 0x08, 0, 0, 0, i % 2 == 0 ? 100 : 0)));
        }
        List<long[]> capped = analyze(many, AT_100G).pauseRuns();
        assertEquals(FlowControl.MAX_RUNS, capped.size());
        assertEquals(0L, capped.getFirst()[FlowControl.R_START]);
        assertTrue(analyze(List.of(), AnalysisSettings.DEFAULT).pauseRuns().isEmpty());
    }
}

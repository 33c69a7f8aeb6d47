package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.samples.Params;
import io.metaroce.samples.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The congestion loop (analyze's "Congestion loop", JSON {@code congestion_loop}): CE -> CNP delay, CNP spacing, the
 * rate before and after each CNP and the per-QP verdict; on the samples, on simulated sender taps with the reaction
 * point on and off, and on the edge cases (one CNP, CE at the capture's end, no data after the CNP, MR-CNPs per path).
 */
class CongestionLoopTest {
    static final Path CAPTURES = Path.of("../samples/captures");
    @TempDir Path dir;

    static AnalysisResult analyze(Path cap) throws Exception {
        return new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).run(cap);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> rows(AnalysisResult r) {
        assertNotNull(r.congestionLoop(), "no congestion_loop");
        return (List<Map<String, Object>>) r.congestionLoop().get("flows");
    }

    static Map<String, Object> row(AnalysisResult r, String flow) {
        for (Map<String, Object> m : rows(r)) if (m.get("flow").equals(flow)) return m;
        throw new AssertionError("no row for " + flow + " in " + rows(r));
    }

    Path simulate(String scenario, String... params) throws Exception {
        Params p = Simulator.params(scenario);
        for (String s : params) p.set(s);
        Path cap = dir.resolve(scenario + "-" + String.join("-", params).replace(':', '_') + ".pcapng");
        Simulator.run(scenario, p, cap, dir.resolve(cap.getFileName() + ".truth.json"));
        return cap;
    }

    @Test
    void noSectionWithoutCeOrCnp() throws Exception {
        assertNull(analyze(CAPTURES.resolve("rocev2-clean.pcapng")).congestionLoop());
        assertNull(analyze(CAPTURES.resolve("rocev2-gbn-loss.pcapng")).congestionLoop());
    }

    @Test
    void theIncastAtTheReceiverAnswersEveryCeWithinMicrosecondsAndCannotShowTheRate() throws Exception {
        AnalysisResult r = analyze(CAPTURES.resolve("rocev2-ecn-cnp.pcapng"));
        assertEquals(4, rows(r).size());
        for (Map<String, Object> m : rows(r)) {
            assertEquals("arrival at the receiver", m.get("rate_seen_as"));
            assertEquals(m.get("cnps_expected"), m.get("cnps"), "" + m);
            @SuppressWarnings("unchecked")
            Map<String, Object> d = (Map<String, Object>) m.get("ce_to_cnp_ns");
            // Pacing aside (a mark inside the 50 us interval waits for its end), the receiver answers at once.
            assertTrue(((Number) d.get("median")).longValue() < 10_000, "" + d);
            @SuppressWarnings("unchecked")
            Map<String, Object> iv = (Map<String, Object>) m.get("cnp_interval_ns");
            assertTrue(((Number) iv.get("min")).longValue() >= 50_000, "" + iv);
            // Behind the saturated 10 Gb/s link the arrival rate is the flow's share: no cut visible, no false finding.
            assertEquals("unknown", m.get("verdict"), "" + m);
        }
    }

    @Test
    void aSenderTapTellsAWorkingReactionPointFromAnIgnoredOne() throws Exception {
        String[] longer = {"message-gap-us=0", "messages=100", "duration-us=2000", "tap=sender"};
        Map<String, Object> on = rows(analyze(simulate("rocev2-ecn-cnp", longer))).get(0);
        assertEquals("departure at the sender", on.get("rate_seen_as"));
        assertEquals("working", on.get("verdict"), "" + on);
        assertTrue(((Number) on.get("pace_cut_pct")).doubleValue() > 50, "" + on);
        String[] off = {"message-gap-us=0", "messages=100", "duration-us=2000", "tap=sender", "dcqcn=false"};
        Map<String, Object> ign = rows(analyze(simulate("rocev2-ecn-cnp", off))).get(0);
        assertEquals("cnp-ignored", ign.get("verdict"), "" + ign);
        assertEquals(0.0, ((Number) ign.get("pace_cut_pct")).doubleValue(), 5.0, "" + ign);
    }

    @Test
    void oneStrayMarkWithoutCnpIsMrCc002sNotADeadNotificationPoint() throws Exception {
        // conformance-violations leaves one CE mark of one QP unanswered (MR-CC-002): no verdict of no-cnp for it.
        AnalysisResult r = analyze(CAPTURES.resolve("conformance-violations.pcapng"));
        Map<String, Object> m = row(r, "10.0.0.2>10.0.0.1/0x0000e2");
        assertEquals(0L, ((Number) m.get("cnps")).longValue());
        assertEquals("unknown", m.get("verdict"), "" + m);
    }

    // ------------------------------------------------------------------ edge cases on the loop itself

    static final long W = 50_000;

    /** A loop fed data packets of 1000 bytes every gap ns over [from, to). */
    static void feed(CongestionLoop l, long from, long to, long gap) {
        for (long t = from; t < to; t += gap) l.data(t, t, 1000);
    }

    @Test
    void oneCnpIsMeasuredOnlyWithAWholeWindowBeforeAndDataAfter() {
        CongestionLoop l = new CongestionLoop(W, W, 0);
        feed(l, 1, 200_000, 100);
        l.ce(200_000, 1, 0);
        l.cnp(201_000, 2, 0);
        feed(l, 201_000, 400_000, 200); // half the pace: the reaction point cut by half
        assertEquals(1, l.delays.size());
        assertEquals(1_000, l.delays.median());
        assertEquals(0, l.intervals.size(), "one CNP: no interval");
        assertEquals(1, l.cuts.size());
        assertEquals(5_000, l.cuts.median(), 200, "bytes halved");
        assertEquals(5_000, l.paceCut(), 1, "pace halved");
    }

    @Test
    void aFlowWithNoDataAfterItsCnpMakesNoCut() {
        CongestionLoop l = new CongestionLoop(W, W, 0);
        feed(l, 1, 200_000, 100);
        l.cnp(200_000, 2, 0);
        // It finished sending: nothing after, so nothing measured (an end of data is no rate cut).
        assertEquals(0, l.cuts.size());
        assertNull(l.paceCut());
        // Data inside the after window only, none after it: still not measured.
        CongestionLoop m = new CongestionLoop(W, W, 0);
        feed(m, 1, 200_000, 100);
        m.cnp(200_000, 2, 0);
        feed(m, 200_100, 210_000, 100);
        assertEquals(0, m.cuts.size());
    }

    @Test
    void ceAtTheCapturesEndIsNotACeWithoutCnp() throws Exception {
        Flow fl = new Flow(0, new FlowKey());
        fl.view = View.RECEIVER;
        fl.ceMarks = 2;
        fl.cnpExpected = 2;
        fl.loop = new CongestionLoop(W, W, 1_000_000);
        fl.loop.ce(1_000_000, 7, 0);
        fl.loop.ce(1_060_000, 8, 0);
        // The capture ends 10 us after the mark, inside its reaction window (100 us): the receiver had no time.
        assertEquals("unknown", CongestionLoop.verdict(fl, AnalysisSettings.DEFAULT, 1_010_000));
        // Ended well after it: the receiver never answered.
        assertEquals("no-cnp", CongestionLoop.verdict(fl, AnalysisSettings.DEFAULT, 2_000_000));
        // One CNP due only (one pacing interval of marks): a stray mark, not a dead notification point.
        fl.cnpExpected = 1;
        assertEquals("unknown", CongestionLoop.verdict(fl, AnalysisSettings.DEFAULT, 2_000_000));
    }

    @Test
    void mrCnpsAnswerTheCeMarksOfTheirOwnPath() {
        CongestionLoop l = new CongestionLoop(W, W, 0);
        l.ce(1_000, 1, 1);
        l.ce(2_000, 2, 2);
        l.cnp(2_500, 3, 2); // MR-CNP for path 2: 500 ns after path 2's mark, not 1,500 after path 1's
        assertEquals(500, l.delays.median());
        l.cnp(4_000, 4, 1);
        assertEquals(2, l.delays.size());
        assertEquals(3_000L, l.delays.summary(true).get("max"));
        // A CNP with no mark waiting on its path adds no delay.
        l.cnp(60_000, 5, 3);
        assertEquals(2, l.delays.size());
    }

    @Test
    void aMarkInsideThePacingIntervalWaitsForItsEndNotForTheReceiver() {
        CongestionLoop l = new CongestionLoop(W, W, 0);
        l.ce(0, 1, 0);
        l.cnp(1_000, 2, 0);
        l.ce(2_000, 3, 0); // inside the 50 us interval: may not be answered before 51 us
        l.cnp(51_300, 4, 0);
        assertEquals(2, l.delays.size());
        assertEquals(1_000L, l.delays.summary(true).get("max"));
    }
}

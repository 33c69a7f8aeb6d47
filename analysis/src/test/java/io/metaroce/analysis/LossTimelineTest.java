package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The loss timeline's bins, its loss pattern and its two renderings, fed frames and events directly. */
class LossTimelineTest {
    private static final long US = 1_000;

    private static AnalysisEvent retx(long t, Cause cause, FrameVerdict.Spurious spurious) {
        return new AnalysisEvent.Retransmission(1, t, "f", 1, cause, false, null, null, null, null, null, spurious);
    }

    private static AnalysisEvent nak(long t, boolean rnr) {
        return new AnalysisEvent.Nak(1, t, "f", 1, AnalysisEvent.NakKind.NAK, rnr, null, null, null, null, null, null);
    }

    /** A timeline with a frame every microsecond for the given time and the given losses at the given microseconds. */
    private static LossTimeline traffic(long us, long... lossAtUs) {
        LossTimeline t = new LossTimeline();
        for (long i = 0; i < us; i++) t.frame(1_000_000 + i * US);
        for (long at : lossAtUs) t.event(retx(1_000_000 + at * US, Cause.NAK, FrameVerdict.Spurious.NO));
        return t;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> pattern(LossTimeline t) {
        return (Map<String, Object>) t.toJsonMap().get("pattern");
    }

    @SuppressWarnings("unchecked")
    private static long total(LossTimeline t, String series) {
        Map<String, Object> s = (Map<String, Object>) t.toJsonMap().get("series");
        long n = 0;
        for (Object v : (List<Object>) s.get(series)) n += (Long) v;
        return n;
    }

    @Test
    void burstIsFoundWhereTheLossesAre() {
        long[] at = new long[22];
        for (int i = 0; i < 20; i++) at[i] = 5_000 + i;   // 20 losses within 20 us of a 10 ms capture
        at[20] = 1_000;
        at[21] = 9_000;
        Map<String, Object> p = pattern(traffic(10_000, at));
        assertEquals("burst", p.get("kind"));
        assertEquals(22L, p.get("losses"));
        assertEquals(20L, p.get("burst_losses"));
        double start = (Double) p.get("burst_start_s"), end = (Double) p.get("burst_end_s");
        assertTrue(start <= 0.005 && end > 0.005019 && end - start < 0.001, start + " " + end);
    }

    @Test
    void lossesInTheOnlyTrafficAreNoBurst() {
        // Two milliseconds of traffic, an hour apart: nearly every column is empty, and the losses fall in the first.
        LossTimeline t = new LossTimeline();
        for (long i = 0; i < 2_000; i++) t.frame(i * US);
        for (long i = 0; i < 2_000; i++) t.frame(3_600_000_000_000L + i * US);
        for (long i = 0; i < 20; i++) t.event(retx(500 * US + i, Cause.NAK, FrameVerdict.Spurious.NO));
        assertEquals("intermittent", pattern(t).get("kind"));
    }

    @Test
    void lossesAllAlongAreSpread() {
        long[] at = new long[100];
        for (int i = 0; i < at.length; i++) at[i] = i * 100;   // one every 100 us over 10 ms
        assertEquals("spread", pattern(traffic(10_000, at)).get("kind"));
    }

    @Test
    void afewSeparateLossesAreIntermittentFewOrNone() {
        assertEquals("intermittent", pattern(traffic(10_000, 500, 501, 3_000, 3_001, 6_000, 6_001, 9_500, 9_501)).get("kind"));
        assertEquals("few", pattern(traffic(10_000, 500, 600)).get("kind"));
        assertEquals("none", pattern(traffic(10_000)).get("kind"));
    }

    @Test
    void spuriousRetransmissionsAreNoLossAndEveryCountIsKept() {
        LossTimeline t = traffic(1_000);
        t.event(retx(1_000_000 + 10 * US, Cause.TIMEOUT, FrameVerdict.Spurious.NO));
        t.event(retx(1_000_000 + 11 * US, Cause.TIMEOUT, FrameVerdict.Spurious.YES));
        t.event(retx(1_000_000 + 12 * US, Cause.SACK, FrameVerdict.Spurious.UNDECIDED));
        t.event(nak(1_000_000 + 13 * US, false));
        t.event(nak(1_000_000 + 14 * US, true));
        t.event(new AnalysisEvent.PsnGap(1, 1_000_000 + 15 * US, "f", 9, 5, 4, AnalysisEvent.Loss.UNKNOWN));
        assertEquals(1_000, total(t, "frames"));
        assertEquals(2, total(t, "retransmissions"));
        assertEquals(1, total(t, "timeouts"));
        assertEquals(1, total(t, "naks"));
        assertEquals(1, total(t, "rnr_naks"));
        assertEquals(4, total(t, "psn_gaps"));
    }

    @Test
    void binsWidenWithTheCaptureAndMemoryStaysFixed() {
        LossTimeline t = new LossTimeline();
        // Ten seconds, a frame every 100 us, one frame before the first (time going backwards).
        for (long i = 0; i < 100_000; i++) t.frame(5_000_000_000L + i * 100 * US);
        t.frame(4_000_000_000L);
        Map<String, Object> j = t.toJsonMap();
        long bin = (Long) j.get("bin_ns");
        int bins = (Integer) j.get("bins");
        assertEquals(1, Long.bitCount(bin), "a power of two: " + bin);
        assertTrue(bins <= LossTimeline.COLUMNS && bins * bin >= 10_000_000_000L - 100 * US, bins + " x " + bin);
        assertEquals(100_001, total(t, "frames"));
        assertEquals(5_000_000_000L, j.get("first_ns"));
    }

    @Test
    void textDrawsARowPerCountAndSaysThePattern() throws Exception {
        long[] at = new long[20];
        for (int i = 0; i < 20; i++) at[i] = 5_000 + i;
        LossTimeline t = traffic(10_000, at);
        for (int i = 0; i < 20; i++) t.event(new AnalysisEvent.CeMark(1, 1_000_000 + (5_000 + i) * US, "f", 1, null));
        StringBuilder b = new StringBuilder();
        t.appendText(b);
        String s = b.toString();
        assertTrue(s.startsWith("Loss timeline\n") && s.endsWith("=".repeat(100) + "\n"), s);
        assertTrue(s.lines().anyMatch(l -> l.startsWith("Frames") && l.matches(".*\\| 10000 \\(peak [0-9]+\\)")), s);
        String retx = s.lines().filter(l -> l.startsWith("Retransmissions")).findFirst().orElseThrow();
        assertTrue(retx.endsWith("| 20 (peak 20)") && retx.contains("\u2588"), retx);
        assertFalse(s.contains("RNR NAKs"), "a count with nothing is not drawn: " + s);
        assertTrue(s.contains("Loss pattern: one burst"), s);
        assertTrue(s.contains("the losses come with congestion"), s);
        StringBuilder empty = new StringBuilder();
        new LossTimeline().appendText(empty);
        assertTrue(empty.toString().contains("(no frames)\n"), empty.toString());
    }
}

package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code compare}'s list of lost packets: a PSN lost more than once (an original and its resend) shows as such, and
 * the times are also given as tshark users read them (seconds since the capture's first frame; UTC).
 */
class CompareLossListTest {
    /** 2026-01-01 00:00:00 UTC. */
    private static final long EPOCH = 1_767_225_600_000_000_000L;

    /**
     * Requests 0..19 sent at point 1, each reaching point 2 after 2 us, ACKs back; PSN 5 is lost, and its resend too
     * (a new fingerprint each time: a new IP id), then the third copy crosses; 8, 9, 10 are lost once, and 10 again.
     */
    private static Map<String, Object> model() {
        CompareMatcher m = new CompareMatcher(1_000_000);
        long t = EPOCH + 1_000;
        int fp = 1;
        int[] order = {0, 1, 2, 3, 4, 5, 5, 5, 6, 7, 8, 9, 10, 10, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
        boolean[] lost = {false, false, false, false, false, true, true, false, false, false, true, true, true, true, false,
            false, false, false, false, false, false, false, false, false};
        for (int i = 0; i < order.length; i++, t += 10_000) {
            FrameFacts f = CompareMatcherTest.packet(true, order[i], CompareMatcherTest.SEND_ONLY, fp++);
            m.packet(CompareMatcher.P1, f, t, t);
            if (!lost[i]) m.packet(CompareMatcher.P2, f, t + 2_000, t + 2_000);
            FrameFacts a = CompareMatcherTest.packet(false, order[i], CompareMatcherTest.ACK, 1000 + fp);
            m.packet(CompareMatcher.P2, a, t + 3_000, t + 3_000);
            m.packet(CompareMatcher.P1, a, t + 5_000, t + 5_000);
        }
        m.end();
        CompareReport r = new CompareReport(m, 0, "estimated", 1_000_000, new String[] {"a", "b"}, new long[] {48, 44},
                new long[] {EPOCH, EPOCH + 500});
        return r.model(List.of());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> lost() {
        for (Object o : (List<Object>) model().get("flows")) {
            Map<String, Object> f = (Map<String, Object>) o;
            if (f.get("flow").equals("10.0.0.1>10.0.0.2/0x000201")) return (Map<String, Object>) f.get("lost_between");
        }
        throw new AssertionError("no flow");
    }

    @Test
    void aPsnLostAgainIsCountedInTheListNotOnlyInTheTotal() {
        Map<String, Object> l = lost();
        assertEquals(6L, l.get("count"));
        // The PSN list keeps each run once (as before: machine readers of psns see the same ranges)...
        assertEquals(List.of(5L, List.of(8L, 10L)), l.get("psns"));
        // ...and the repeats say which PSNs were lost more than once, and at which entry of psns.
        assertEquals(List.of(Map.of("psn", 5L, "times", 2L, "entry", 0L), Map.of("psn", 10L, "times", 2L, "entry", 1L)),
                l.get("psn_repeats"));
    }

    @Test
    void theTextShowsTheRepeatsAndTimesAsTsharkUsersReadThem() {
        Map<String, Object> model = model();
        CompareMatcher m = new CompareMatcher(1);
        String text = new CompareReport(m, 0, "estimated", 1, new String[] {"a", "b"}, new long[2], new long[2]).text(model);
        String row = text.lines().filter(s -> s.contains("lost between")).findFirst().orElseThrow();
        assertTrue(row.contains(" 5 (x2),8-10 (10 x2) "), row);
        // First loss: the first copy of PSN 5, sent 51 us after the capture's first frame (EPOCH).
        assertTrue(row.contains(" 0.000051000 "), row);
        assertTrue(row.endsWith("2026-01-01 00:00:00.000051000"), row);
        Map<String, Object> l = lost();
        assertEquals(51e-6, (Double) l.get("first_s"), 1e-12);
        assertEquals(EPOCH + 51_000, l.get("first_ns"));
    }
}

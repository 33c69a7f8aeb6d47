package io.metaroce.analysis;

import io.metaroce.dissector.Addresses;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The PAUSE (802.3x) and PFC (802.1Qbb) frames of a capture, per sender MAC and priority class: frames, XOFF (pause
 * time above 0) and XON (0), the quanta asked for, first and last frame, and the longest run in which the class stayed
 * paused. A run starts at an XOFF and goes on while XOFFs refresh the pause before it expires; it ends at an XON or
 * where the last pause expired. When it expires depends on the link speed (a quantum is 512 bit times): without it
 * the report gives quanta only, no times and no runs, rather than runs a guessed speed would make up.
 *
 * <p>Fed only with frames that are not RoCE (the engine's non-RoCE branch), so RoCE frames pay nothing for it. State:
 * one long[] per sender and class (at most nine classes a sender: 0-7 and the link-wide PAUSE), in one class so that
 * the analysis loads nothing new when a capture first holds such a frame.
 */
final class FlowControl {
    /** The class of an 802.3x PAUSE: the whole link. */
    static final int LINK = 8;
    private static final int FRAMES = 0, XOFF = 1, XON = 2, QUANTA = 3, FIRST = 4, LAST = 5, RUN_START = 6, EXPIRES = 7,
            LONGEST = 8, LONGEST_START = 9, SIZE = 10;

    private final double quantumNs;
    /** Key: sender MAC * 16 + class; sorted, so the report lists senders and classes in order. */
    private final TreeMap<Long, long[]> classes = new TreeMap<>();

    FlowControl(double quantumNs) { this.quantumNs = quantumNs; }

    /** One MAC Control frame with its whole body ({@link FrameFacts#macc} set). */
    void accept(FrameFacts f) {
        if (f.macc == FrameFacts.MACC_PAUSE) {
            add(f.maccSrc, LINK, f.timeNs, f.maccQuanta(0));
            return;
        }
        for (int c = 0; c < 8; c++) if ((f.maccEnbv & 1 << c) != 0) add(f.maccSrc, c, f.timeNs, f.maccQuanta(c));
    }

    private void add(long src, int cls, long t, int quanta) {
        long[] s = classes.computeIfAbsent(src * 16 + cls, k -> {
            long[] a = new long[SIZE];
            a[FIRST] = a[RUN_START] = a[LONGEST] = -1;
            return a;
        });
        s[FRAMES]++;
        if (s[FIRST] < 0) s[FIRST] = t;
        s[LAST] = t;
        if (quanta == 0) {
            s[XON]++;
            if (s[RUN_START] >= 0) endRun(s, Math.min(t, s[EXPIRES]));
            return;
        }
        s[XOFF]++;
        s[QUANTA] += quanta;
        // A pause that expired before this XOFF ended its run there; this XOFF starts the next one.
        if (s[RUN_START] >= 0 && t > s[EXPIRES]) endRun(s, s[EXPIRES]);
        if (s[RUN_START] < 0) s[RUN_START] = t;
        s[EXPIRES] = quantumNs > 0 ? t + Math.round(quanta * quantumNs) : Long.MAX_VALUE;
    }

    private static void endRun(long[] s, long end) {
        if (end - s[RUN_START] > s[LONGEST]) {
            s[LONGEST] = end - s[RUN_START];
            s[LONGEST_START] = s[RUN_START];
        }
        s[RUN_START] = -1;
    }

    /**
     * The report (JSON {@code flow_control}), a run still open at the end of the capture closed where its pause
     * expires; or null when the capture held no such frame.
     */
    Map<String, Object> finish(double linkSpeedGbps) {
        if (classes.isEmpty()) return null;
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Map.Entry<Long, long[]> e : classes.entrySet()) {
            long[] s = e.getValue();
            if (s[RUN_START] >= 0) endRun(s, s[EXPIRES]);
            long src = e.getKey() >> 4;
            int cls = (int) (e.getKey() & 15);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("source", src < 0 ? null : Addresses.mac(src));
            m.put("class", cls == LINK ? "link" : (Object) (long) cls);
            m.put("frames", s[FRAMES]);
            m.put("xoff", s[XOFF]);
            m.put("xon", s[XON]);
            m.put("quanta", s[QUANTA]);
            m.put("quanta_ns", quantumNs > 0 ? (Object) Math.round(s[QUANTA] * quantumNs) : null);
            m.put("first_ns", s[FIRST]);
            m.put("last_ns", s[LAST]);
            boolean run = quantumNs > 0 && s[LONGEST] >= 0;
            m.put("longest_run_ns", run ? (Object) s[LONGEST] : null);
            m.put("longest_run_start_ns", run ? (Object) s[LONGEST_START] : null);
            rows.add(m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("link_speed_gbps", linkSpeedGbps > 0 ? (Object) linkSpeedGbps : null);
        out.put("quantum_ns", quantumNs > 0 ? (Object) (Math.round(quantumNs * 1000) / 1000.0) : null);
        out.put("classes", rows);
        return out;
    }
}

package io.metaroce.analysis;

import io.metaroce.dissector.Addresses;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The PAUSE (802.3x) and PFC (802.1Qbb) frames of a capture, per sender MAC and priority class: frames, XOFF (pause
 * time above 0) and XON (0), the quanta asked for, first and last frame, the longest run in which the class stayed
 * paused, and the share of the capture (and of the class's own span) it was paused. A run starts at an XOFF and goes
 * on while XOFFs refresh the pause before it expires; it ends at an XON or where the last pause expired. When it
 * expires depends on the link speed (a quantum is 512 bit times): without it the report gives no times and no runs,
 * rather than runs a guessed speed would make up, and the paused shares at the fastest common link (400 Gb/s, where a
 * quantum is shortest), which can only be below the truth: "at least".
 *
 * <p>Fed only with frames that are not RoCE (the engine's non-RoCE branch, the diagnoser's), so RoCE frames pay nothing
 * for it. State: one long[] per sender and class (at most nine classes a sender: 0-7 and the link-wide PAUSE), in one
 * class so that the analysis loads nothing new when a capture first holds such a frame. The diagnosis holds one too
 * ({@link #FlowControl(double, long)}): the runs that outlast a PFC watchdog's detection time, the pause storms.
 */
public final class FlowControl {
    /** The class of an 802.3x PAUSE: the whole link. */
    public static final int LINK = 8;
    /**
     * A quantum at 400 Gb/s, the fastest common link: the shortest a quantum can be, so pauses timed with it are lower
     * bounds when the link speed is unknown.
     */
    public static final double LOWER_BOUND_QUANTUM_NS = 512 / 400.0;
    private static final int FRAMES = 0, XOFF = 1, XON = 2, QUANTA = 3, FIRST = 4, LAST = 5, RUN_START = 6, EXPIRES = 7,
            LONGEST = 8, LONGEST_START = 9, PAUSED = 10, FIRST_FRAME = 11, RUN_FIRST_FRAME = 12, RUN_LAST_FRAME = 13,
            RUN_STORM = 14, RUN_END = 15, RUN_XOFF = 16, SIZE = 17;
    /** A storm's slots (see {@link #storms()}); S_XOFF: the XOFF frames of its run. */
    public static final int S_SRC = 0, S_CLASS = 1, S_START = 2, S_END = 3, S_FIRST_FRAME = 4, S_LAST_FRAME = 5, S_XOFF = 6,
            S_OPEN = 7;

    /** The quantum of the report's times (0: speed unknown) and of the runs (the lower bound then). */
    private final double quantumNs, runQuantumNs;
    /** Runs at least this long are storms (0: none kept, the engine's report). */
    private final long watchdogNs;
    /** Key: sender MAC * 16 + class; sorted, so the report lists senders and classes in order. */
    private final TreeMap<Long, long[]> classes = new TreeMap<>();
    private final List<long[]> storms = new ArrayList<>();
    /**
     * The paused runs as they end, the first {@link #MAX_RUNS} of them (the GUI draws them as bands; a pause storm of
     * millions of short runs keeps 384 KB, not a run per XOFF): {@link #R_SRC} .. {@link #R_LAST_FRAME}.
     */
    private final List<long[]> runs = new ArrayList<>();
    /** How many runs {@link #runs()} keeps at most. */
    public static final int MAX_RUNS = 4096;
    /** A run's slots (see {@link #runs()}): sender MAC, class, start and end (ns), its first and last frame. */
    public static final int R_SRC = 0, R_CLASS = 1, R_START = 2, R_END = 3, R_FIRST_FRAME = 4, R_LAST_FRAME = 5;

    FlowControl(double quantumNs) { this(quantumNs, 0); }

    /**
     * @param quantumNs a quantum's length at the link's speed, 0 when unknown (runs then timed at 400 Gb/s)
     * @param watchdogNs runs paused at least this long are kept as storms ({@link #storms()}); 0 for none
     */
    public FlowControl(double quantumNs, long watchdogNs) {
        this.quantumNs = quantumNs;
        this.runQuantumNs = quantumNs > 0 ? quantumNs : LOWER_BOUND_QUANTUM_NS;
        this.watchdogNs = watchdogNs;
    }

    /** One MAC Control frame with its whole body ({@link FrameFacts#macc} set). */
    public void accept(FrameFacts f) {
        if (f.macc == FrameFacts.MACC_PAUSE) {
            add(f.maccSrc, LINK, f.timeNs, f.number, f.maccQuanta(0));
            return;
        }
        for (int c = 0; c < 8; c++) if ((f.maccEnbv & 1 << c) != 0) add(f.maccSrc, c, f.timeNs, f.number, f.maccQuanta(c));
    }

    private void add(long src, int cls, long t, long frame, int quanta) {
        long[] s = classes.computeIfAbsent(src * 16 + cls, k -> {
            long[] a = new long[SIZE];
            a[FIRST] = a[RUN_START] = a[LONGEST] = a[RUN_STORM] = -1;
            return a;
        });
        s[FRAMES]++;
        if (s[FIRST] < 0) {
            s[FIRST] = t;
            s[FIRST_FRAME] = frame;
        }
        s[LAST] = t;
        if (quanta == 0) {
            s[XON]++;
            if (s[RUN_START] >= 0) {
                s[RUN_LAST_FRAME] = frame;
                endRun(src, cls, s, Math.min(t, s[EXPIRES]));
            }
            return;
        }
        s[XOFF]++;
        s[QUANTA] += quanta;
        // A pause that expired before this XOFF ended its run there; this XOFF starts the next one.
        if (s[RUN_START] >= 0 && t > s[EXPIRES]) endRun(src, cls, s, s[EXPIRES]);
        if (s[RUN_START] < 0) {
            s[RUN_START] = t;
            s[RUN_FIRST_FRAME] = frame;
            s[RUN_XOFF] = 0;
        }
        s[RUN_XOFF]++;
        s[RUN_LAST_FRAME] = frame;
        s[EXPIRES] = t + Math.round(quanta * runQuantumNs);
        if (s[RUN_STORM] >= 0) {
            storms.get((int) s[RUN_STORM])[S_XOFF]++;
        } else if (watchdogNs > 0 && t - s[RUN_START] >= watchdogNs) {
            // Paused past the detection time while the pause goes on: a storm from here, its end still open.
            s[RUN_STORM] = storms.size();
            storms.add(new long[] {src, cls, s[RUN_START], -1, s[RUN_FIRST_FRAME], frame, s[RUN_XOFF], 1});
        }
    }

    private void endRun(long src, int cls, long[] s, long end) {
        long length = end - s[RUN_START];
        s[PAUSED] += length;
        s[RUN_END] = end;
        if (runs.size() < MAX_RUNS) runs.add(new long[] {src, cls, s[RUN_START], end, s[RUN_FIRST_FRAME], s[RUN_LAST_FRAME]});
        if (length > s[LONGEST]) {
            s[LONGEST] = length;
            s[LONGEST_START] = s[RUN_START];
        }
        if (s[RUN_STORM] >= 0) {
            long[] st = storms.get((int) s[RUN_STORM]);
            st[S_END] = end;
            st[S_LAST_FRAME] = s[RUN_LAST_FRAME];
            st[S_OPEN] = 0;
        } else if (watchdogNs > 0 && length >= watchdogNs) {
            storms.add(new long[] {src, cls, s[RUN_START], end, s[RUN_FIRST_FRAME], s[RUN_LAST_FRAME], s[RUN_XOFF], 0});
        }
        s[RUN_START] = s[RUN_STORM] = -1;
    }

    /**
     * The runs paused at least the watchdog's detection time, in the order they passed it: {@link #S_SRC} .. {@link
     * #S_OPEN} (end -1 while open); a list the caller may read while the pass goes on (a storm is added by the frame
     * that shows it).
     */
    public List<long[]> storms() { return storms; }

    /**
     * The paused runs that ended, in the order they ended (after {@link #close()}: every run, those still open at the
     * end closed where their pause expires, possibly past the last frame), the first {@link #MAX_RUNS}: {@link #R_SRC}
     * .. {@link #R_LAST_FRAME}. Timed at the link speed given, else at 400 Gb/s (lower bounds).
     */
    public List<long[]> runs() { return runs; }

    /** Ends the runs still open where their pause expires (after the last frame; call once, at the end of the pass). */
    public void close() {
        for (Map.Entry<Long, long[]> e : classes.entrySet()) {
            long[] s = e.getValue();
            if (s[RUN_START] >= 0) endRun(e.getKey() >> 4, (int) (e.getKey() & 15), s, s[EXPIRES]);
        }
    }

    /**
     * Per sender and class (after {@link #close()}): {source MAC, class, paused ns within the capture, first frame
     * number, frames}; the capture ends at lastNs (a pause past it is not counted).
     */
    public List<long[]> paused(long lastNs) {
        List<long[]> out = new ArrayList<>();
        for (Map.Entry<Long, long[]> e : classes.entrySet()) {
            long[] s = e.getValue();
            out.add(new long[] {e.getKey() >> 4, e.getKey() & 15, pausedWithin(s, lastNs), s[FIRST_FRAME], s[FRAMES]});
        }
        return out;
    }

    /** The paused time of a class up to lastNs: only its last run can reach past the capture's last frame. */
    private static long pausedWithin(long[] s, long lastNs) {
        return s[PAUSED] - Math.max(0, s[RUN_END] - lastNs);
    }

    private static Double share(long part, long whole) {
        return whole > 0 ? Math.round(10_000.0 * Math.min(part, whole) / whole) / 10_000.0 : null;
    }

    /**
     * The report (JSON {@code flow_control}), a run still open at the end of the capture closed where its pause
     * expires; or null when the capture held no such frame. firstNs, lastNs: the capture's first and last frame.
     */
    Map<String, Object> finish(double linkSpeedGbps, long firstNs, long lastNs) {
        if (classes.isEmpty()) return null;
        close();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Map.Entry<Long, long[]> e : classes.entrySet()) {
            long[] s = e.getValue();
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
            // The span: from the class's first frame to where its last pause ended (or the capture did).
            long paused = pausedWithin(s, lastNs), span = Math.max(s[LAST], Math.min(s[RUN_END], lastNs)) - s[FIRST];
            m.put("paused_ns", paused);
            m.put("paused_share", share(paused, lastNs - firstNs));
            m.put("paused_share_of_span", share(paused, span));
            rows.add(m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("link_speed_gbps", linkSpeedGbps > 0 ? (Object) linkSpeedGbps : null);
        out.put("quantum_ns", quantumNs > 0 ? (Object) (Math.round(quantumNs * 1000) / 1000.0) : null);
        out.put("paused_lower_bound", quantumNs <= 0);
        out.put("classes", rows);
        return out;
    }
}

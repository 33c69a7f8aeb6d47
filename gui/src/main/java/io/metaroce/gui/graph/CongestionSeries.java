package io.metaroce.gui.graph;

import io.metaroce.analysis.AnalysisEvent;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.FlowControl;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.Eth;
import io.metaroce.protocol.OpcodeDef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * What the congestion-loop graph of one QP direction shows (operator need P6: does CE -> CNP -> rate cut happen?):
 * the flow's data rate in the buckets analyze's congestion loop measures it in (an eighth of its rate window, so the
 * drop after a CNP looks here as analyze weighs it), the CE-marked packets and the CNPs the analysis counted for the
 * flow (its events: as many as analyze's {@code ce_marks} and {@code cnps}), and the runs in which the flow's priority
 * class was paused by PAUSE/PFC frames from the MAC its frames go to (the analysis' {@link FlowControl} runs). Built
 * once off the UI thread; times are nanoseconds from the capture's first frame, the rate in Mb/s.
 */
public final class CongestionSeries {
    /** At most this many rate buckets: a longer flow gets wider ones (a power of two times the loop's bucket). */
    static final int MAX_BUCKETS = 1 << 20;

    private final String flowId;
    private final long originNs, bucketNs;
    private final int priority;
    private final long dstMac;
    private final PointSet rate, pace, ce, cnp;
    private final List<long[]> paused;
    private final Map<String, Object> loop;

    private CongestionSeries(String flowId, long originNs, long bucketNs, int priority, long dstMac, PointSet rate, PointSet pace,
                             PointSet ce, PointSet cnp, List<long[]> paused, Map<String, Object> loop) {
        this.flowId = flowId;
        this.originNs = originNs;
        this.bucketNs = bucketNs;
        this.priority = priority;
        this.dstMac = dstMac;
        this.rate = rate;
        this.pace = pace;
        this.ce = ce;
        this.cnp = cnp;
        this.paused = paused;
        this.loop = loop;
    }

    public String flowId() { return flowId; }

    public long originNs() { return originNs; }

    /** The width of a rate bucket in ns. */
    public long bucketNs() { return bucketNs; }

    /** The VLAN priority of the flow's data (its PFC class), -1 when untagged (then every class's pauses are shown). */
    public int priority() { return priority; }

    /**
     * The Ethernet destination of the flow's data frames (its next hop), -1 when not Ethernet: the paused runs shown are
     * those this MAC sent (a PAUSE/PFC frame stops what its sender is sent), of the flow's class.
     */
    public long dstMac() { return dstMac; }

    /** Data rate per bucket in Mb/s, at each bucket's start; the frame is the bucket's first data frame (0: none). */
    public PointSet rate() { return rate; }

    /**
     * The pace per bucket in Mb/s: the median over the bucket's data packets of each one's bytes over the gap since
     * the packet before (the pace analyze's congestion loop weighs at a sender tap, where the sender's pacer sets the
     * gaps: a reaction point that cuts shows a lower pace even when the bytes per bucket hardly change). Buckets
     * without two packets have no point. The frame is the bucket's first data frame.
     */
    public PointSet pace() { return pace; }

    /** The CE-marked data packets of the flow (y: the CE lane, below the rate). */
    public PointSet ce() { return ce; }

    /** The CNPs that reached the flow's sender (y: the CNP lane, above the rate). */
    public PointSet cnp() { return cnp; }

    /**
     * Paused runs that stop the flow: sent by its next hop ({@link #dstMac}) on the flow's class or the whole link;
     * {start, end} in ns from the origin, then the run's first frame.
     */
    public List<long[]> paused() { return paused; }

    /** analyze's congestion-loop row of the flow (verdict, counts, delays, cuts), or null. */
    public Map<String, Object> loop() { return loop; }

    /** The rate's highest value (Mb/s), at least 1. */
    public long maxRate() { return Math.max(1, rate.size() == 0 ? 1 : rate.maxValue()); }

    /** The highest of the rate and the pace (Mb/s), at least 1. */
    public long maxRateOrPace() { return Math.max(maxRate(), pace.size() == 0 ? 1 : pace.maxValue()); }

    /** The y of the CE lane (below the zero line) and of the CNP lane (above the highest rate), for a given highest rate. */
    static long ceLane(long max) { return -Math.max(1, max / 12); }

    static long cnpLane(long max) { return max + Math.max(1, max / 12); }

    private static final FieldDef PCP = field("vlan.pcp", "vlan.priority");

    private static FieldDef field(String... names) {
        for (String n : names) {
            FieldDef f = FieldCatalog.get().field(n);
            if (f != null) return f;
        }
        return null;
    }

    /**
     * Builds the series of flowId from a finished session (with events) and the index of its capture, given the flow's
     * frame numbers (ascending), its congestion-loop row and the capture's paused runs ({@code AnalysisResult.pauseRuns}).
     * Stops early with what it has when cancel answers true.
     */
    public static CongestionSeries build(FrameIndex index, AnalysisSession session, String flowId, int[] frames,
                                         Map<String, Object> loop, List<long[]> runs, BooleanSupplier cancel) {
        Dissector dissector = new Dissector(new DissectorConfig(session.settings().rocePorts(), false));
        Dissection d = new Dissection();
        long origin = index.size() == 0 ? 0 : index.timeNanos(1);
        // Data packets: time and payload bytes, as CongestionLoop.data counts them.
        long[] t = new long[Math.max(1, frames.length)], bytes = new long[t.length];
        int[] fr = new int[t.length];
        int n = 0, pcp = -1;
        long dstMac = -1;
        for (int i = 0; i < frames.length; i++) {
            if ((i & 0xFFFF) == 0 && cancel != null && cancel.getAsBoolean()) break;
            int f = frames[i];
            if (f < 1 || f > index.size()) continue;
            index.dissect(f, dissector, d);
            OpcodeDef op = d.opcode();
            if (!d.isRoce() || op == null || (op.role() != OpcodeDef.Role.REQUEST && op.role() != OpcodeDef.Role.RESPONSE)) continue;
            if (pcp < 0 && PCP != null) pcp = (int) d.get(PCP.id(), -1);
            if (n == 0) dstMac = d.get(Eth.F_DST, -1);
            t[n] = d.timeNanos() - origin;
            bytes[n] = d.payloadLength();
            fr[n++] = f;
        }
        long window = session.settings().ccRateWindowNs();
        long bucket = Math.max(1, window / 8);
        long span = n == 0 ? 0 : t[n - 1] - t[0];
        while (span / bucket >= MAX_BUCKETS) bucket *= 2;
        PointSet rate = rate(t, bytes, fr, n, bucket), pace = pace(t, bytes, fr, n, bucket);
        PointSet ce = new PointSet(16), cnp = new PointSet(16);
        long max = Math.max(1, Math.max(rate.size() == 0 ? 1 : rate.maxValue(), pace.size() == 0 ? 1 : pace.maxValue()));
        for (AnalysisEvent e : session.events().all()) {
            if (!flowId.equals(e.flow())) continue;
            if (e instanceof AnalysisEvent.CeMark) ce.add(e.timeNs() - origin, ceLane(max), (int) e.frame());
            // A CNP about this flow (frameFlow: the CNP's own direction); an unattributed one names its own flow.
            else if (e instanceof AnalysisEvent.Cnp c && c.frameFlow() != null) cnp.add(e.timeNs() - origin, cnpLane(max), (int) e.frame());
        }
        List<long[]> paused = new ArrayList<>();
        for (long[] r : runs) {
            int cls = (int) r[FlowControl.R_CLASS];
            if (pcp >= 0 && cls != pcp && cls != FlowControl.LINK) continue;
            // Only the pauses its next hop sends stop the flow: those from the MAC its frames go to (PauseTargets).
            if (dstMac >= 0 && r[FlowControl.R_SRC] >= 0 && r[FlowControl.R_SRC] != dstMac) continue;
            paused.add(new long[] {r[FlowControl.R_START] - origin, r[FlowControl.R_END] - origin, r[FlowControl.R_FIRST_FRAME]});
        }
        paused.sort((a, b) -> Long.compare(a[0], b[0]));
        return new CongestionSeries(flowId, origin, bucket, pcp, dstMac, rate, pace, ce.sorted(), cnp.sorted(), paused, loop);
    }

    /** Mb/s per bucket from the first data packet's bucket to the last one's, empty buckets included (a stop shows as 0). */
    static PointSet rate(long[] t, long[] bytes, int[] frames, int n, long bucket) {
        if (n == 0) return new PointSet(4);
        long b0 = Math.floorDiv(t[0], bucket), b1 = Math.floorDiv(t[n - 1], bucket);
        int count = (int) (b1 - b0 + 1);
        long[] sum = new long[count];
        int[] first = new int[count];
        for (int i = 0; i < n; i++) {
            int k = (int) (Math.floorDiv(t[i], bucket) - b0);
            sum[k] += bytes[i];
            if (first[k] == 0) first[k] = frames[i];
        }
        PointSet p = new PointSet(count);
        // bytes * 8 bits / bucket ns = Gb/s; * 1000: Mb/s.
        for (int k = 0; k < count; k++) p.add((b0 + k) * bucket, Math.round(sum[k] * 8000.0 / bucket), first[k]);
        return p;
    }

    /** The median pace per bucket in Mb/s (see {@link #pace()}); a packet at the same time as the one before has none. */
    static PointSet pace(long[] t, long[] bytes, int[] frames, int n, long bucket) {
        PointSet p = new PointSet(16);
        double[] v = new double[Math.max(1, n)];
        int i = 1;
        while (i < n) {
            long b = Math.floorDiv(t[i], bucket);
            int k = 0, first = frames[i];
            for (; i < n && Math.floorDiv(t[i], bucket) == b; i++) if (t[i] > t[i - 1]) v[k++] = (double) bytes[i] / (t[i] - t[i - 1]);
            if (k == 0) continue;
            java.util.Arrays.sort(v, 0, k);
            double median = k % 2 == 1 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
            // bytes/ns * 8 = Gb/s; * 1000: Mb/s.
            p.add(b * bucket, Math.round(median * 8000), first);
        }
        return p;
    }

    /** The congestion-loop row of a flow in analyze's {@code congestion_loop} object, or null. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> rowOf(Map<String, Object> loop, String flowId) {
        if (loop == null) return null;
        for (Map<String, Object> m : (List<Map<String, Object>>) loop.get("flows")) if (flowId.equals(m.get("flow"))) return m;
        return null;
    }

    /** The rows of analyze's {@code congestion_loop} (empty when null). */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> rows(Map<String, Object> loop) {
        return loop == null ? List.of() : (List<Map<String, Object>>) loop.get("flows");
    }
}

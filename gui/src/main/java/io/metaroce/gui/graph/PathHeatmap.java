package io.metaroce.gui.graph;

import io.metaroce.analysis.AnalysisEvent;
import io.metaroce.analysis.AnalysisFrameFields;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.FlowSummary;
import io.metaroce.analysis.FrameVerdict;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.ExtraFields;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.OpcodeDef;
import java.util.function.BooleanSupplier;

/**
 * The MetaRoCE path heatmap of one sprayed QP flow: path_id (rows) x time interval (columns), with per cell the
 * data packets sent on the path, the packets of those the sender had to send again (the analysis'
 * retransmission events, by the path of the copy before, binned at that copy's time; spurious copies are not
 * losses), the CE marks (CE events) and the acknowledgement round trips (the analysis' ack_rtt per data packet).
 * Built once off the UI thread from the engine's results.
 */
public final class PathHeatmap {
    private static final FieldDef PATH_ID = FieldCatalog.get().field("mrth.path_id");
    private static final FieldDef ACK_RTT = FieldCatalog.get().field("analysis.ack_rtt_ns");

    private final String flowId;
    private final int paths, bins;
    private final long originNs, binNs;
    private final long[] packets, lost, ce, rttSum, rttCount;
    private final int[] firstFrame;

    private PathHeatmap(String flowId, int paths, int bins, long originNs, long binNs) {
        this.flowId = flowId;
        this.paths = paths;
        this.bins = bins;
        this.originNs = originNs;
        this.binNs = binNs;
        int n = paths * bins;
        packets = new long[n];
        lost = new long[n];
        ce = new long[n];
        rttSum = new long[n];
        rttCount = new long[n];
        firstFrame = new int[n];
    }

    public String flowId() { return flowId; }

    public int paths() { return paths; }

    public int bins() { return bins; }

    /** Start of interval 0, in capture time (ns). */
    public long originNs() { return originNs; }

    public long binNs() { return binNs; }

    private int cell(int path, int bin) { return path * bins + bin; }

    public long packets(int path, int bin) { return packets[cell(path, bin)]; }

    public long lost(int path, int bin) { return lost[cell(path, bin)]; }

    public long ce(int path, int bin) { return ce[cell(path, bin)]; }

    /** The first data frame sent on the path in the interval, 0 when none: what a click on the cell selects. */
    public int firstFrame(int path, int bin) { return firstFrame[cell(path, bin)]; }

    /** The cell's value for a metric, NaN when the cell has nothing to measure (no packet, no RTT sample). */
    public double value(HeatMetric m, int path, int bin) {
        int c = cell(path, bin);
        return switch (m) {
            case LOSS -> packets[c] == 0 ? (lost[c] == 0 ? Double.NaN : 1) : Math.min(1, (double) lost[c] / packets[c]);
            case CE -> packets[c] == 0 ? Double.NaN : Math.min(1, (double) ce[c] / packets[c]);
            case RTT -> rttCount[c] == 0 ? Double.NaN : (double) rttSum[c] / rttCount[c];
        };
    }

    /** The highest value of a metric over all cells (0 when none). */
    public double max(HeatMetric m) {
        double x = 0;
        for (int p = 0; p < paths; p++)
            for (int b = 0; b < bins; b++) {
                double v = value(m, p, b);
                if (!Double.isNaN(v)) x = Math.max(x, v);
            }
        return x;
    }

    public long totalPackets(int path) { return sum(packets, path); }

    public long totalLost(int path) { return sum(lost, path); }

    public long totalCe(int path) { return sum(ce, path); }

    private long sum(long[] a, int path) {
        long s = 0;
        for (int b = 0; b < bins; b++) s += a[cell(path, b)];
        return s;
    }

    /** True when the flow is a MetaRoCE flow with paths to show. */
    public static boolean applies(FlowSummary f) {
        return f != null && f.metaRoce() != null && !f.metaRoce().paths().isEmpty();
    }

    /**
     * Builds the heatmap of a flow over the flow's own time span cut into (at most) the given number of intervals,
     * from the flow's frame numbers (ascending).
     *
     * @throws IllegalArgumentException when the flow is not a MetaRoCE flow with paths
     */
    public static PathHeatmap build(FrameIndex index, AnalysisSession session, String flowId, int[] frames, int maxBins,
                                    BooleanSupplier cancel) {
        FlowSummary s = session.flow(flowId);
        if (!applies(s)) throw new IllegalArgumentException("flow " + flowId + " has no MetaRoCE paths");
        int paths = s.metaRoce().paths().lastKey() + 1;
        if (s.metaRoce().pathCount() != null) paths = (int) Math.max(paths, Math.min(1024, s.metaRoce().pathCount()));
        long first = s.counters().firstNs(), last = s.counters().lastNs();
        int bins = Math.max(1, maxBins);
        long binNs = Math.max(1, (last - first) / bins + 1);
        bins = (int) Math.max(1, Math.min(bins, (last - first) / binNs + 1));
        PathHeatmap h = new PathHeatmap(flowId, paths, bins, first, binNs);
        Dissector dissector = new Dissector(new DissectorConfig(session.settings().rocePorts(), false));
        Dissection d = new Dissection();
        AnalysisFrameFields attach = session.frameFields();
        for (int i = 0; i < frames.length; i++) {
            if ((i & 0xFFFF) == 0 && cancel != null && cancel.getAsBoolean()) break;
            int f = frames[i];
            if (f < 1 || f > index.size()) continue;
            index.dissect(f, dissector, d);
            OpcodeDef op = d.opcode();
            if (op == null || op.role() != OpcodeDef.Role.REQUEST || !d.hasMrth()) continue;
            int path = (int) d.get(PATH_ID.id(), -1);
            if (path < 0 || path >= paths) continue;
            int c = h.cell(path, h.bin(d.timeNanos()));
            h.packets[c]++;
            if (h.firstFrame[c] == 0) h.firstFrame[c] = f;
            attach.attach(d);
            ExtraFields x = d.extra();
            int r = x.indexOf(ACK_RTT);
            if (r >= 0) {
                h.rttSum[c] += x.longValue(r);
                h.rttCount[c]++;
            }
        }
        int rows = paths;
        for (AnalysisEvent e : session.events().all()) {
            if (!flowId.equals(e.flow())) continue;
            switch (e) {
                case AnalysisEvent.Retransmission r when r.spurious() != FrameVerdict.Spurious.YES && r.previousPath() != null
                        && r.previousPath() >= 0 && r.previousPath() < rows -> {
                    long t = r.originalFrame() != null && r.originalFrame() >= 1 && r.originalFrame() <= index.size()
                            ? index.timeNanos((int) (long) r.originalFrame()) : r.timeNs();
                    h.lost[h.cell(r.previousPath(), h.bin(t))]++;
                }
                case AnalysisEvent.CeMark c when c.path() != null && c.path() >= 0 && c.path() < rows ->
                        h.ce[h.cell(c.path(), h.bin(c.timeNs()))]++;
                default -> { }
            }
        }
        return h;
    }

    /** The interval of a capture time, clamped to the grid. */
    public int bin(long timeNs) {
        return (int) Math.max(0, Math.min(bins - 1, (timeNs - originNs) / binNs));
    }
}

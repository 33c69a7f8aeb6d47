package io.metaroce.gui.graph;

import io.metaroce.analysis.AnalysisFrameFields;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.FrameVerdict;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.filter.FilterException;
import io.metaroce.filter.FilterField;
import io.metaroce.gui.GuiFields;
import io.metaroce.protocol.OpcodeDef;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The IO graph's numbers: for each series, per interval of the capture's time, the packets, bytes or goodput of
 * the frames its filter matches, and the first such frame of each interval (what a click on the interval
 * selects). One pass over the capture, each frame dissected once and tested against every series' filter.
 */
public final class IoGraphData {
    private final List<IoSeries> series;
    private final long intervalNs;
    private final int bins;
    private final double[][] values;
    private final int[][] firstFrame;
    private final long[] matched;

    private IoGraphData(List<IoSeries> series, long intervalNs, int bins) {
        this.series = List.copyOf(series);
        this.intervalNs = intervalNs;
        this.bins = bins;
        values = new double[series.size()][bins];
        firstFrame = new int[series.size()][bins];
        matched = new long[series.size()];
    }

    /** The series, in the order given. */
    public List<IoSeries> series() { return series; }

    public long intervalNs() { return intervalNs; }

    /** Intervals, the first starting at the capture's first frame. */
    public int bins() { return bins; }

    /** The value of series s in interval b (packets, bytes, or bits per second). */
    public double value(int s, int b) { return values[s][b]; }

    /** First frame of series s in interval b, 0 when none matched there. */
    public int firstFrame(int s, int b) { return firstFrame[s][b]; }

    /** Frames series s matched over the whole capture. */
    public long matched(int s) { return matched[s]; }

    public double max(int s) {
        double m = 0;
        for (double v : values[s]) m = Math.max(m, v);
        return m;
    }

    /**
     * Compiles every series' filter first, so a bad one fails before any work is done.
     *
     * @throws FilterException naming the first bad filter's column
     */
    public static List<DisplayFilter> compile(List<IoSeries> series) throws FilterException {
        List<DisplayFilter> l = new ArrayList<>();
        for (IoSeries s : series) l.add(DisplayFilter.compile(s.filter(), GuiFields.INSTANCE));
        return l;
    }

    /**
     * Bins the capture. session may be null (then filters on analysis.* fields match nothing and goodput counts
     * every payload); cancel is asked every few thousand frames.
     */
    public static IoGraphData compute(FrameIndex index, AnalysisSession session, List<IoSeries> series, long intervalNs,
                                      BooleanSupplier cancel) throws FilterException {
        return compute(index, session, series, intervalNs, null, cancel);
    }

    /**
     * As above, leaving out the frames of ignored (Edit > Ignore Packet's; null: none), which Wireshark counts in no
     * statistic: they are in no interval and no series (the intervals still span the whole capture).
     */
    public static IoGraphData compute(FrameIndex index, AnalysisSession session, List<IoSeries> series, long intervalNs,
                                      java.util.BitSet ignored, BooleanSupplier cancel) throws FilterException {
        if (intervalNs <= 0) throw new IllegalArgumentException("interval must be positive: " + intervalNs);
        List<DisplayFilter> filters = compile(series);
        int n = index.size();
        long t0 = n == 0 ? 0 : index.timeNanos(1), t1 = n == 0 ? 0 : index.timeNanos(n);
        long span = Math.max(0, t1 - t0);
        int bins = (int) Math.min(1_000_000, span / intervalNs + 1);
        IoGraphData g = new IoGraphData(series, intervalNs, bins);
        boolean analysisFields = false, goodput = false;
        for (DisplayFilter f : filters)
            for (FilterField ff : f.referencedFields()) analysisFields |= ff.name().startsWith("analysis.") || ff.name().equals("event");
        for (IoSeries s : series) goodput |= s.metric() == IoSeries.Metric.GOODPUT;
        boolean icrc = session == null || session.settings().checkIcrc();
        Dissector dissector = new Dissector(new DissectorConfig(session == null ? DissectorConfig.DEFAULT.roceUdpPorts()
                : session.settings().rocePorts(), icrc));
        Dissection d = new Dissection();
        FrameFields fields = new FrameFields().of(d);
        GuiFields.Accessor names = new GuiFields.Accessor(session).of(fields);   // the GUI's extra names too (event, expert.*)
        AnalysisFrameFields attach = analysisFields && session != null ? session.frameFields() : null;
        double perSecond = 8e9 / intervalNs;
        for (int f = 1; f <= n; f++) {
            if ((f & 0xFFF) == 0 && cancel != null && cancel.getAsBoolean()) break;
            if (ignored != null && ignored.get(f)) continue;
            index.dissect(f, dissector, d);
            if (attach != null) attach.attach(d);
            names.of(fields);
            int b = (int) Math.min(bins - 1, Math.max(0, (index.timeNanos(f) - t0) / intervalNs));
            long unique = -1;
            for (int s = 0; s < filters.size(); s++) {
                DisplayFilter flt = filters.get(s);
                if (!flt.matchesAll() && !flt.matches(names)) continue;
                g.matched[s]++;
                if (g.firstFrame[s][b] == 0) g.firstFrame[s][b] = f;
                switch (series.get(s).metric()) {
                    case PACKETS -> g.values[s][b]++;
                    case BYTES -> g.values[s][b] += d.originalLength();
                    case GOODPUT -> {
                        if (unique < 0) unique = goodput ? uniquePayload(d, session) : 0;
                        g.values[s][b] += unique * perSecond;
                    }
                }
            }
        }
        return g;
    }

    /**
     * Payload bytes the frame delivers for the first time: data packets that the analysis did not call a
     * retransmission, a capture duplicate or a repeated response (the engine's unique_payload_bytes, per frame).
     */
    static long uniquePayload(Dissection d, AnalysisSession session) {
        OpcodeDef op = d.opcode();
        if (!d.isRoce() || op == null || !op.payload() || d.payloadLength() <= 0) return 0;
        if (op.role() != OpcodeDef.Role.REQUEST && op.role() != OpcodeDef.Role.RESPONSE) return 0;
        if (session != null) {
            FrameVerdict v = session.verdictOf(d.number());
            if (v.retransmission() || v.duplicate() || v.repeatedResponse()) return 0;
        }
        return d.payloadLength();
    }
}

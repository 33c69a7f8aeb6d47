package io.metaroce.gui.graph;

import io.metaroce.analysis.AnalysisEvent;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.protocol.OpcodeDef;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * What the PSN-vs-time (Stevens) graph of one QP flow shows: the flow's data packets (time, PSN unwrapped across
 * the 24-bit wrap and counted from the flow's first PSN, frame) and the markers the analysis decided (its events)
 * or the peer sent (SACKs and ACKs, read from the peer flow's frames). Built once off the UI thread from the
 * engine's results; the view only reads it. Times are nanoseconds from {@link #originNs()} (the capture's first
 * frame), so that doubles hold them exactly.
 */
public final class FlowSeries {
    private static final int PSN_MOD = 1 << 24;

    private final String flowId;
    private final long originNs;
    private final int firstPsn;
    private final PointSet data;
    private final Map<MarkerKind, PointSet> markers;

    private FlowSeries(String flowId, long originNs, int firstPsn, PointSet data, Map<MarkerKind, PointSet> markers) {
        this.flowId = flowId;
        this.originNs = originNs;
        this.firstPsn = firstPsn;
        this.data = data;
        this.markers = markers;
    }

    public String flowId() { return flowId; }

    public long originNs() { return originNs; }

    /** The raw 24-bit PSN of the flow's first data packet: y = 0. */
    public int firstPsn() { return firstPsn; }

    /** The raw 24-bit PSN of a plot value. */
    public int rawPsn(long y) { return (int) Math.floorMod(firstPsn + y, (long) PSN_MOD); }

    public PointSet data() { return data; }

    /** Markers by kind (every kind present, possibly empty). */
    public Map<MarkerKind, PointSet> markers() { return markers; }

    public PointSet markers(MarkerKind k) { return markers.get(k); }

    /**
     * Builds the series of a flow from a finished session (recorded with events) and the index of the same
     * capture, given the frame numbers of the flow and of its peer (ascending; the GUI gets them from an
     * {@code analysis.flow} filter pass, a session with flow frames from {@link AnalysisSession#framesOf}). Stops
     * early (returning what it has) when cancel answers true.
     */
    public static FlowSeries build(FrameIndex index, AnalysisSession session, String flowId, int[] frames, int[] peerFrames,
                                   BooleanSupplier cancel) {
        DissectorConfig dc = new DissectorConfig(session.settings().rocePorts(), false);
        Dissector dissector = new Dissector(dc);
        Dissection d = new Dissection();
        long origin = index.size() == 0 ? 0 : index.timeNanos(1);
        PointSet data = new PointSet(frames.length);
        Map<MarkerKind, PointSet> m = new EnumMap<>(MarkerKind.class);
        for (MarkerKind k : MarkerKind.values()) m.put(k, new PointSet(16));
        long prev = 0;
        int first = -1;
        for (int i = 0; i < frames.length; i++) {
            if ((i & 0xFFFF) == 0 && cancel != null && cancel.getAsBoolean()) break;
            int f = frames[i];
            if (f < 1 || f > index.size()) continue;
            index.dissect(f, dissector, d);
            OpcodeDef op = d.opcode();
            // Only packets whose PSN numbers data: control packets (probes, credits) carry PSN 0 or another space.
            if (!d.isRoce() || op == null || (op.role() != OpcodeDef.Role.REQUEST && op.role() != OpcodeDef.Role.RESPONSE)) continue;
            int psn = d.psn();
            long y;
            if (first < 0) {
                first = psn;
                y = 0;
            } else {
                y = unwrapNear(prev, first, psn);
            }
            prev = y;
            data.add(d.timeNanos() - origin, y, f);
        }
        int base = Math.max(first, 0);
        if (peerFrames != null) peerMarkers(index, peerFrames, dissector, d, origin, data, base, m, cancel);
        for (AnalysisEvent e : session.events().all()) {
            if (!flowId.equals(e.flow())) continue;
            long t = e.timeNs() - origin;
            int f = (int) e.frame();
            switch (e) {
                case AnalysisEvent.Retransmission r -> m.get(r.spurious() == io.metaroce.analysis.FrameVerdict.Spurious.YES
                        ? MarkerKind.SPURIOUS : MarkerKind.RETRANSMISSION).add(t, near(data, t, base, r.psn()), f);
                case AnalysisEvent.Nak n -> m.get(n.kind() == AnalysisEvent.NakKind.NACK ? MarkerKind.NACK : MarkerKind.NAK)
                        .add(t, near(data, t, base, n.psn()), f);
                case AnalysisEvent.Cnp c -> m.get(MarkerKind.CNP).add(t, yAt(data, t), f);
                case AnalysisEvent.CeMark c -> m.get(MarkerKind.CE).add(t, near(data, t, base, c.psn()), f);
                default -> { }
            }
        }
        Map<MarkerKind, PointSet> sorted = new EnumMap<>(MarkerKind.class);
        for (var en : m.entrySet()) sorted.put(en.getKey(), en.getValue().sorted());
        return new FlowSeries(flowId, origin, base, data, Collections.unmodifiableMap(sorted));
    }

    /** The peer's SACKs (at their trigger PSN) and positive ACKs (at the PSN they acknowledge). */
    private static void peerMarkers(FrameIndex index, int[] frames, Dissector dissector, Dissection d, long origin,
                                    PointSet data, int base, Map<MarkerKind, PointSet> m, BooleanSupplier cancel) {
        for (int i = 0; i < frames.length; i++) {
            if ((i & 0xFFFF) == 0 && cancel != null && cancel.getAsBoolean()) return;
            int f = frames[i];
            if (f < 1 || f > index.size()) continue;
            index.dissect(f, dissector, d);
            OpcodeDef op = d.opcode();
            if (op == null) continue;
            MarkerKind k = "sack".equals(op.family()) ? MarkerKind.SACK
                    : op.role() == OpcodeDef.Role.ACK && !isNak(d) ? MarkerKind.ACK : null;
            if (k == null) continue;
            long t = d.timeNanos() - origin;
            m.get(k).add(t, near(data, t, base, d.psn()), f);
        }
    }

    private static final int AETH_SYNDROME = fieldId("aeth.syndrome");

    private static int fieldId(String name) {
        var f = io.metaroce.dissector.FieldCatalog.get().field(name);
        return f == null ? -1 : f.id();
    }

    /** An AETH whose syndrome is not an ACK (bits 6-5 = 00): a NAK or RNR NAK, which come as events instead. */
    private static boolean isNak(Dissection d) {
        if (AETH_SYNDROME < 0) return false;
        long s = d.get(AETH_SYNDROME, -1);
        return s >= 0 && ((s >> 5) & 3) != 0;
    }

    /** The unwrapped PSN closest to the last one before it (PSNs move forward by far less than 2^23 at once). */
    static long unwrapNear(long refY, int base, int psn) {
        long ref = base + refY;
        long d = Math.floorMod(psn - ref, (long) PSN_MOD);
        if (d >= PSN_MOD / 2) d -= PSN_MOD;
        return ref + d - base;
    }

    /** A raw PSN of an event as a plot value, unwrapped near the data point at its time. */
    private static long near(PointSet data, long t, int base, int psn) {
        return unwrapNear(yAt(data, t), base, psn);
    }

    /** The display filter selecting a flow's frames (the GUI's way to a flow's frame numbers). */
    public static String flowFilter(String flowId) {
        return "analysis.flow == \"" + flowId + "\"";
    }

    /** The data value at time t: that of the last data point at or before t (the first one before any). */
    static long yAt(PointSet data, long t) {
        if (data.size() == 0) return 0;
        int i = Decimator.lowerBound(data.times(), data.size(), t + 1) - 1;
        return data.value(Math.max(0, i));
    }
}

package io.metaroce.analysis;

import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.OpcodeDef;

/**
 * Attaches the {@code analysis.*} fields to frames dissected again after the analysis pass (Wireshark's
 * "rendered many times"): reads the verdicts the pass stored for the frame and looks up the acknowledgement
 * that covered it. Use: run the pass ({@link Analyzer#analyze} with verdicts recorded), then for each frame
 * {@code dissector.dissect(...)} followed by {@link #attach(Dissection)}; {@code FrameFields}, {@code -T
 * jsonl} and {@code -Y} then see the fields. Read-only after the pass; one instance per thread (it keeps a
 * scratch key).
 */
public final class AnalysisFrameFields {
    private static final FieldCatalog C = FieldCatalog.get();
    static final FieldDef FLOW = C.field("analysis.flow"), RETX = C.field("analysis.retransmission"),
            CAUSE = C.field("analysis.retransmission_cause"), SPURIOUS = C.field("analysis.spurious"),
            ORIGINAL = C.field("analysis.original_frame"), OOO = C.field("analysis.out_of_order"),
            REORDER = C.field("analysis.reorder_distance"), DUP = C.field("analysis.duplicate"),
            GAP = C.field("analysis.psn_gap"), ACK_UNSEEN = C.field("analysis.ack_of_unseen"),
            ACKED_BY = C.field("analysis.acked_by_frame"), ACK_RTT = C.field("analysis.ack_rtt_ns"),
            NAK_GEN = C.field("analysis.nak_gen_latency_ns"), NAK_RESP = C.field("analysis.nak_response_latency_ns"),
            RTX_LAT = C.field("analysis.retransmission_latency_ns"), CE_NO_CNP = C.field("analysis.ce_without_cnp"),
            MSG_ID = C.field("analysis.message_id"), MSG_DONE = C.field("analysis.message_completion_ns"),
            INFERRED = C.field("analysis.retransmission_inferred"), REPEAT = C.field("analysis.repeated_response"),
            REPEAT_REQ = C.field("analysis.repeated_response_request"), ACK_FIRST = C.field("analysis.ack_before_request");

    private final AnalysisEngine engine;
    private final VerdictStore store;
    private final FlowKey probe = new FlowKey();
    private final FrameFacts facts = new FrameFacts();

    public AnalysisFrameFields(AnalysisEngine engine) {
        if (engine.verdicts() == null) throw new IllegalArgumentException("the engine did not record verdicts");
        this.engine = engine;
        this.store = engine.verdicts();
    }

    /**
     * The QP that sent a RoCE frame: the destination QP of the other direction of its connection, as the analysis
     * paired the two flows; -1 when it paired none (a one-way capture, a UD flow) or the frame is no RoCE. For the
     * flow graph's arrow tails ({@link FlowGraph}); BTH carries only the destination QP.
     */
    public int sourceQp(Dissection d) {
        if (!d.isRoce() || d.opcode() == null) return -1;
        FrameFacts f = facts.from(d);
        if (!f.roce) return -1;
        probe.set(f.v6, f.srcHi, f.srcLo, f.dstHi, f.dstLo, f.destQp);
        Flow flow = engine.flow(probe);
        return flow == null || flow.peer == null ? -1 : flow.peer.key.destQp();
    }

    /**
     * The flow ids of a RoCE frame's connection: its own direction's ({@code analysis.flow}) and the other
     * direction's as the analysis paired them (null when it paired none); null when the frame is no RoCE. For
     * Follow RoCE QP Stream ({@link QpFollow}): the two ids are the QP connection. The strings are the flows' own,
     * so a caller may key a map by identity.
     */
    public String[] flowIds(Dissection d) {
        if (!d.isRoce() || d.opcode() == null) return null;
        FrameFacts f = facts.from(d);
        if (!f.roce) return null;
        probe.set(f.v6, f.srcHi, f.srcLo, f.dstHi, f.dstLo, f.destQp);
        Flow flow = engine.flow(probe);
        if (flow == null) return null;
        return new String[] {flow.id, flow.peer == null ? null : flow.peer.id};
    }

    /** Adds the analysis fields of this frame to {@code d.extra()}. Frames without RoCE get none. */
    public void attach(Dissection d) {
        if (!d.isRoce() || d.opcode() == null) return;
        FrameFacts f = facts.from(d);
        if (!f.roce) return;
        probe.set(f.v6, f.srcHi, f.srcLo, f.dstHi, f.dstLo, f.destQp);
        Flow flow = engine.flow(probe);
        if (flow == null) return;
        var x = d.extra();
        x.put(FLOW, flow.id);
        int i = store.find(d.number());
        if (i >= 0) {
            int fl = store.flagsAt(i);
            if ((fl & VerdictStore.RETX) != 0) {
                x.put(RETX, true);
                Cause c = store.causeAt(i);
                if (c != null) x.put(CAUSE, c.label());
                // Present only when true, like every analysis flag and Wireshark's expert flags, so that the bare name
                // (-Y analysis.spurious) selects the spurious copies. Not present: not spurious, or (at a sender tap,
                // before the acknowledgement) not known.
                if ((fl & VerdictStore.PENDING) == 0 && (fl & VerdictStore.SPURIOUS) != 0) x.put(SPURIOUS, true);
                if ((fl & VerdictStore.INFERRED) != 0) x.put(INFERRED, true);
            }
            if ((fl & VerdictStore.REPEAT_RESP) != 0) x.put(REPEAT, true);
            if ((fl & VerdictStore.ACK_FIRST) != 0) x.put(ACK_FIRST, true);
            if ((fl & VerdictStore.OOO) != 0) x.put(OOO, true);
            if ((fl & VerdictStore.DUP) != 0) x.put(DUP, true);
            if ((fl & VerdictStore.ACK_UNSEEN) != 0) x.put(ACK_UNSEEN, true);
            if ((fl & VerdictStore.CE_NO_CNP) != 0) x.put(CE_NO_CNP, true);
            for (int k = 0; k < store.valueCount(i); k++) {
                long v = store.valueAt(i, k);
                switch (store.valueCode(i, k)) {
                    case VerdictStore.V_ORIGINAL -> x.put(ORIGINAL, v);
                    case VerdictStore.V_REORDER -> x.put(REORDER, v);
                    case VerdictStore.V_GAP -> x.put(GAP, v);
                    case VerdictStore.V_NAK_GEN -> x.put(NAK_GEN, v);
                    case VerdictStore.V_NAK_RESP -> x.put(NAK_RESP, v);
                    case VerdictStore.V_RTX_LAT -> x.put(RTX_LAT, v);
                    case VerdictStore.V_MSG_ID -> x.put(MSG_ID, v);
                    case VerdictStore.V_MSG_DONE -> x.put(MSG_DONE, v);
                    case VerdictStore.V_REQUEST -> x.put(REPEAT_REQ, v);
                    default -> { }
                }
            }
        }
        if (f.opcode.role() == OpcodeDef.Role.REQUEST && !flow.ud) {
            int r = store.ackedBy(flow.index, f.psn, d.number());
            if (r >= 0) {
                x.put(ACKED_BY, store.ackFrameAt(r));
                if (flow.view != View.RECEIVER) x.put(ACK_RTT, Math.max(0, store.ackTimeAt(r) - d.timeNanos()));
            }
        }
    }
}

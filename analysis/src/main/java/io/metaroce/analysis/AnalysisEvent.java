package io.metaroce.analysis;

/**
 * One notable finding on one frame, as a typed record per kind. Every event names its {@link #frame()}, capture
 * time and {@link #flow()}: the QP flow the finding is about (for a NAK or CNP: the data flow it answers, when
 * the connection is paired; the frame's own flow is then in the record's {@code frameFlow}). Optional values
 * are null when the tap cannot know them or the kind of frame does not carry them.
 *
 * <p>Events are immutable. The engine decides some only after later frames (spuriousness at a sender tap, a
 * CE mark without CNP); it hands them out once decided, still in frame order. {@link #toJson()} gives the
 * object {@code metaroce analyze} prints: {@code {"frame", "time_ns", "flow", "type", details...}}.
 */
public sealed interface AnalysisEvent {
    long frame();

    long timeNs();

    String flow();

    EventType type();

    /** The event as a JSON object on one line. */
    default String toJson() { return EventJson.toJson(this); }

    /** Where a PSN the capture never showed was lost. */
    enum Loss {
        /** Before the tap (the capture lost it; the network delivered it). */
        CAPTURE,
        /** Unknown: the network or the capture. */
        UNKNOWN,
        /** Acknowledged but never seen by a mirror that does not see every path. */
        NOT_MIRRORED;

        public String label() { return name().toLowerCase(); }
    }

    /**
     * A request PSN sent again. Its type is {@link EventType#SPURIOUS_RETRANSMISSION} when the receiver already
     * had the PSN, else {@link EventType#TIMEOUT_RETRANSMISSION} for cause timeout, else
     * {@link EventType#RETRANSMISSION}.
     *
     * @param inferred the capture never showed the first copy: the PSN was lost before the tap and this copy
     *     fills the gap
     * @param originalFrame the first copy's frame, null when the capture did not show it
     * @param path MetaRoCE path of this copy; previousPath that of the copy before (null for RoCEv2)
     * @param spurious whether the receiver already had it ({@link FrameVerdict.Spurious#UNDECIDED} where nothing
     *     in the capture can tell, e.g. at a mirror without the acknowledgement)
     */
    record Retransmission(long frame, long timeNs, String flow, int psn, Cause cause, boolean inferred,
                          Long originalFrame, Long retransmissionLatencyNs, Long nakResponseLatencyNs, Integer path,
                          Integer previousPath, FrameVerdict.Spurious spurious) implements AnalysisEvent {
        @Override
        public EventType type() {
            return spurious == FrameVerdict.Spurious.YES ? EventType.SPURIOUS_RETRANSMISSION
                    : cause == Cause.TIMEOUT ? EventType.TIMEOUT_RETRANSMISSION : EventType.RETRANSMISSION;
        }

        Retransmission withSpurious(FrameVerdict.Spurious s) {
            return new Retransmission(frame, timeNs, flow, psn, cause, inferred, originalFrame, retransmissionLatencyNs,
                    nakResponseLatencyNs, path, previousPath, s);
        }
    }

    /**
     * A READ response or atomic acknowledgement sent again because its request was re-issued: not a
     * retransmission (§12 counts requests), counted apart.
     *
     * @param requestFrame the re-issued request it answers; originalFrame the first copy of this response
     * @param dataFlow the request flow it answers
     */
    record RepeatedResponse(long frame, long timeNs, String flow, int psn, Long requestFrame, Long originalFrame,
                            String dataFlow) implements AnalysisEvent {
        @Override
        public EventType type() { return EventType.REPEATED_RESPONSE; }
    }

    /**
     * A request captured after the acknowledgement that covered it (the capture reordered the two directions):
     * a note, not a protocol error.
     */
    record AckBeforeRequest(long frame, long timeNs, String flow, int psn, long ackFrame, long ackLeadNs)
            implements AnalysisEvent {
        @Override
        public EventType type() { return EventType.ACK_BEFORE_REQUEST; }
    }

    /** Which header carried a negative acknowledgement. */
    enum NakKind {
        /** RoCEv2 AETH (NAK or RNR NAK). */
        NAK,
        /** MetaRoCE MR-NACK. */
        NACK;

        public String label() { return name().toLowerCase(); }
    }

    /**
     * A NAK, RNR NAK or MR-NACK ({@link EventType#RNR_NAK} when {@code rnr}). code: the AETH NAK code (AETH
     * NAKs only); count and reason: the MR-NACK's; rnrTimer: of an RNR NAK or MR-NACK reason 0x11.
     */
    record Nak(long frame, long timeNs, String flow, int psn, NakKind kind, boolean rnr, Integer code, Integer count,
               Integer reason, Integer rnrTimer, Long nakGenLatencyNs, String frameFlow) implements AnalysisEvent {
        @Override
        public EventType type() { return rnr ? EventType.RNR_NAK : EventType.NAK; }
    }

    /**
     * A PSN that arrived after a higher one. afterRetransmission: MetaRoCE, the frame of the retransmission this
     * late original arrived after (else null).
     */
    record OutOfOrder(long frame, long timeNs, String flow, int psn, long reorderDistance, Integer path,
                      Long afterRetransmission) implements AnalysisEvent {
        @Override
        public EventType type() { return EventType.OUT_OF_ORDER; }
    }

    /** A capture duplicate: the same bytes as the flow's previous frame, sooner than anyone could resend. */
    record Duplicate(long frame, long timeNs, String flow, int psn, long originalFrame) implements AnalysisEvent {
        @Override
        public EventType type() { return EventType.DUPLICATE; }
    }

    /** PSNs skipped before this frame's PSN. */
    record PsnGap(long frame, long timeNs, String flow, int psn, int firstMissingPsn, long missing, Loss loss)
            implements AnalysisEvent {
        @Override
        public EventType type() { return EventType.PSN_GAP; }
    }

    /** An acknowledgement covering PSNs the capture never showed. */
    record AckOfUnseen(long frame, long timeNs, String flow, int firstPsn, long unseen, Loss loss)
            implements AnalysisEvent {
        @Override
        public EventType type() { return EventType.ACK_OF_UNSEEN; }

        AckOfUnseen withUnseen(long n) { return new AckOfUnseen(frame, timeNs, flow, firstPsn, n, loss); }
    }

    /**
     * A CNP or MR-CNP ({@code mr}); congestedPath and ceCount are the MR-CNP's. frameFlow: the CNP's own flow when
     * it was attributed to the data flow it answers, else null.
     */
    record Cnp(long frame, long timeNs, String flow, boolean mr, Integer congestedPath, Integer ceCount,
               String frameFlow) implements AnalysisEvent {
        @Override
        public EventType type() { return EventType.CNP; }
    }

    /** An ECN CE-marked data packet (path: MetaRoCE only). */
    record CeMark(long frame, long timeNs, String flow, int psn, Integer path) implements AnalysisEvent {
        @Override
        public EventType type() { return EventType.CE_MARK; }
    }

    /** A CE mark with no CNP, MR-CNP or larger ce_count within the CE window (judged where the receiver is seen). */
    record CeWithoutCnp(long frame, long timeNs, String flow, int psn, Integer path) implements AnalysisEvent {
        @Override
        public EventType type() { return EventType.CE_WITHOUT_CNP; }
    }

    /** A credit-mode sender that used all its credit and sent nothing new for at least one RTT. */
    record CreditStall(long frame, long timeNs, String flow, int psn, long stallNs) implements AnalysisEvent {
        @Override
        public EventType type() { return EventType.CREDIT_STALL; }
    }

    /**
     * A MetaRoCE path judged down: by its loss rate against the other paths' median (lossRate and
     * medianOtherPaths set) or by unanswered probes / the sender's own report (unansweredProbes when known).
     */
    record PathDown(long frame, long timeNs, String flow, int path, String reason, Double lossRate,
                    Double medianOtherPaths, Integer unansweredProbes) implements AnalysisEvent {
        @Override
        public EventType type() { return EventType.PATH_DOWN; }
    }
}

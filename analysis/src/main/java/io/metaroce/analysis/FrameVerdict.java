package io.metaroce.analysis;

/**
 * What the analysis decided about one frame (the typed form of the {@code analysis.*} fields): computed once in
 * the pass, read any number of times. {@link #NONE}-like verdicts (every flag false, every value null) are
 * returned for frames without a notable decision.
 *
 * @param frame the frame number
 * @param retransmission the frame repeats a PSN (or replays a READ/atomic response)
 * @param cause why it was sent again, null when not a retransmission
 * @param spurious whether the receiver already had the PSN: {@link Spurious#UNDECIDED} while (or if never) the
 *     acknowledgement that decides it is seen at a sender tap; {@link Spurious#NO} for a frame that is not a
 *     retransmission
 * @param inferred a retransmission whose first copy the capture never showed (lost before the tap)
 * @param repeatedResponse a READ response or atomic acknowledgement sent again for a re-issued request (not a
 *     retransmission); requestFrame the request it answers
 * @param ackBeforeRequest a request captured after the acknowledgement covering it (capture reordering)
 * @param originalFrame the first copy of this PSN (retransmission, repeated response) or the frame this one
 *     duplicates; null when the capture did not show it
 * @param reorderDistance how far below the highest PSN seen an out-of-order packet arrived
 * @param psnGap PSNs skipped just before this frame's PSN
 * @param ceMarked the frame is a CE-marked data packet
 * @param ceWithoutCnp a CE mark not answered by a CNP within the window (judged where the receiver is seen)
 * @param messageId the message this frame completed (with messageCompletionNs: first packet to completion)
 */
public record FrameVerdict(long frame, boolean retransmission, Cause cause, Spurious spurious, boolean inferred,
                           boolean repeatedResponse, boolean ackBeforeRequest, boolean outOfOrder, boolean duplicate,
                           boolean ackOfUnseen, boolean ceMarked, boolean ceWithoutCnp, Long originalFrame,
                           Long requestFrame, Long reorderDistance, Long psnGap, Long nakGenLatencyNs,
                           Long nakResponseLatencyNs, Long retransmissionLatencyNs, Long messageId,
                           Long messageCompletionNs) {

    /** Whether a retransmission was needed (tri-state: a sender tap may never see the deciding acknowledgement). */
    public enum Spurious { YES, NO, UNDECIDED }

    /** The verdict of a frame about which nothing notable was decided. */
    public static FrameVerdict none(long frame) {
        return new FrameVerdict(frame, false, null, Spurious.NO, false, false, false, false, false, false, false, false,
                null, null, null, null, null, null, null, null, null);
    }

    /** True when nothing notable was decided about the frame. */
    public boolean isNone() { return equals(none(frame)); }
}

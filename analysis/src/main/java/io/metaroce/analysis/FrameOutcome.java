package io.metaroce.analysis;

/**
 * What the engine decided about the frame it judged last, for a consumer riding the same pass
 * ({@link AnalysisSession.FrameStages#analyzed}): the frame's flow, the data flow an acknowledgement, response or
 * control frame is about, and whether it was a capture duplicate. One object per engine, overwritten by every
 * frame: read it during the callback, copy what you keep.
 */
public final class FrameOutcome {
    QpFlow flow, about;
    boolean duplicate;

    void reset() {
        flow = about = null;
        duplicate = false;
    }

    /** The frame's flow, or null for a frame that is no RoCE transport packet of a known opcode. */
    public QpFlow flow() { return flow; }

    /**
     * For an acknowledgement, a response or a control packet: the data flow it is about as the engine attributed
     * it (the peer, else the reverse flow whose PSNs match, else the only candidate), or null (none, or not
     * such a frame, or a frame the engine did not judge).
     */
    public QpFlow about() { return about; }

    /** The engine took the frame for a capture duplicate of its flow's previous frame (§11 f). */
    public boolean duplicate() { return duplicate; }
}

package io.metaroce.validate;

import java.lang.foreign.MemorySegment;

/**
 * What the second stage of the rules needs of a frame besides its {@link io.metaroce.analysis.FrameFacts}: the
 * flow the first stage found, whether the frame goes on (not a capture duplicate), and where the bytes a
 * retransmission keeps equal lie (a slice of the capture mapping, valid while the capture is open). Reused.
 */
final class FrameExtra {
    FlowState flow;
    boolean stage2;
    boolean truncated;
    MemorySegment seg;
    int extOff, payOff, endOff, pad;
}

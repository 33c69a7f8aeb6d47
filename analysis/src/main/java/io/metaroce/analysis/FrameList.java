package io.metaroce.analysis;

import java.util.Arrays;

/**
 * The frames of one QP flow in capture order: frame numbers and the byte offsets of their records in the
 * capture file (-1 where the source was not a file). Immutable; primitive arrays, 16 bytes per frame.
 */
public final class FrameList {
    static final FrameList EMPTY = new FrameList(new long[0], new long[0], 0);
    private final long[] frames, offsets;
    private final int size;

    FrameList(long[] frames, long[] offsets, int size) {
        this.frames = frames;
        this.offsets = offsets;
        this.size = size;
    }

    public int size() { return size; }

    /** Frame number of the i-th frame of the flow. */
    public long frame(int i) {
        if (i < 0 || i >= size) throw new IndexOutOfBoundsException(i);
        return frames[i];
    }

    /** File offset of the i-th frame's record or block, -1 when unknown. */
    public long offset(int i) {
        if (i < 0 || i >= size) throw new IndexOutOfBoundsException(i);
        return offsets[i];
    }

    /** A copy of the frame numbers. */
    public long[] frames() { return Arrays.copyOf(frames, size); }

    /** A copy of the file offsets. */
    public long[] offsets() { return Arrays.copyOf(offsets, size); }

    /** Index of a frame number in this list, or -1 (binary search: frames are in capture order). */
    public int indexOf(long frame) {
        int i = Arrays.binarySearch(frames, 0, size, frame);
        return i >= 0 ? i : -1;
    }
}

package io.metaroce.analysis;

/**
 * The frames of one QP flow in capture order: frame numbers and the byte offsets of their records in the
 * capture file (-1 where the source was not a file). Immutable. Held as varint deltas, 2-3 bytes per frame for
 * both lists ({@link FlowFrameRecorder.DeltaStream}): an element costs decoding up to 64 varints, a whole list
 * one decode; the flow index takes each document's range in its stored form ({@link #packedFrames}).
 */
public final class FrameList {
    static final FrameList EMPTY = new FrameList(new FlowFrameRecorder.DeltaStream(), new FlowFrameRecorder.DeltaStream());
    private final FlowFrameRecorder.DeltaStream frames, offsets;

    FrameList(FlowFrameRecorder.DeltaStream frames, FlowFrameRecorder.DeltaStream offsets) {
        this.frames = frames;
        this.offsets = offsets;
    }

    /**
     * A list of these frames and offsets (aligned, frame numbers rising): the flow index reads an evicted flow's
     * frames back from where it spilled them during the pass.
     */
    public static FrameList of(long[] frames, long[] offsets) {
        if (frames.length != offsets.length) throw new IllegalArgumentException(frames.length + " frames, " + offsets.length + " offsets");
        FlowFrameRecorder.DeltaStream f = new FlowFrameRecorder.DeltaStream(), o = new FlowFrameRecorder.DeltaStream();
        for (int i = 0; i < frames.length; i++) {
            f.add(frames[i]);
            o.add(offsets[i]);
        }
        return new FrameList(f, o);
    }

    public int size() { return frames.size(); }

    /** Frame number of the i-th frame of the flow. */
    public long frame(int i) {
        if (i < 0 || i >= size()) throw new IndexOutOfBoundsException(i);
        return frames.get(i);
    }

    /** File offset of the i-th frame's record or block, -1 when unknown. */
    public long offset(int i) {
        if (i < 0 || i >= size()) throw new IndexOutOfBoundsException(i);
        return offsets.get(i);
    }

    /** The frame numbers. */
    public long[] frames() { return frames.toArray(); }

    /** The file offsets. */
    public long[] offsets() { return offsets.toArray(); }

    /**
     * The frame numbers of frames [from, to) in the flow index's packed form: the bytes of
     * {@code PackedLongs.encode(frames(), from, to)}, copied from the recording rather than encoded again.
     */
    public byte[] packedFrames(int from, int to) { return frames.packed(from, to); }

    /** The file offsets of frames [from, to) in the packed form of {@link #packedFrames}. */
    public byte[] packedOffsets(int from, int to) { return offsets.packed(from, to); }

    /** Index of a frame number in this list, or -1 (frames are in capture order). */
    public int indexOf(long frame) { return frames.indexOf(frame); }
}

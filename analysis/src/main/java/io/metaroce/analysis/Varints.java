package io.metaroce.analysis;

/**
 * LEB128 varints of zig-zag deltas: the form in which a flow's frame numbers and file offsets are recorded during
 * the pass ({@link FlowFrameRecorder}) and stored in the flow index ({@code io.metaroce.index.PackedLongs}), so that
 * the index copies the recording instead of encoding it again. One writer for both, so the two cannot drift apart.
 */
public final class Varints {
    private Varints() {}

    /** The zig-zag form of a signed delta: small magnitudes of either sign become small unsigned values. */
    public static long zigzag(long d) { return (d << 1) ^ (d >> 63); }

    /** Writes v (as unsigned) at out[n], which has room for 10 bytes; returns the position after it. */
    public static int write(byte[] out, int n, long v) {
        while ((v & ~0x7FL) != 0) {
            out[n++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out[n++] = (byte) v;
        return n;
    }
}

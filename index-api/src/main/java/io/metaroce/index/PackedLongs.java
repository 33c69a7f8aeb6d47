package io.metaroce.index;

import io.metaroce.analysis.Varints;

/**
 * Compact storage of a rising list of longs (packet offsets, frame numbers): zig-zag deltas as LEB128
 * varints, so consecutive records of a flow cost one to three bytes each instead of eight.
 */
public final class PackedLongs {
    private PackedLongs() {}

    public static byte[] encode(long[] values, int from, int to) {
        byte[] out = new byte[10 * (to - from + 1)];
        int n = Varints.write(out, 0, to - from);
        long prev = 0;
        for (int i = from; i < to; i++) {
            long d = values[i] - prev;
            prev = values[i];
            n = Varints.write(out, n, Varints.zigzag(d));
        }
        return java.util.Arrays.copyOf(out, n);
    }

    public static byte[] encode(long[] values) { return encode(values, 0, values.length); }

    /** @throws IllegalArgumentException for bytes that are not an encoding (a damaged or foreign field) */
    public static long[] decode(byte[] b) {
        int[] pos = {0};
        long n = readVar(b, pos);
        if (n < 0 || n > b.length) throw new IllegalArgumentException("packed list: bad count " + n);
        long[] out = new long[(int) n];
        long prev = 0;
        for (int i = 0; i < n; i++) {
            long z = readVar(b, pos);
            prev += (z >>> 1) ^ -(z & 1);
            out[i] = prev;
        }
        if (pos[0] != b.length) throw new IllegalArgumentException("packed list: " + (b.length - pos[0]) + " bytes left over");
        return out;
    }

    private static long readVar(byte[] b, int[] pos) {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos[0] >= b.length) throw new IllegalArgumentException("packed list: cut at byte " + pos[0]);
            int x = b[pos[0]++] & 0xFF;
            v |= (long) (x & 0x7F) << shift;
            if ((x & 0x80) == 0) return v;
        }
        throw new IllegalArgumentException("packed list: varint too long at byte " + pos[0]);
    }
}

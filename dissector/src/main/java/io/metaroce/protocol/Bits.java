package io.metaroce.protocol;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Big-endian reads of 1..8 bytes at an absolute offset, and masked writes. The generated flyweights
 * bake each field's byte offset, width and shift into calls to these; nothing here knows a layout.
 */
public final class Bits {
    private static final ValueLayout.OfShort BE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfLong BE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private Bits() {}

    public static int read1(MemorySegment s, long o) { return s.get(ValueLayout.JAVA_BYTE, o) & 0xFF; }

    public static int read2(MemorySegment s, long o) { return s.get(BE_SHORT, o) & 0xFFFF; }

    public static int read3(MemorySegment s, long o) { return (read2(s, o) << 8) | read1(s, o + 2); }

    public static long read4(MemorySegment s, long o) { return s.get(BE_INT, o) & 0xFFFFFFFFL; }

    public static long read5(MemorySegment s, long o) { return (read4(s, o) << 8) | read1(s, o + 4); }

    public static long read6(MemorySegment s, long o) { return (read4(s, o) << 16) | read2(s, o + 4); }

    public static long read7(MemorySegment s, long o) { return (read4(s, o) << 24) | read3(s, o + 4); }

    public static long read8(MemorySegment s, long o) { return s.get(BE_LONG, o); }

    // The same reads over a byte[] (a copy of a frame's headers): plain array loads, bounds-checked by the JVM
    // (ArrayIndexOutOfBoundsException is an IndexOutOfBoundsException, like a segment read past its end).

    public static int read1(byte[] b, int o) { return b[o] & 0xFF; }

    public static int read2(byte[] b, int o) { return (b[o] & 0xFF) << 8 | b[o + 1] & 0xFF; }

    public static int read3(byte[] b, int o) { return (b[o] & 0xFF) << 16 | (b[o + 1] & 0xFF) << 8 | b[o + 2] & 0xFF; }

    public static long read4(byte[] b, int o) { return ((long) read2(b, o) << 16 | read2(b, o + 2)) & 0xFFFFFFFFL; }

    public static long read5(byte[] b, int o) { return read4(b, o) << 8 | read1(b, o + 4); }

    public static long read6(byte[] b, int o) { return read4(b, o) << 16 | read2(b, o + 4); }

    public static long read7(byte[] b, int o) { return read4(b, o) << 24 | read3(b, o + 4); }

    public static long read8(byte[] b, int o) { return read4(b, o) << 32 | read4(b, o + 4); }

    /** Reads n (1..8) bytes big-endian. */
    public static long read(MemorySegment s, long o, int n) {
        return switch (n) {
            case 1 -> read1(s, o);
            case 2 -> read2(s, o);
            case 3 -> read3(s, o);
            case 4 -> read4(s, o);
            case 5 -> read5(s, o);
            case 6 -> read6(s, o);
            case 7 -> read7(s, o);
            case 8 -> read8(s, o);
            default -> throw new IllegalArgumentException("1..8 bytes, not " + n);
        };
    }

    /** Reads the bit field [bitOffset, bitOffset + width) of the bytes at o (bit 0 = MSB of byte 0). */
    public static long readBits(MemorySegment s, long o, int bitOffset, int width) {
        int first = bitOffset >>> 3;
        int n = ((bitOffset + width - 1) >>> 3) - first + 1;
        long v = read(s, o + first, n);
        int shift = n * 8 - (bitOffset & 7) - width;
        return width == 64 ? v : (v >>> shift) & ((1L << width) - 1);
    }

    /** Replaces the bits selected by mask << shift in the n bytes at o with value. */
    public static void write(MemorySegment s, long o, int n, int shift, long mask, long value) {
        long old = n == 8 ? 0 : read(s, o, n);
        long v = (old & ~(mask << shift)) | ((value & mask) << shift);
        for (int i = n - 1; i >= 0; i--) {
            s.set(ValueLayout.JAVA_BYTE, o + i, (byte) v);
            v >>>= 8;
        }
    }

    /** Writes the bit field [bitOffset, bitOffset + width) like {@link #readBits}. */
    public static void writeBits(MemorySegment s, long o, int bitOffset, int width, long value) {
        int first = bitOffset >>> 3;
        int n = ((bitOffset + width - 1) >>> 3) - first + 1;
        int shift = n * 8 - (bitOffset & 7) - width;
        write(s, o + first, n, shift, width == 64 ? -1L : (1L << width) - 1, value);
    }
}

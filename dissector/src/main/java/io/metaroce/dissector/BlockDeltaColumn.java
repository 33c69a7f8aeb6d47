package io.metaroce.dissector;

import java.util.Arrays;

/**
 * A column of longs that change little from frame to frame (capture times, file offsets), stored in 4 bytes per
 * row: rows are grouped in blocks of {@value #BLOCK} with the block's first value as a long base, and each row
 * keeps its int difference to that base. A difference that does not fit an int (a pause of more than 2.1 s in
 * the capture, a block spanning more than 2 GiB of file) goes to {@link LongEscapes}, so every value is exact.
 * About 4.03 bytes per row plus 12 per escaped row. Rows must be appended in order.
 */
final class BlockDeltaColumn {
    static final int BLOCK_BITS = 8, BLOCK = 1 << BLOCK_BITS;
    /** Marks a row whose value is in the escapes. */
    private static final int ESCAPE = Integer.MIN_VALUE;

    private long[] base = new long[4];
    private int[] delta = new int[BLOCK];
    private final LongEscapes escapes = new LongEscapes();
    private int size;

    void add(long value) {
        int row = size++;
        if (row == delta.length) delta = Arrays.copyOf(delta, row * 2);
        int block = row >>> BLOCK_BITS;
        if ((row & (BLOCK - 1)) == 0) {
            if (block == base.length) base = Arrays.copyOf(base, block * 2);
            base[block] = value;
        }
        long b = base[block], d = value - b;
        boolean overflow = ((value ^ b) & (value ^ d)) < 0;     // the long subtraction itself wrapped
        if (!overflow && d > Integer.MIN_VALUE && d <= Integer.MAX_VALUE) {
            delta[row] = (int) d;
        } else {
            delta[row] = ESCAPE;
            escapes.add(row, value);
        }
    }

    long get(int row) {
        int d = delta[row];
        return d == ESCAPE ? escapes.get(row) : base[row >>> BLOCK_BITS] + d;
    }

    int size() { return size; }

    int escaped() { return escapes.size(); }

    void trim() {
        delta = Arrays.copyOf(delta, size);
        base = Arrays.copyOf(base, (size + BLOCK - 1) >>> BLOCK_BITS);
        escapes.trim();
    }

    long memoryBytes() { return base.length * 8L + delta.length * 4L + escapes.memoryBytes(); }
}

package io.metaroce.dissector;

import java.util.Arrays;

/**
 * The few values of a narrow column that do not fit it (a time gap of seconds, an offset past 4 GiB, a jumbo
 * length), kept beside it as (row, value) pairs appended in row order and found by binary search. Costs 12 bytes
 * per escaped row and nothing for the others.
 */
final class LongEscapes {
    private int[] rows = new int[0];
    private long[] values = new long[0];
    private int size;

    void add(int row, long value) {
        if (size == rows.length) {
            int n = Math.max(8, size * 2);
            rows = Arrays.copyOf(rows, n);
            values = Arrays.copyOf(values, n);
        }
        rows[size] = row;
        values[size] = value;
        size++;
    }

    /** The value escaped for row; the row must have been added. */
    long get(int row) {
        int i = Arrays.binarySearch(rows, 0, size, row);
        if (i < 0) throw new IllegalStateException("row " + row + " has no escaped value");
        return values[i];
    }

    int size() { return size; }

    void trim() {
        rows = Arrays.copyOf(rows, size);
        values = Arrays.copyOf(values, size);
    }

    long memoryBytes() { return rows.length * 4L + values.length * 8L; }
}

package io.metaroce.analysis;

import java.util.Arrays;

/**
 * A latency distribution in bounded memory: exact while small (up to {@value #EXACT} samples), then a
 * log-linear histogram with 1/64 relative resolution. Gives count, min, median, p99, max and mean.
 */
public final class Latency {
    static final int EXACT = 4096;
    private static final int SUB = 64;
    /** Exact samples while few; allocated with the first (most flows never measure most latencies). */
    private long[] samples;
    private int[] buckets;
    private long count, min = Long.MAX_VALUE, max = Long.MIN_VALUE, sum;

    public void add(long v) {
        if (v < 0) v = 0;
        count++;
        sum += v;
        if (v < min) min = v;
        if (v > max) max = v;
        if (buckets == null) {
            if (count <= EXACT) {
                if (samples == null) samples = new long[16];
                if (count > samples.length) samples = Arrays.copyOf(samples, Math.min(EXACT, samples.length * 2));
                samples[(int) count - 1] = v;
                return;
            }
            buckets = new int[64 * SUB];
            for (int i = 0; i < EXACT; i++) buckets[bucket(samples[i])]++;
            samples = null;
        }
        // bucket(v) written out: add runs for every acknowledged PSN, and bucket is too large for C1 to inline.
        int b;
        if (v < SUB) {
            b = (int) v;
        } else {
            int exp = exponent(v);
            b = (exp - 5) * SUB + (int) ((v >>> (exp - 6)) & (SUB - 1));
        }
        buckets[b]++;
    }

    public void addAll(Latency o) {
        if (o.count == 0) return;
        if (o.buckets == null) {
            for (int i = 0; i < o.count; i++) add(o.samples[i]);
            return;
        }
        for (int b = 0; b < o.buckets.length; b++) for (int k = 0; k < o.buckets[b]; k++) add(value(b));
    }

    /**
     * floor(log2 v) for v > 0. C1 has no intrinsic for {@link Long#numberOfLeadingZeros}: its Java code calls
     * Integer's, too large to inline, for every sample. Below 2^53 the double holds v exactly and its exponent is
     * the answer.
     */
    static int exponent(long v) {
        return v < (1L << 53) ? Math.getExponent((double) v) : 63 - Long.numberOfLeadingZeros(v);
    }

    /** The histogram bucket of v (written out in {@link #add}: keep the two alike). */
    private static int bucket(long v) {
        if (v < SUB) return (int) v;
        int exp = exponent(v); // >= 6
        int sub = (int) ((v >>> (exp - 6)) & (SUB - 1));
        return (exp - 5) * SUB + sub;
    }

    private static long value(int b) {
        if (b < SUB) return b;
        int exp = b / SUB + 5;
        long sub = b % SUB;
        long lo = (1L << exp) | (sub << (exp - 6));
        return lo + (1L << (exp - 6)) / 2;
    }

    public long count() { return count; }
    public long min() { return count == 0 ? -1 : min; }
    public long max() { return count == 0 ? -1 : max; }
    public long mean() { return count == 0 ? -1 : sum / count; }

    /** The q-quantile (0..1), nearest-rank; -1 when empty. */
    public long quantile(double q) {
        if (count == 0) return -1;
        long rank = Math.max(1, (long) Math.ceil(q * count));
        if (buckets == null) {
            long[] s = Arrays.copyOf(samples, (int) count);
            Arrays.sort(s);
            return s[(int) rank - 1];
        }
        long seen = 0;
        for (int b = 0; b < buckets.length; b++) {
            seen += buckets[b];
            if (seen >= rank) return Math.max(min, Math.min(max, value(b)));
        }
        return max;
    }

    public long median() { return quantile(0.5); }
    public long p99() { return quantile(0.99); }
}

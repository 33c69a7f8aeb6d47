package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The histogram's exponent, read from a double below 2^53, is floor(log2 v) for every positive long. */
class LatencyTest {
    private static void same(long v) {
        assertEquals(63 - Long.numberOfLeadingZeros(v), Latency.exponent(v), "exponent of " + v);
    }

    @Test
    void exponentIsFloorLog2AroundEveryPowerOfTwo() {
        for (int k = 0; k < 63; k++) {
            long p = 1L << k;
            same(p);
            same(p + 1);
            if (p > 1) same(p - 1);
            same(p | (p - 1)); // all ones below: rounds up to 2^(k+1) as a double above 2^53
        }
        same(Long.MAX_VALUE);
        Random r = new Random(14);
        for (int i = 0; i < 100_000; i++) {
            long v = r.nextLong() >>> r.nextInt(63);
            if (v > 0) same(v);
        }
    }

    @Test
    void quantilesOfTheHistogramStayWithinTheirBucket() {
        Latency l = new Latency();
        for (int i = 0; i < 10_000; i++) l.add(7_000 + i % 1_000); // past the exact samples: the histogram
        long median = l.median();
        // 1/64 relative resolution around the true median (7,500).
        assertEquals(7_500, median, 7_500 / 64 + 1);
        assertEquals(7_000, l.min());
        assertEquals(7_999, l.max());
    }
}

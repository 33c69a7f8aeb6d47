package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The recorder keeps each flow's lists as varint deltas: every read and every packed range must match the values. */
class FlowFrameRecorderTest {
    /** The flow index's packed form written the plain way (PackedLongs.encode, which this module cannot see). */
    private static byte[] reference(long[] v, int from, int to) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        var w = new Object() {
            void var(long z) {
                while ((z & ~0x7FL) != 0) {
                    out.write((int) ((z & 0x7F) | 0x80));
                    z >>>= 7;
                }
                out.write((int) z);
            }
        };
        w.var(to - from);
        long prev = 0;
        for (int i = from; i < to; i++) {
            long d = v[i] - prev;
            prev = v[i];
            w.var((d << 1) ^ (d >> 63));
        }
        return out.toByteArray();
    }

    @Test
    void everyElementEveryRangeAndEveryLookupMatchTheValues() {
        Random r = new Random(12);
        for (int n : new int[] {0, 1, 2, 63, 64, 65, 127, 128, 129, 1000, 10_001}) {
            FlowFrameRecorder rec = new FlowFrameRecorder();
            long[] frames = new long[n], offsets = new long[n];
            long f = 1 + r.nextInt(5), o = n % 2 == 0 ? 24 : -1;
            for (int i = 0; i < n; i++) {
                frames[i] = f;
                offsets[i] = o;
                rec.add(3, f, o);
                rec.add(1, f + 1, 0);   // another flow in between: the lists are per flow
                f += 2 + r.nextInt(i % 100 == 99 ? 1 << 20 : 9);
                // offsets: rising as in a file, or -1 throughout (no file), or a jump past 2^35 (varints of 6+ bytes)
                if (o >= 0) o += i == n / 2 ? 1L << 36 : 60 + r.nextInt(9000);
            }
            FrameList l = rec.of(3);
            assertEquals(n, l.size());
            assertArrayEquals(frames, l.frames());
            assertArrayEquals(offsets, l.offsets());
            for (int i = 0; i < n; i++) {
                assertEquals(frames[i], l.frame(i), "frame " + i + " of " + n);
                assertEquals(offsets[i], l.offset(i), "offset " + i + " of " + n);
                assertEquals(i, l.indexOf(frames[i]), "indexOf " + i + " of " + n);
                assertEquals(-1, l.indexOf(frames[i] + 1), "a frame of the other flow");
            }
            assertEquals(-1, l.indexOf(0));
            assertEquals(-1, l.indexOf(Long.MAX_VALUE));
            int[][] ranges = {{0, n}, {0, 0}, {n, n}, {0, Math.min(n, 64)}, {Math.min(n, 64), n}, {n / 3, 2 * n / 3}, {n / 2, n}};
            for (int[] g : ranges) {
                assertArrayEquals(reference(frames, g[0], g[1]), l.packedFrames(g[0], g[1]), n + ": frames " + g[0] + ".." + g[1]);
                assertArrayEquals(reference(offsets, g[0], g[1]), l.packedOffsets(g[0], g[1]), n + ": offsets " + g[0] + ".." + g[1]);
            }
            for (int k = 0; k < 50 && n > 0; k++) {
                int a = r.nextInt(n + 1), b = a + r.nextInt(n - a + 1);
                assertArrayEquals(reference(frames, a, b), l.packedFrames(a, b), n + ": frames " + a + ".." + b);
                assertArrayEquals(reference(offsets, a, b), l.packedOffsets(a, b), n + ": offsets " + a + ".." + b);
            }
        }
    }

    @Test
    void aFlowNeverRecordedIsEmpty() {
        FlowFrameRecorder rec = new FlowFrameRecorder();
        rec.add(0, 1, 24);
        assertEquals(0, rec.of(5).size());
        assertArrayEquals(new byte[] {0}, rec.of(5).packedFrames(0, 0));
        rec.release(0);
        assertEquals(0, rec.of(0).size());
    }
}

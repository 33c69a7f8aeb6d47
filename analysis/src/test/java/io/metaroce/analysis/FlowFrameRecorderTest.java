package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /**
     * Lists of several chunks ({@link FlowFrameRecorder.DeltaStream#CHUNK}): varints of 1 to 10 bytes cross the
     * chunks' ends, and every element, lookup and range (those starting or ending at a chunk's end among them) must
     * read through them.
     */
    @Test
    void listsLongerThanAChunkReadAcrossTheChunksEnds() {
        Random r = new Random(17);
        int n = 150_000;
        FlowFrameRecorder rec = new FlowFrameRecorder();
        long[] frames = new long[n], offsets = new long[n];
        long f = 1, o = 24;
        for (int i = 0; i < n; i++) {
            frames[i] = f;
            offsets[i] = o;
            rec.add(2, f, o);
            f += 1 + r.nextInt(i % 7 == 0 ? 1 << 20 : 3);
            // deltas of every varint length, the 10-byte one included (a jump of 2^62 and back)
            int k = r.nextInt(64);
            o += i % 1000 == 500 ? Long.MIN_VALUE / 2 : i % 1000 == 501 ? Long.MAX_VALUE / 2 : 1L << k >>> 1;
        }
        FrameList l = rec.of(2);
        assertArrayEquals(frames, l.frames());
        assertArrayEquals(offsets, l.offsets());
        byte[] all = l.packedOffsets(0, n);
        assertArrayEquals(reference(offsets, 0, n), all);
        int chunk = FlowFrameRecorder.DeltaStream.CHUNK;
        assertTrue(all.length > 8 * chunk, "the offsets span chunks: " + all.length + " bytes");
        for (int i = 0; i < n; i += 1 + r.nextInt(40)) {
            assertEquals(frames[i], l.frame(i), "frame " + i);
            assertEquals(offsets[i], l.offset(i), "offset " + i);
            assertEquals(i, l.indexOf(frames[i]), "indexOf " + i);
        }
        // ranges whose ends fall on the elements around each chunk's end (found by the reference's byte positions)
        java.util.List<Integer> ends = new java.util.ArrayList<>(java.util.List.of(0, n));
        // the recording's bytes are the packed form of the whole list without its count
        byte[] body = reference(offsets, 0, n);
        int skip = Varints.write(new byte[10], 0, n), inChunk = 0;
        for (int i = 0, p = skip; i < n; i++) {
            if ((p - skip) / chunk != inChunk) {
                inChunk = (p - skip) / chunk;
                for (int d = -2; d <= 2; d++) if (i + d >= 0 && i + d <= n) ends.add(i + d);
            }
            while ((body[p++] & 0x80) != 0) { /* to the next varint */ }
        }
        assertTrue(ends.size() > 30, "chunk ends found: " + ends.size());
        for (int a : ends) {
            for (int b : ends) {
                if (a > b) continue;
                assertArrayEquals(reference(offsets, a, b), l.packedOffsets(a, b), "offsets " + a + ".." + b);
                assertArrayEquals(reference(frames, a, b), l.packedFrames(a, b), "frames " + a + ".." + b);
            }
        }
    }

    /**
     * A long list is allocated about once, not doubled to the end: recording 1 M frames of one flow (2-3 bytes
     * each for both lists) allocates at most 1.3 times the packed lists' bytes plus the marks (12 bytes per 64
     * elements, doubled). Doubling one array allocated 2-4 times the bytes, each fresh heap page a page fault.
     */
    @Test
    void aLongListIsAllocatedAboutOnce() {
        var bean = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().threadId();
        int n = 1_000_000;
        FlowFrameRecorder rec = new FlowFrameRecorder();
        rec.add(0, 0, 24);   // the classes loaded and the recorder's arrays made before the count starts
        long before = bean.getThreadAllocatedBytes(id);
        long f = 1, o = 24;
        for (int i = 1; i < n; i++) {
            rec.add(0, f += 1 + (i & 3), o += 700 + (i & 127));
        }
        long allocated = bean.getThreadAllocatedBytes(id) - before;
        FrameList l = rec.of(0);
        long bytes = l.packedFrames(0, n).length + l.packedOffsets(0, n).length;
        long marks = 2L * 2 * (n / 64) * 12;
        assertTrue(allocated < 1.3 * bytes + marks, "allocated " + allocated + " bytes for " + bytes + " bytes of lists");
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

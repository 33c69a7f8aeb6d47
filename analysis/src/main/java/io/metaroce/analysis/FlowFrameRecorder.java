package io.metaroce.analysis;

import java.util.Arrays;

/**
 * Records, per flow index, the frame numbers and file offsets of the flow's frames during the pass (only when a
 * caller asked for them: "follow this QP", the flow index). Each list is kept as it is stored in the flow index
 * ({@link DeltaStream}: varint deltas, 2-3 bytes per frame for both lists of a flow instead of 16), so that the
 * index copies the bytes of each document's part instead of encoding 16-byte longs after the pass, on the
 * critical path, in code no other command runs (docs/benchmarks.md, "helper ixa, eighth session").
 */
final class FlowFrameRecorder {
    private DeltaStream[] frames = new DeltaStream[16], offsets = new DeltaStream[16];

    void add(int flow, long frame, long offset) {
        if (flow >= frames.length) {
            int n = Math.max(flow + 1, frames.length * 2);
            frames = Arrays.copyOf(frames, n);
            offsets = Arrays.copyOf(offsets, n);
        }
        DeltaStream fr = frames[flow];
        if (fr == null) {
            fr = frames[flow] = new DeltaStream();
            offsets[flow] = new DeltaStream();
        }
        fr.add(frame);
        offsets[flow].add(offset);
    }

    /** Forgets a flow's frames (an evicted flow: its lists were handed over, or are not wanted). */
    void release(int flow) {
        if (flow < 0 || flow >= frames.length) return;
        frames[flow] = null;
        offsets[flow] = null;
    }

    /** The frames of a flow (the lists are handed over: call once per flow, after the pass or at its eviction). */
    FrameList of(int flow) {
        if (flow < 0 || flow >= frames.length || frames[flow] == null) return FrameList.EMPTY;
        return new FrameList(frames[flow], offsets[flow]);
    }

    /**
     * A growing list of longs as zig-zag LEB128 varints of each value's difference to the one before (the first
     * to 0): the body of the flow index's packed form ({@code io.metaroce.index.PackedLongs}), which is this
     * module's consumer's format, not a second one. Every {@link #MARK_EVERY}-th element's byte position and
     * value are kept beside, so that an element, or the packed form of any range, is found by decoding at most
     * that many varints.
     */
    static final class DeltaStream {
        static final int MARK_SHIFT = 6, MARK_EVERY = 1 << MARK_SHIFT;
        /**
         * A stream's bytes live in one array that doubles from 32 bytes up to {@code CHUNK}, then in further arrays
         * of {@code CHUNK} bytes each: the logical position p is byte {@code p & CHUNK_MASK} of chunk
         * {@code p >>> CHUNK_SHIFT}. WHY: doubling one array to the end allocated 2-4 times the stream's bytes, and
         * every fresh heap page is a page fault (15 us of CPU on this VM, docs/benchmarks.md, "helper speed,
         * sixteenth session"): `metaroce index` of the 1 M-frame capture (3 MB of lists) allocated ~10.6 MB here
         * on the analysis thread, 2,700 page faults (docs/benchmarks.md, "helper ixcpu, seventeenth session").
         * Flows below 64 KiB of list (nearly all of a many-QP capture) keep the one small array, as before.
         */
        static final int CHUNK_SHIFT = 16, CHUNK = 1 << CHUNK_SHIFT, CHUNK_MASK = CHUNK - 1;
        /** The chunk being written: number {@code length >>> CHUNK_SHIFT}, with room at {@code length & CHUNK_MASK}. */
        private byte[] buf = new byte[32];
        /** The filled chunks before {@code buf} (null until the first fills), and how many. */
        private byte[][] full;
        private int filled;
        private int length, size;
        private long last;
        private int[] markAt = new int[2];
        private long[] markValue = new long[2];

        void add(long v) {
            if ((size & (MARK_EVERY - 1)) == 0) {
                int m = size >>> MARK_SHIFT;
                if (m == markAt.length) {
                    markAt = Arrays.copyOf(markAt, m * 2);
                    markValue = Arrays.copyOf(markValue, m * 2);
                }
                markAt[m] = length;
                markValue[m] = v;
            }
            long z = Varints.zigzag(v - last);
            last = v;
            int at = length & CHUNK_MASK;
            if (at + 10 <= buf.length) length += Varints.write(buf, at, z) - at;
            else addSlowly(z);
            size++;
        }

        /** The first array doubled (up to a chunk), or the varint written byte by byte across a chunk's end. */
        private void addSlowly(long z) {
            if (buf.length < CHUNK) {
                buf = Arrays.copyOf(buf, Math.min(CHUNK, buf.length * 2));
                int at = length & CHUNK_MASK;
                if (at + 10 <= buf.length) {
                    length += Varints.write(buf, at, z) - at;
                    return;
                }
            }
            while ((z & ~0x7FL) != 0) {
                put((int) ((z & 0x7F) | 0x80));
                z >>>= 7;
            }
            put((int) z);
        }

        private void put(int b) {
            buf[length & CHUNK_MASK] = (byte) b;
            if ((++length & CHUNK_MASK) == 0) {   // this chunk is full: the next byte goes to a new one
                if (full == null) full = new byte[4][];
                else if (filled == full.length) full = Arrays.copyOf(full, filled * 2);
                full[filled++] = buf;
                buf = new byte[CHUNK];
            }
        }

        private byte[] chunk(int p) {
            int c = p >>> CHUNK_SHIFT;
            return c == filled ? buf : full[c];
        }

        int size() { return size; }

        /** The i-th value (0 <= i < size). */
        long get(int i) {
            int m = i >>> MARK_SHIFT;
            int[] pos = {markAt[m]};
            long v = markValue[m];
            skip(pos);
            for (int k = m << MARK_SHIFT; k < i; k++) v += unzig(read(pos));
            return v;
        }

        /** Every value, in order. */
        long[] toArray() {
            long[] out = new long[size];
            int[] pos = {0};
            long v = 0;
            for (int i = 0; i < size; i++) out[i] = v += unzig(read(pos));
            return out;
        }

        /** The index of a value in this rising list, or -1 (the marks' values are searched first). */
        int indexOf(long value) {
            if (size == 0) return -1;
            int marks = (size + MARK_EVERY - 1) >>> MARK_SHIFT;
            int m = Arrays.binarySearch(markValue, 0, marks, value);
            if (m >= 0) return m << MARK_SHIFT;
            m = -m - 2;
            if (m < 0) return -1;
            int[] pos = {markAt[m]};
            long v = markValue[m];
            skip(pos);
            for (int i = (m << MARK_SHIFT) + 1, end = Math.min(size, (m + 1) << MARK_SHIFT); i < end; i++) {
                v += unzig(read(pos));
                if (v == value) return i;
                if (v > value) return -1;
            }
            return -1;
        }

        /**
         * The values [from, to) in the packed form: their count, the first value, then the deltas; the bytes of
         * {@code PackedLongs.encode(values, from, to)}. All but the first value's varint are copied as recorded.
         */
        byte[] packed(int from, int to) {
            if (from < 0 || to > size || from > to) throw new IndexOutOfBoundsException(from + ".." + to + " of " + size);
            byte[] head = new byte[20];
            int h = Varints.write(head, 0, to - from);
            if (from == to) return Arrays.copyOf(head, h);
            int m = from >>> MARK_SHIFT;
            int[] pos = {markAt[m]};
            long v = markValue[m];
            skip(pos);
            for (int k = m << MARK_SHIFT; k < from; k++) v += unzig(read(pos));
            h = Varints.write(head, h, Varints.zigzag(v));
            int start = pos[0], end = positionOf(to);
            byte[] out = Arrays.copyOf(head, h + end - start);
            for (int at = h; start < end; ) {
                byte[] b = chunk(start);
                int o = start & CHUNK_MASK, n = Math.min(end - start, b.length - o);
                System.arraycopy(b, o, out, at, n);
                start += n;
                at += n;
            }
            return out;
        }

        /** The byte position of the i-th value's varint (the length for i == size). */
        private int positionOf(int i) {
            if (i == size) return length;
            int[] pos = {markAt[i >>> MARK_SHIFT]};
            for (int k = i & (MARK_EVERY - 1); k > 0; k--) skip(pos);
            return pos[0];
        }

        private void skip(int[] pos) {
            int p = pos[0];
            while ((chunk(p)[p++ & CHUNK_MASK] & 0x80) != 0) { /* continuation byte */ }
            pos[0] = p;
        }

        private long read(int[] pos) {
            int p = pos[0];
            long v = 0;
            for (int shift = 0; ; shift += 7) {
                int x = chunk(p)[p++ & CHUNK_MASK];
                v |= (long) (x & 0x7F) << shift;
                if (x >= 0) break;
            }
            pos[0] = p;
            return v;
        }

        private static long unzig(long z) { return (z >>> 1) ^ -(z & 1); }

    }
}

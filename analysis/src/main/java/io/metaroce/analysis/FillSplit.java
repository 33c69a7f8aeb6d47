package io.metaroce.analysis;

import io.metaroce.capture.CurrentFrame;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import java.lang.foreign.MemorySegment;

/**
 * One batch of a file's two-thread pass ({@link AnalysisSession}), and the split of {@link FastFacts#fill} between
 * the two threads: for a frame of a batch the decoding thread chose to defer, it copies only the frame's first
 * {@link #HEAD} bytes and its last 4 (with the record fields) into the batch, and the analysis thread runs the fill
 * from that copy ({@link FastFacts#fillFromHead}) just before the engine sees the frame.
 *
 * <p>Why: on a file the decoding thread was the critical path and the analysis thread waited more than half of the
 * run (10 M frames, perf cpu-clock per thread: decoding 2.32 s, analysis 1.05 s; docs/benchmarks.md, helper bal,
 * nineteenth session). fill's walk over the headers and its ~60 stores into the facts were the decoding thread's
 * largest item besides read(2); the copy that replaces it is two array copies and five stores.
 *
 * <p>A frame is filled exactly once, by one thread, before the engine sees it, and the frames reach the engine in
 * the same order and the same facts objects as without the split. A frame the copy does not suffice for (headers
 * beyond {@link #HEAD} bytes, an ICRC not at the frame's end) or that fill declines is filled or dissected on the
 * analysis thread from the file mapping ({@link #fill}), as the decoding thread would have from its window: the
 * same bytes, so the same facts, but a page fault per page the reader has already released (~15 us on this VM), so
 * the decoding thread stops deferring when such frames are more than a few ({@link #tooManyFromMapping}).
 * Only for a file source (a mapping), analyze's pass (no frame stages: validate reads the frame's whole bytes on
 * the decoding thread), without {@code --check-icrc} (the CRC needs the whole frame).
 */
final class FillSplit {
    /**
     * Bytes of a deferred frame's head copied into the batch (the whole frame when shorter). 128: two cache lines,
     * Ethernet + a VLAN tag + IPv4 + UDP + BTH + MRTH + RETH is 94; a longer header chain (IPv4 options, IPv6 with
     * two tags and several extension headers) falls back to the mapping, a rare frame.
     */
    static final int HEAD = 128;
    /** Frames read from the mapping the split tolerates before it stops deferring, beyond one in 1,024 deferred. */
    static final int MAPPING_SLACK = 64;

    /** The frames of one batch and, for the deferred ones, what the analysis thread fills them from. */
    static final class Batch {
        final FrameFacts[] facts;
        /** The slot of facts[0] (frame stages name a frame by its slot). */
        final int base;
        /** Frame k's head copy is heads[k * HEAD, k * HEAD + copied[k]). */
        final byte[] heads;
        /** Per frame: the bytes of its head copied, 0 when the frame was filled on the decoding thread. */
        final int[] copied;
        /** Per deferred frame: its last 4 bytes (little-endian) when longer than its head copy. */
        final int[] tails;
        /** Per deferred frame: the file record's FCS length and where its captured bytes lie in the mapping. */
        final int[] fcsLengths;
        final long[] dataOffsets;
        /** Frames of this batch left to the analysis thread (0: nothing to fill there). */
        int deferred;

        Batch(int size, int base) {
            this(size, base, true);
        }

        /**
         * split: whether the pass may defer this batch's fill; without, the arrays for deferred frames are not made
         * (10 batches of 512 frames: ~740 KB of fresh heap, on this VM ~180 page faults of ~15 us, that validate's
         * and a live capture's passes never use).
         */
        Batch(int size, int base, boolean split) {
            facts = new FrameFacts[size];
            for (int k = 0; k < size; k++) facts[k] = new FrameFacts();
            this.base = base;
            heads = split ? new byte[size * HEAD] : null;
            copied = split ? new int[size] : null;
            tails = split ? new int[size] : null;
            fcsLengths = split ? new int[size] : null;
            dataOffsets = split ? new long[size] : null;
        }
    }

    /** The file's mapping, which the analysis thread reads a frame from when its head copy does not suffice. */
    private final MemorySegment mapping;
    /** The analysis thread's own decoders (FastFacts and Dissector are one per thread). */
    private final FastFacts fast;
    private final DissectorConfig config;
    private Dissector dissector;
    private Dissection dissection;
    /** Frames deferred so far (decoding thread only). */
    private long deferredFrames;
    /** Deferred frames the analysis thread read from the mapping (written by it alone, read by the decoding thread). */
    private volatile long fromMapping;

    FillSplit(MemorySegment mapping, DissectorConfig config) {
        this.mapping = mapping;
        this.config = config;
        this.fast = new FastFacts(config);
    }

    /**
     * Whether the split applies to a pass at all: a file source, a fast path, no frame stages, no ICRC check.
     */
    static boolean applies(PacketSource src, FastFacts fast, AnalysisSession.FrameStages stages, DissectorConfig dc) {
        return src.mapping() != null && fast != null && stages == null && !dc.checkIcrc();
    }

    /**
     * On the decoding thread: defers the source's current frame into slot k of b when it can (a frame of the
     * reader's window on an Ethernet interface without FCS) and returns true; false when the caller must decode it
     * now (then b's slot is marked as filled).
     */
    boolean defer(PacketSource src, Batch b, int k) {
        CurrentFrame c = src.current();
        int cap;
        if (c == null || c.bufferOffset < 0 || c.linkType != 1 || c.fcsLength > 0 || (cap = c.capturedLength) < 14) {
            b.copied[k] = 0;
            return false;
        }
        int n = Math.min(cap, HEAD);
        System.arraycopy(c.buffer, c.bufferOffset, b.heads, k * HEAD, n);
        if (cap > n) b.tails[k] = FastFacts.littleEndianInt(c.buffer, c.bufferOffset + cap - 4);
        b.copied[k] = n;
        b.fcsLengths[k] = c.fcsLength;
        b.dataOffsets[k] = src.dataOffset();
        FrameFacts f = b.facts[k];
        f.number = c.number;
        f.timeNs = c.timestampNanos;
        f.origLen = c.originalLength;
        f.capLen = cap;
        f.fileOffset = src.recordOffset();
        deferredFrames++;
        return true;
    }

    /** On the decoding thread, once per batch: whether the analysis thread read so many frames from the mapping. */
    boolean tooManyFromMapping() {
        return fromMapping > MAPPING_SLACK + (deferredFrames >> 10);
    }

    /** Deferred frames the analysis thread read from the mapping so far. */
    long framesFromMapping() {
        return fromMapping;
    }

    /** On the analysis thread: fills the deferred frames of b[from, to), in order. */
    void fill(Batch b, int from, int to) {
        FrameFacts[] facts = b.facts;
        int[] copied = b.copied;
        for (int k = from; k < to; k++) {
            int n = copied[k];
            if (n == 0) continue;
            copied[k] = 0;
            FrameFacts f = facts[k];
            long fileOffset = f.fileOffset;
            int r = fast.fillFromHead(f, b.heads, k * HEAD, n, f.capLen, b.tails[k]);
            if (r != FastFacts.FILLED) fromMapping(f, b.dataOffsets[k], b.fcsLengths[k], r == FastFacts.DECLINED);
            f.fileOffset = fileOffset;
        }
    }

    /** As the decoding thread's decode, from the frame's bytes in the mapping (declined: known to need the dissection). */
    private void fromMapping(FrameFacts f, long dataOffset, int fcsLength, boolean declined) {
        fromMapping++;
        MemorySegment data = mapping.asSlice(dataOffset, f.capLen);
        if (!declined && fast.fill(f, data, f.number, f.timeNs, f.origLen, 1, fcsLength)) return;
        if (dissector == null) {
            dissector = new Dissector(config);
            dissection = new Dissection();
        }
        dissector.dissect(data, f.number, f.timeNs, f.origLen, 1, fcsLength, dissection);
        f.from(dissection);
    }
}

package io.metaroce.validate;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.Dissection;
import io.metaroce.protocol.Spec;
import java.util.Arrays;
import java.util.Map;

/**
 * Where the headers a stream rule's finding points at lie in the recent frames, so that a finding decided after
 * its frame has gone (the ordered message checks run behind the newest PSN, a SACK is judged against one sent
 * after it, a CE mark once its reaction window passed, a timeout retransmission once the engine's held event
 * comes) is anchored like one decided on the spot. A ring by frame number of {@link #CAPACITY} frames: a
 * few primitive columns, no object per frame, memory independent of the capture's length.
 *
 * <p>Written by the decoding thread ({@link #record}), read by the analysis thread for frames it has already
 * been handed ({@link #of}); the ring is larger than the frames the two threads can hold apart
 * ({@link AnalysisSession#FRAME_SLOTS}), and the session's hand-over of each batch orders the writes before
 * the reads.
 */
final class FrameAnchors {
    /** Frames kept: a finding about a frame further back than this (minus the frames in flight) has no anchor. */
    static final int CAPACITY = 1 << 16;
    private static final int MASK = CAPACITY - 1;
    /** Marks an empty column (the frame lacks that header). */
    private static final char NONE = Character.MAX_VALUE;
    /** Stands for the payload in a rule's list of fields. */
    static final int PAYLOAD = -1;

    /** The headers the rules' fields belong to, each with its column; -1 for headers no rule points at. */
    private final int[] columnOf = new int[Spec.HEADERS.size()];
    private final int columns;
    private final long[] frame = new long[CAPACITY];
    /** Offset of each column's header in each frame, NONE when absent; [slot * columns + column]. */
    private final char[] offset;
    private final char[] payloadOffset = new char[CAPACITY], payloadLength = new char[CAPACITY];
    /** Per rule, the fields its findings point at, in order of preference ({@link #PAYLOAD} for the payload). */
    private final Map<String, int[]> fieldsOf;

    FrameAnchors(Map<String, int[]> fieldsOf) {
        this.fieldsOf = fieldsOf;
        Arrays.fill(columnOf, -1);
        int n = 0;
        for (int[] fields : fieldsOf.values()) {
            for (int fid : fields) {
                if (fid == PAYLOAD) continue;
                int h = Spec.FIELDS.get(fid).header();
                if (columnOf[h] < 0) columnOf[h] = n++;
            }
        }
        columns = n;
        offset = new char[CAPACITY * n];
        Arrays.fill(frame, -1);
    }

    /** Notes where the headers and the payload of a dissected frame lie (decoding thread). */
    void record(Dissection d) {
        int base = begin(d.number());
        for (int i = 0, n = d.layerCount(); i < n; i++) layer(base, d.layerHeader(i), d.layerOffset(i));
        payload(d.number(), d.payloadOffset(), d.payloadLength());
    }

    /** As {@link #record(Dissection)}, for a frame given by its layers' header ids and offsets (no dissection). */
    void record(long number, int[] headers, int[] offsets, int n, int po, int pl) {
        int base = begin(number);
        for (int i = 0; i < n; i++) layer(base, headers[i], offsets[i]);
        payload(number, po, pl);
    }

    /** Takes the frame's slot and clears its header offsets; the slot's first column. */
    private int begin(long number) {
        int slot = (int) (number & MASK);
        frame[slot] = number;
        int base = slot * columns;
        Arrays.fill(offset, base, base + columns, NONE);
        return base;
    }

    private void layer(int base, int header, int off) {
        int c = columnOf[header];
        // The first occurrence of a header is the one the rules read (an inner copy would be encapsulated).
        if (c >= 0 && offset[base + c] == NONE && off < NONE) offset[base + c] = (char) off;
    }

    private void payload(long number, int po, int pl) {
        int slot = (int) (number & MASK);
        boolean payload = po >= 0 && po < NONE && pl > 0 && pl < NONE;
        payloadOffset[slot] = payload ? (char) po : NONE;
        payloadLength[slot] = payload ? (char) pl : 0;
    }

    /**
     * The bytes a finding of this rule on this frame points at: the first of the rule's fields the frame holds,
     * or null (a rule without fields, or a frame no longer in the ring).
     */
    Anchor of(long frameNumber, String rule) {
        int[] fields = fieldsOf.get(rule);
        if (fields == null || frameNumber < 0) return null;
        int slot = (int) (frameNumber & MASK);
        if (frame[slot] != frameNumber) return null;
        for (int fid : fields) {
            if (fid == PAYLOAD) {
                if (payloadOffset[slot] != NONE) return new Anchor("payload", null, payloadOffset[slot], payloadLength[slot]);
                continue;
            }
            char off = offset[slot * columns + columnOf[Spec.FIELDS.get(fid).header()]];
            if (off != NONE) return Anchor.field(fid, off);
        }
        return null;
    }
}

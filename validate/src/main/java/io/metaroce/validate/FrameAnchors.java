package io.metaroce.validate;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.Dissection;
import io.metaroce.protocol.Bth;
import io.metaroce.protocol.Eth;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.Mrth;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Udp;
import io.metaroce.protocol.Vlan;
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
    /**
     * A frame of the decoder's short cut ({@link #recordFast}): its opcode's header chain (null for a frame recorded
     * by its layers), where its IP header, BTH and MRTH (NONE under tver 0) lie and whether the IP header is IPv6.
     * Its header offsets are worked out only when a finding asks ({@link #of}), rarely: writing a column per layer
     * for every frame was a tenth of validate's decoding thread's own work under C1 (helper val, twelfth session).
     */
    private final int[][] fastChain = new int[CAPACITY][];
    private final char[] fastIp = new char[CAPACITY], fastBth = new char[CAPACITY], fastMrth = new char[CAPACITY];
    private final boolean[] fastV6 = new boolean[CAPACITY];
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

    /**
     * As {@link #record(Dissection)} for a frame of the decoder's short cut ({@link io.metaroce.analysis.FastFrame}):
     * Ethernet, VLAN tags up to ip, the IP header (IPv6 when v6) at ip, UDP, the BTH at bth, the MRTH at mrth (-1
     * under tver 0), then chain (the opcode's header chain, one array per opcode, not copied) from the end of the
     * BTH or MRTH on; the payload at po, pl bytes. Offsets below 65,535 (the short cut takes headers that lie there).
     */
    void recordFast(long number, int ip, boolean v6, int bth, int mrth, int[] chain, int po, int pl) {
        int slot = (int) (number & MASK);
        frame[slot] = number;
        fastChain[slot] = chain;
        fastIp[slot] = (char) ip;
        fastV6[slot] = v6;
        fastBth[slot] = (char) bth;
        fastMrth[slot] = mrth < 0 ? NONE : (char) mrth;
        // payload()'s work in place: this runs for nearly every frame, and the call was one more under C1.
        boolean payload = po >= 0 && po < NONE && pl > 0 && pl < NONE;
        payloadOffset[slot] = payload ? (char) po : NONE;
        payloadLength[slot] = payload ? (char) pl : 0;
    }

    /** The first offset of header h in the short cut's frame in slot, as {@link #layer} would have kept it; NONE when absent. */
    private char fastOffset(int slot, int h) {
        int ip = fastIp[slot], bth = fastBth[slot], mrth = fastMrth[slot];
        if (h == Eth.HEADER) return 0;
        if (h == Vlan.HEADER) return ip > Eth.SIZE ? (char) Eth.SIZE : NONE;
        if (h == Ip.HEADER) return fastV6[slot] ? NONE : (char) ip;
        if (h == Ipv6.HEADER) return fastV6[slot] ? (char) ip : NONE;
        if (h == Udp.HEADER) return (char) (bth - Udp.SIZE);
        if (h == Bth.HEADER) return (char) bth;
        if (h == Mrth.HEADER) return (char) mrth;
        int c = mrth != NONE ? mrth + Mrth.SIZE : bth + Bth.SIZE;
        for (int k : fastChain[slot]) {
            if (k == h) return (char) c;
            c += Spec.HEADER_SIZES[k];
        }
        return NONE;
    }

    /** Takes the frame's slot and clears its header offsets; the slot's first column. */
    private int begin(long number) {
        int slot = (int) (number & MASK);
        frame[slot] = number;
        fastChain[slot] = null;
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
            int h = Spec.FIELDS.get(fid).header();
            char off = fastChain[slot] != null ? fastOffset(slot, h) : offset[slot * columns + columnOf[h]];
            if (off != NONE) return Anchor.field(fid, off);
        }
        return null;
    }
}

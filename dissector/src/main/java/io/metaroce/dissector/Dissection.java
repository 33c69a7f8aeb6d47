package io.metaroce.dissector;

import io.metaroce.protocol.Bth;
import io.metaroce.protocol.ExpertDef;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.Severity;
import io.metaroce.protocol.Spec;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The result of dissecting one frame: where each header sits (layers), the transport facts the
 * analysis needs without re-reading (opcode, tver, payload, ICRC), and the expert items. Field values
 * are not copied out: they are read from the frame bytes through the catalogue on demand
 * ({@link FrameFields}), like a flyweight. One instance is reused frame after frame, so dissecting
 * allocates nothing on a clean frame.
 */
public final class Dissection {
    static final int MAX_LAYERS = 48;
    /** Catalogue size of each header, so that adding a layer stays a few array stores. */

    // Frame metadata.
    long number;
    long timeNanos;
    /** Times of the capture's first frame and of the frame before this one, for frame.time_relative/_delta. */
    long firstTimeNanos;
    long previousTimeNanos;
    /** Time of the previous frame the output showed (frame.time_delta_displayed), or Long.MIN_VALUE: set by the output. */
    long previousDisplayedNanos = Long.MIN_VALUE;
    long originalLength;
    int capturedLength;
    int linkType;
    int interfaceId;
    String comment;
    MemorySegment data;
    /**
     * The frame's first {@link #headLength} captured bytes, copied out of {@link #data}: at least the catalogue
     * bytes of every layer ({@link #addLayer} extends the copy). The decoder and the analysis read header fields
     * from here: a byte[] load compiles to a fraction of the code of a MemorySegment access.
     */
    byte[] head = new byte[HEAD_CHUNK];
    int headLength;
    /** Bytes copied at a time: Ethernet, IP, UDP, BTH, MRTH and the extension headers of nearly every frame. */
    private static final int HEAD_CHUNK = 128;

    // Layers: header index in Spec.HEADERS, byte offset (relative to the frame start) and byte length (the
    // header's catalogue size, or more: IPv4 options, IPv6 extension headers).
    int layerCount;
    final int[] layerHeader = new int[MAX_LAYERS];
    final int[] layerOffset = new int[MAX_LAYERS];
    final int[] layerLength = new int[MAX_LAYERS];
    /** Per header: how many layers of it and the first one's index, so field lookups are O(1). */
    final byte[] headerCount = new byte[Spec.HEADERS.size()];
    final byte[] headerFirst = new byte[Spec.HEADERS.size()];

    // Network facts.
    int ipVersion;
    int ecn = -1;

    // Transport facts (bth < 0 when the frame holds no RoCE transport packet).
    int bth = -1;
    int mrth = -1;
    int tver = -1;
    boolean spray;
    OpcodeDef opcode;
    boolean rocev1;
    int payloadOffset = -1;
    /** Payload bytes on the wire (from the UDP length), whether or not all were captured. */
    int payloadLength = -1;
    int padCount;
    boolean truncated;
    /** A tver 1 frame read with MetaRoCE switched off (--disable-protocol mrth): a BTH and data. */
    boolean metaRoceOff;
    /** Shorter than its IP length although the record says it is whole (cut by the capturing device). */
    boolean shortFrame;

    IcrcStatus icrcStatus = IcrcStatus.NONE;
    long icrcValue = -1;
    long icrcComputed = -1;
    /** Offset of the ICRC on the wire (frame-relative), -1 when the frame has none; may lie past the captured bytes. */
    int icrcOffset = -1;
    /** Offset of the Ethernet FCS in the captured bytes, -1 when none was found or announced. */
    int fcsOffset = -1;
    int fcsLength;
    /** A bad ICRC matches with this UDP source port instead (rewritten after the sender), else -1. */
    int icrcMatchingPort = -1;
    /** "good"/"bad" when the frame ends with an Ethernet FCS, else null. */
    String fcsStatus;
    long fcsValue = -1;

    final List<ExpertItem> expert = new ArrayList<>(4);
    Severity worst;

    /** Analysis results attached to the frame (analysis.* fields), set by later stages. */
    final ExtraFields extra = new ExtraFields();

    void reset() {
        for (int i = 0; i < layerCount; i++) headerCount[layerHeader[i]] = 0;
        layerCount = 0;
        ipVersion = 0;
        ecn = -1;
        bth = mrth = -1;
        tver = -1;
        spray = false;
        opcode = null;
        rocev1 = false;
        payloadOffset = payloadLength = -1;
        padCount = 0;
        truncated = false;
        metaRoceOff = false;
        shortFrame = false;
        icrcStatus = IcrcStatus.NONE;
        icrcValue = icrcComputed = -1;
        icrcOffset = fcsOffset = -1;
        fcsLength = 0;
        icrcMatchingPort = -1;
        fcsStatus = null;
        fcsValue = -1;
        expert.clear();
        worst = null;
        comment = null;
        extra.clear();
        headLength = 0;
    }

    int addLayer(int header, int offset) {
        int end = offset + Spec.HEADER_SIZES[header];
        if (end > headLength) copyHead(end);
        if (layerCount == MAX_LAYERS) return -1;
        layerHeader[layerCount] = header;
        layerOffset[layerCount] = offset;
        layerLength[layerCount] = Spec.HEADER_SIZES[header];
        if (headerCount[header]++ == 0) headerFirst[header] = (byte) layerCount;
        return layerCount++;
    }

    /**
     * Extends {@link #head} to hold at least the bytes before end (in chunks, never past the captured bytes). A
     * layer is added only once the decoder has checked its bytes are captured, so end is within the frame.
     */
    private void copyHead(int end) {
        int n = Math.min(capturedLength, Math.max(end, headLength + HEAD_CHUNK));
        if (n > head.length) head = java.util.Arrays.copyOf(head, Math.max(n, head.length * 2));
        MemorySegment.copy(data, ValueLayout.JAVA_BYTE, headLength, head, headLength, n - headLength);
        headLength = n;
    }

    /** An expert item about the whole frame. */
    void expert(ExpertDef def, String message) { expert(def, message, -1, -1, -1, 0); }

    /** An expert item about a layer (and one of its fields when field >= 0). */
    void expert(ExpertDef def, String message, int layer, int field) { expert(def, message, layer, field, -1, 0); }

    /** An expert item with its own byte range (offset relative to the frame start). */
    void expert(ExpertDef def, String message, int layer, int field, int offset, int length) {
        expert.add(new ExpertItem(def, message, layer, field, offset, length));
        Severity severity = def.severity();
        if (worst == null || severity.compareTo(worst) > 0) worst = severity;
    }

    // ------------------------------------------------------------------ read access

    public long number() { return number; }
    public long timeNanos() { return timeNanos; }
    public long firstTimeNanos() { return firstTimeNanos; }
    public long previousTimeNanos() { return previousTimeNanos; }
    /** Set by an output that shows frames in order, before it prints this frame (frame.time_delta_displayed). */
    public void previousDisplayedNanos(long nanos) { previousDisplayedNanos = nanos; }
    public long originalLength() { return originalLength; }
    public int capturedLength() { return capturedLength; }
    public int linkType() { return linkType; }
    public int interfaceId() { return interfaceId; }
    public String comment() { return comment; }
    /** The captured bytes of the frame (valid while the capture is open). */
    public MemorySegment data() { return data; }
    /**
     * A copy of the frame's first captured bytes that holds at least every layer's header (its catalogue size
     * from {@link #layerOffset}): read header fields from here with the flyweights' byte[] getters. Reused by the
     * next frame; bytes past the layers' headers are not part of the contract.
     */
    public byte[] head() { return head; }

    public int layerCount() { return layerCount; }
    public HeaderDef layer(int i) { return Spec.HEADERS.get(layerHeader[i]); }
    public int layerHeader(int i) { return layerHeader[i]; }
    public int layerOffset(int i) { return layerOffset[i]; }
    /**
     * Bytes of layer i: the header's size, plus its options (IPv4) or extension headers (IPv6). Headers carried
     * inside another header's field (CM private data) lie inside that header's range.
     */
    public int layerLength(int i) { return layerLength[i]; }
    /** Frame-relative byte after layer i. */
    public int layerEnd(int i) { return layerOffset[i] + layerLength[i]; }

    /** Index of the first layer with this header, or -1. */
    public int findLayer(int header) {
        return headerCount[header] == 0 ? -1 : headerFirst[header];
    }

    /** Offset of the first layer with this header, or -1. */
    public int offsetOf(int header) {
        int i = findLayer(header);
        return i < 0 ? -1 : layerOffset[i];
    }

    public boolean hasLayer(int header) { return findLayer(header) >= 0; }

    /** Reads a numeric field from the first layer of its header; def when the header is absent. */
    public long get(int fieldId, long def) {
        FieldDef f = Spec.FIELDS.get(fieldId);
        int off = offsetOf(f.header());
        return off < 0 ? def : f.readLong(data, off);
    }

    public int ipVersion() { return ipVersion; }
    /** IP ECN codepoint (3 = CE), or -1. */
    public int ecn() { return ecn; }

    public boolean isRoce() { return bth >= 0; }
    public boolean isRoceV1() { return rocev1; }
    public int tver() { return tver; }
    public boolean hasMrth() { return mrth >= 0; }
    public boolean spray() { return spray; }
    /** The opcode's catalogue entry, or null when undefined for the frame's tver. */
    public OpcodeDef opcode() { return opcode; }
    public int bthOffset() { return bth < 0 ? -1 : layerOffset[bth]; }
    public int mrthOffset() { return mrth < 0 ? -1 : layerOffset[mrth]; }
    public int opcodeValue() { return bth < 0 ? -1 : Bth.opcode(data, layerOffset[bth]); }
    public long destQp() { return bth < 0 ? -1 : Bth.destQp(data, layerOffset[bth]); }
    public int psn() { return bth < 0 ? -1 : Bth.psn(data, layerOffset[bth]); }
    public int payloadOffset() { return payloadOffset; }
    public int payloadLength() { return payloadLength; }
    public int padCount() { return padCount; }
    /** The frame was cut by the snap length before the end of its transport packet. */
    public boolean truncated() { return truncated; }

    /** A tver 1 frame read with MetaRoCE switched off: a BTH and data, shown as RoCEv2. */
    public boolean metaRoceOff() { return metaRoceOff; }

    public IcrcStatus icrcStatus() { return icrcStatus; }
    public long icrcValue() { return icrcValue; }
    public long icrcComputed() { return icrcComputed; }
    /** Frame-relative offset of the 4 ICRC bytes, or -1; past {@link #capturedLength()} when the snap length cut them. */
    public int icrcOffset() { return icrcOffset; }
    /** Frame-relative offset of the Ethernet FCS in the captured bytes, or -1. */
    public int fcsOffset() { return fcsOffset; }
    /** Bytes of Ethernet FCS at {@link #fcsOffset()} (4), or 0. */
    public int fcsLength() { return fcsLength; }
    /** The UDP source port with which a bad ICRC matches (the port was rewritten after the sender), or -1. */
    public int icrcMatchingPort() { return icrcMatchingPort; }
    /** Shorter than its IP length while the capture record says it is whole: the capturing device cut it. */
    public boolean shortFrame() { return shortFrame; }
    public String fcsStatus() { return fcsStatus; }

    public List<ExpertItem> expert() { return expert; }
    /** Highest expert severity, or null. */
    public Severity worstSeverity() { return worst; }
    public ExtraFields extra() { return extra; }

    /** Protocol stack as tshark's frame.protocols: "eth:vlan:ip:udp:bth:reth". */
    public String protocols() {
        StringBuilder b = new StringBuilder(48);
        for (int i = 0; i < layerCount; i++) {
            if (i > 0) b.append(':');
            b.append(Spec.HEADERS.get(layerHeader[i]).id());
        }
        return b.toString();
    }
}

package io.metaroce.dissector;

import io.metaroce.filter.FieldAccessor;
import io.metaroce.filter.FilterField;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Spec;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Field values of one dissected frame, read on demand: wire fields from the frame bytes through the
 * catalogue, computed fields (frame.*, payload.*, icrc.*, eth_fcs.*) from the dissection, analysis
 * fields from its extra values. Backs -T json/fields/text output and display filters alike.
 */
public final class FrameFields implements FieldAccessor {
    private static final int H_FRAME = header("frame"), H_PAYLOAD = header("payload"), H_ICRC = header("icrc"),
            H_FCS = header("eth_fcs");
    // Computed fields by id, resolved once (a string switch per value would hash the name every time).
    private static final int FRAME_NUMBER = id("frame.number"), FRAME_TIME = id("frame.time_ns"), FRAME_LEN = id("frame.len"),
            FRAME_CAP_LEN = id("frame.cap_len"), FRAME_INTERFACE = id("frame.interface_id"), FRAME_PROTOCOLS = id("frame.protocols"),
            FRAME_COMMENT = id("frame.comment"), PAYLOAD_LEN = id("payload.len"), PAYLOAD_PAD = id("payload.pad"),
            PAYLOAD_DATA = id("payload.data"), ICRC_VALUE = id("icrc.value"), ICRC_COMPUTED = id("icrc.computed"),
            ICRC_STATUS = id("icrc.status"), FCS_VALUE = id("eth_fcs.value"), FCS_STATUS = id("eth_fcs.status"),
            ICRC_WIRE = id("icrc.wire"), TIME_EPOCH = id("frame.time_epoch"), TIME_RELATIVE = id("frame.time_relative"),
            TIME_DELTA = id("frame.time_delta"), TIME_DELTA_DISPLAYED = id("frame.time_delta_displayed");
    /** Per field id: the fields it is either of (ip.addr: ip.src, ip.dst), or null. */
    private static final FieldDef[][] EITHER = new FieldDef[Spec.FIELDS.size()][];

    static {
        for (var e : Spec.EITHER.entrySet()) {
            FieldDef[] parts = new FieldDef[e.getValue().length];
            for (int i = 0; i < parts.length; i++) parts[i] = Spec.FIELDS.get(e.getValue()[i]);
            EITHER[e.getKey()] = parts;
        }
    }
    private Dissection d;

    private static int id(String name) {
        for (FieldDef f : Spec.FIELDS) if (f.name().equals(name)) return f.id();
        throw new IllegalStateException("catalogue has no " + name);
    }

    private static final boolean[] PSEUDO = new boolean[Spec.HEADERS.size()];

    static {
        for (HeaderDef h : Spec.HEADERS) PSEUDO[h.index()] = h.pseudo();
    }

    private static int header(String id) {
        for (HeaderDef h : Spec.HEADERS) if (h.id().equals(id)) return h.index();
        throw new IllegalStateException("catalogue has no " + id);
    }

    public FrameFields of(Dissection dissection) {
        this.d = dissection;
        return this;
    }

    public Dissection dissection() { return d; }

    /** Number of occurrences of f in this frame. */
    public int count(FieldDef f) {
        int header = f.header();
        if (EITHER[f.id()] != null) return d.headerCount[header] * EITHER[f.id()].length;
        if (!PSEUDO[header]) return d.headerCount[header];
        if (header == H_FRAME) return f.id() == FRAME_COMMENT ? (d.comment == null ? 0 : 1) : 1;
        if (header == H_PAYLOAD) return d.payloadOffset >= 0 && (f.id() != PAYLOAD_DATA || payloadCaptured() >= 0) ? 1 : 0;
        if (header == H_ICRC) {
            if (d.icrcStatus == IcrcStatus.NONE) return 0;
            if (f.id() == ICRC_VALUE || f.id() == ICRC_WIRE) return d.icrcValue >= 0 ? 1 : 0;
            if (f.id() == ICRC_COMPUTED) return d.icrcComputed >= 0 ? 1 : 0;
            return 1;
        }
        if (f.header() == H_FCS) return d.fcsStatus == null ? 0 : 1;
        int n = 0;
        for (int i = 0; i < d.extra.size(); i++) if (d.extra.field(i) == f) n++;
        return n;
    }

    /** Offset of the i-th layer of f's header. */
    private int layerOffset(FieldDef f, int occurrence) {
        if (occurrence == 0 && d.headerCount[f.header()] > 0) return d.layerOffset[d.headerFirst[f.header()]];
        int n = 0;
        for (int i = 0; i < d.layerCount; i++) {
            if (d.layerHeader[i] == f.header() && n++ == occurrence) return d.layerOffset[i];
        }
        throw new IndexOutOfBoundsException(f.name() + " occurrence " + occurrence);
    }

    /** Numeric value (UINT, BOOL as 0/1, IPV4, ETHER). */
    public long longValue(FieldDef f, int occurrence) {
        FieldDef[] parts = EITHER[f.id()];
        // Occurrences of an either-field: src and dst of the first header, then of the second (tshark's order).
        if (parts != null) return longValue(parts[occurrence % parts.length], occurrence / parts.length);
        if (!PSEUDO[f.header()]) return f.readLong(d.data, layerOffset(f, occurrence));
        int id = f.id();
        if (id == TIME_EPOCH) return d.timeNanos;
        if (id == TIME_RELATIVE) return d.timeNanos - d.firstTimeNanos;
        if (id == TIME_DELTA) return d.timeNanos - d.previousTimeNanos;
        if (id == TIME_DELTA_DISPLAYED) return d.previousDisplayedNanos == Long.MIN_VALUE ? 0 : d.timeNanos - d.previousDisplayedNanos;
        if (id == ICRC_WIRE) return Integer.reverseBytes((int) d.icrcValue) & 0xFFFFFFFFL;
        if (id == FRAME_NUMBER) return d.number;
        if (id == FRAME_TIME) return d.timeNanos;
        if (id == FRAME_LEN) return d.originalLength;
        if (id == FRAME_CAP_LEN) return d.capturedLength;
        if (id == FRAME_INTERFACE) return d.interfaceId;
        if (id == PAYLOAD_LEN) return d.payloadLength;
        if (id == PAYLOAD_PAD) return d.padCount;
        if (id == ICRC_VALUE) return d.icrcValue;
        if (id == ICRC_COMPUTED) return d.icrcComputed;
        if (id == FCS_VALUE) return d.fcsValue;
        return extra(f, occurrence, true) instanceof Long l ? l : 0;
    }

    public String stringValue(FieldDef f, int occurrence) {
        FieldDef[] parts = EITHER[f.id()];
        if (parts != null) return String.valueOf(value(parts[occurrence % parts.length], occurrence / parts.length));
        int id = f.id();
        if (id == FRAME_PROTOCOLS) return d.protocols();
        if (id == FRAME_COMMENT) return d.comment;
        if (id == ICRC_STATUS) return d.icrcStatus.label();
        if (id == FCS_STATUS) return d.fcsStatus;
        return (String) extra(f, occurrence, false);
    }

    /** Bytes of an IPV6 or BYTES field; payload.data is the captured part of the payload. */
    public MemorySegment segment(FieldDef f, int occurrence) {
        FieldDef[] parts = EITHER[f.id()];
        if (parts != null) return segment(parts[occurrence % parts.length], occurrence / parts.length);
        if (f.id() == PAYLOAD_DATA) return d.data.asSlice(d.payloadOffset, Math.max(0, payloadCaptured()));
        return f.slice(d.data, layerOffset(f, occurrence));
    }

    private int payloadCaptured() {
        return d.payloadOffset < 0 ? -1 : Math.min(d.payloadLength, d.capturedLength - d.payloadOffset);
    }

    private Object extra(FieldDef f, int occurrence, boolean numeric) {
        int n = 0;
        for (int i = 0; i < d.extra.size(); i++) {
            if (d.extra.field(i) == f && n++ == occurrence) return numeric ? (Object) d.extra.longValue(i) : d.extra.stringValue(i);
        }
        return null;
    }

    /** The value boxed for printing: Long, Boolean, String (addresses formatted), or MemorySegment. */
    public Object value(FieldDef f, int occurrence) {
        return switch (f.type()) {
            case UINT, TIME -> longValue(f, occurrence);
            case BOOL -> longValue(f, occurrence) != 0;
            case IPV4 -> Addresses.ipv4((int) longValue(f, occurrence));
            case ETHER -> Addresses.mac(longValue(f, occurrence));
            case IPV6 -> Addresses.ipv6(segment(f, occurrence));
            case BYTES -> segment(f, occurrence);
            case STRING -> stringValue(f, occurrence);
        };
    }

    // ------------------------------------------------------------------ FieldAccessor (display filters)

    @Override
    public int count(FilterField f) {
        if (f.id() < 0) {
            int header = FieldCatalog.headerOfProtocolId(f.id());
            return header == H_FRAME ? 1 : d.headerCount[header];
        }
        return count(Spec.FIELDS.get(f.id()));
    }

    /**
     * A protocol's bytes, as Wireshark's byte range of it: the frame for frame; from an encapsulation header (§1: eth,
     * vlan, ip, udp, ...) or BTH (tshark's infiniband) to the end of the frame, before an Ethernet FCS; a fixed
     * header's own bytes otherwise (reth, aeth, ...).
     */
    private MemorySegment protocolBytes(int header, int occurrence) {
        int end = d.capturedLength - (d.fcsStatus != null ? 4 : 0);
        if (header == H_FRAME) return d.data.asSlice(0, d.capturedLength);
        HeaderDef h = Spec.HEADERS.get(header);
        int n = 0;
        for (int i = 0; i < d.layerCount; i++) {
            if (d.layerHeader[i] != header || n++ != occurrence) continue;
            int from = d.layerOffset[i];
            int to = "§1".equals(h.section()) || h.id().equals("bth") ? end : Math.min(d.capturedLength, from + h.size());
            return d.data.asSlice(from, Math.max(0, to - from));
        }
        return MemorySegment.NULL;
    }

    @Override
    public long asLong(FilterField f, int i) { return longValue(Spec.FIELDS.get(f.id()), i); }

    @Override
    public byte[] asBytes(FilterField f, int i) {
        if (f.id() < 0) return protocolBytes(FieldCatalog.headerOfProtocolId(f.id()), i).toArray(ValueLayout.JAVA_BYTE);
        return segment(Spec.FIELDS.get(f.id()), i).toArray(ValueLayout.JAVA_BYTE);
    }

    @Override
    public String asString(FilterField f, int i) { return stringValue(Spec.FIELDS.get(f.id()), i); }
}

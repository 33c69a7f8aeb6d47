package io.metaroce.dissector;

import io.metaroce.filter.FieldAccessor;
import io.metaroce.filter.FilterField;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.ValueType;
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
    private Dissection d;

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
        HeaderDef h = Spec.HEADERS.get(f.header());
        if (!h.pseudo()) {
            int n = 0;
            for (int i = 0; i < d.layerCount; i++) if (d.layerHeader[i] == f.header()) n++;
            return n;
        }
        if (f.header() == H_FRAME) return f.name().equals("frame.comment") ? (d.comment == null ? 0 : 1) : 1;
        if (f.header() == H_PAYLOAD) return d.payloadOffset >= 0 && (!f.name().equals("payload.data") || payloadCaptured() >= 0) ? 1 : 0;
        if (f.header() == H_ICRC) {
            if (d.icrcStatus == IcrcStatus.NONE) return 0;
            if (f.name().equals("icrc.value")) return d.icrcValue >= 0 ? 1 : 0;
            if (f.name().equals("icrc.computed")) return d.icrcComputed >= 0 ? 1 : 0;
            return 1;
        }
        if (f.header() == H_FCS) return d.fcsStatus == null ? 0 : 1;
        int n = 0;
        for (int i = 0; i < d.extra.size(); i++) if (d.extra.field(i) == f) n++;
        return n;
    }

    /** Offset of the i-th layer of f's header. */
    private int layerOffset(FieldDef f, int occurrence) {
        int n = 0;
        for (int i = 0; i < d.layerCount; i++) {
            if (d.layerHeader[i] == f.header() && n++ == occurrence) return d.layerOffset[i];
        }
        throw new IndexOutOfBoundsException(f.name() + " occurrence " + occurrence);
    }

    /** Numeric value (UINT, BOOL as 0/1, IPV4, ETHER). */
    public long longValue(FieldDef f, int occurrence) {
        HeaderDef h = Spec.HEADERS.get(f.header());
        if (!h.pseudo()) return f.readLong(d.data, layerOffset(f, occurrence));
        return switch (f.name()) {
            case "frame.number" -> d.number;
            case "frame.time_ns" -> d.timeNanos;
            case "frame.len" -> d.originalLength;
            case "frame.cap_len" -> d.capturedLength;
            case "frame.interface_id" -> d.interfaceId;
            case "payload.len" -> d.payloadLength;
            case "payload.pad" -> d.padCount;
            case "icrc.value" -> d.icrcValue;
            case "icrc.computed" -> d.icrcComputed;
            case "eth_fcs.value" -> d.fcsValue;
            default -> extra(f, occurrence, true) instanceof Long l ? l : 0;
        };
    }

    public String stringValue(FieldDef f, int occurrence) {
        return switch (f.name()) {
            case "frame.protocols" -> d.protocols();
            case "frame.comment" -> d.comment;
            case "icrc.status" -> d.icrcStatus.label();
            case "eth_fcs.status" -> d.fcsStatus;
            default -> (String) extra(f, occurrence, false);
        };
    }

    /** Bytes of an IPV6 or BYTES field; payload.data is the captured part of the payload. */
    public MemorySegment segment(FieldDef f, int occurrence) {
        if (f.name().equals("payload.data")) return d.data.asSlice(d.payloadOffset, Math.max(0, payloadCaptured()));
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
            case UINT -> longValue(f, occurrence);
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
        if (f.id() < 0) return d.hasLayer(FieldCatalog.headerOfProtocolId(f.id())) ? 1 : 0;
        return count(Spec.FIELDS.get(f.id()));
    }

    @Override
    public long asLong(FilterField f, int i) { return longValue(Spec.FIELDS.get(f.id()), i); }

    @Override
    public byte[] asBytes(FilterField f, int i) {
        return segment(Spec.FIELDS.get(f.id()), i).toArray(ValueLayout.JAVA_BYTE);
    }

    @Override
    public String asString(FilterField f, int i) { return stringValue(Spec.FIELDS.get(f.id()), i); }

    static boolean isNumeric(ValueType t) { return t == ValueType.UINT || t == ValueType.BOOL; }
}

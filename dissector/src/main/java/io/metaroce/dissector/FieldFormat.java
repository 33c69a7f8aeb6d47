package io.metaroce.dissector;

import io.metaroce.protocol.EnumValueDef;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.ValueType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** How field values are printed: JSON values, tshark-style -T fields text, and -V tree text. */
public final class FieldFormat {
    private FieldFormat() {}

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'}, FALSE = {'f', 'a', 'l', 's', 'e'};

    /**
     * Writes the value as JSON: numbers as numbers, booleans, addresses and strings as strings, bytes as hex.
     * The common types are written straight into the buffer, without a String (dissect -T jsonl: ~40 values a frame).
     */
    public static void json(ByteOut out, FrameFields ff, FieldDef f, int i) {
        switch (f.type()) {
            case UINT -> out.jsonNum(ff.longValue(f, i), true);
            case TIME -> out.seconds(ff.longValue(f, i));
            case BOOL -> out.bytes(ff.longValue(f, i) != 0 ? TRUE : FALSE);
            case IPV4 -> out.ch('"').ipv4((int) ff.longValue(f, i)).ch('"');
            case ETHER -> out.ch('"').mac(ff.longValue(f, i)).ch('"');
            case BYTES -> hex(out.ch('"'), ff.segment(f, i)).ch('"');
            case STRING -> {
                String s = ff.stringValue(f, i);
                if (s == null) out.ascii("null");
                else out.json(s);
            }
            default -> out.json(String.valueOf(ff.value(f, i)));
        }
    }

    /**
     * -T fields text under a Wireshark name: tshark's base and hex width for that name ("dec", "hexN"), which
     * can differ from ours (infiniband.bth.opcode is decimal in tshark); null means as {@link #plain}.
     */
    public static void tshark(ByteOut out, FrameFields ff, FieldDef f, int i, String display) {
        if (display == null || !(f.type() == io.metaroce.protocol.ValueType.UINT || f.type() == io.metaroce.protocol.ValueType.BOOL)) {
            plain(out, ff, f, i);
            return;
        }
        long v = ff.longValue(f, i);
        if (display.equals("dec")) out.num(v);
        else out.ascii("0x").hex(v, Integer.parseInt(display.substring(3)));
    }

    /**
     * One -T fields column of a frame: every occurrence of f in tshark's text ({@link #tshark}), joined by
     * aggregator (tshark's default ","); nothing when the frame has none. The GUI's custom columns print the same.
     */
    public static void occurrences(ByteOut out, FrameFields ff, FieldDef f, String display, String aggregator) {
        int n = ff.count(f);
        for (int k = 0; k < n; k++) {
            if (k > 0) out.str(aggregator);
            tshark(out, ff, f, k, display);
        }
    }

    /** Nanoseconds as seconds with 9 decimals, as tshark prints frame.time_relative. */
    public static String seconds(long ns) {
        long a = Math.abs(ns);
        return (ns < 0 ? "-" : "") + a / 1_000_000_000L + "." + String.format("%09d", a % 1_000_000_000L);
    }

    /** -T fields text: hex-displayed numbers as 0x..., booleans as 1/0 (as tshark prints them). */
    public static void plain(ByteOut out, FrameFields ff, FieldDef f, int i) {
        switch (f.type()) {
            case TIME -> out.seconds(ff.longValue(f, i));
            case UINT -> {
                long v = ff.longValue(f, i);
                if (f.display() == io.metaroce.protocol.Display.HEX) out.ascii("0x").hex(v, hexWidth(f));
                else out.num(v);
            }
            case BOOL -> out.ch(ff.longValue(f, i) != 0 ? '1' : '0');
            case IPV4 -> out.ipv4((int) ff.longValue(f, i));
            case ETHER -> out.mac(ff.longValue(f, i));
            case BYTES -> hex(out, ff.segment(f, i));
            case STRING -> {
                String s = ff.stringValue(f, i);
                if (s != null) out.str(s);
            }
            default -> out.ascii(String.valueOf(ff.value(f, i)));
        }
    }

    /** -V tree text: "Label: value", enums as "name (0x..)". */
    public static String display(FrameFields ff, FieldDef f, int i) {
        return switch (f.type()) {
            case UINT, BOOL, TIME -> display(f, ff.longValue(f, i));
            case BYTES -> display(ff.segment(f, i));
            default -> String.valueOf(ff.value(f, i));
        };
    }

    /**
     * -V tree text of a numeric field's value, however it was read (flyweight or Kaitai): enums as "name (0x..)",
     * booleans as True/False, addresses as addresses.
     */
    public static String display(FieldDef f, long v) {
        return switch (f.type()) {
            case UINT -> {
                String num = f.display() == io.metaroce.protocol.Display.HEX
                        ? "0x" + pad(Long.toHexString(v), hexWidth(f)) : Long.toUnsignedString(v);
                EnumValueDef e = f.enumDef() == null ? null : f.enumDef().of(v);
                yield e == null ? num : e.label() + " (" + num + ")";
            }
            case BOOL -> v != 0 ? "True" : "False";
            case TIME -> seconds(v) + " seconds";
            case IPV4 -> Addresses.ipv4((int) v);
            case ETHER -> Addresses.mac(v);
            default -> Long.toString(v);
        };
    }

    /** -V tree text of a bytes field: hex, the first 32 bytes and the length beyond that. */
    public static String display(MemorySegment s) {
        StringBuilder b = new StringBuilder();
        int n = (int) Math.min(s.byteSize(), 32);
        for (int k = 0; k < n; k++) b.append(String.format("%02x", s.get(ValueLayout.JAVA_BYTE, k) & 0xFF));
        if (s.byteSize() > n) b.append("... (").append(s.byteSize()).append(" bytes)");
        return b.toString();
    }

    public static int hexWidth(FieldDef f) {
        if (f.isSubfield()) return (Long.bitCount(f.mask()) + 3) / 4;
        return f.bitWidth() > 0 ? (f.bitWidth() + 3) / 4 : 8;
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
    }

    private static ByteOut hex(ByteOut out, MemorySegment s) {
        for (long k = 0; k < s.byteSize(); k++) out.hexByte(s.get(ValueLayout.JAVA_BYTE, k));
        return out;
    }
}

package io.metaroce.spec;

import java.util.List;
import java.util.Map;

/**
 * The machine-readable MetaRoCE spec (spec-ksy/metaroce-v1.yaml) as plain records. Everything the
 * generators emit is derived from these records; nothing here knows about Kaitai or Java output.
 */
public final class SpecModel {
    private SpecModel() {}

    public record Spec(Meta meta, List<Header> headers, List<Header> pseudo, Map<String, EnumDef> enums,
                       List<Transport> transports, List<Operation> operations, List<Special> specials,
                       List<OpcodeRange> ranges, List<Rule> rules, List<Expert> expert, Map<String, String> wsUnmapped) {
        public Header header(String id) {
            for (Header h : headers) if (h.id().equals(id)) return h;
            throw new SpecException("unknown header '" + id + "'");
        }
    }

    public record Meta(String id, String title, String version, String license, String ksVersion, String spec,
                       int rocePort, int roceV1EtherType) {}

    /** A header laid out on the wire (pseudo = false) or a group of computed values (pseudo = true). */
    public record Header(String id, String title, String origId, String section, String doc, List<Field> fields,
                         boolean pseudo, List<String> ws) {
        public int sizeBits() {
            int n = 0;
            for (Field f : fields) n += f.bits();
            return n;
        }
        public int size() { return sizeBits() / 8; }
    }

    /**
     * One field. bitOffset counts from the first (most significant) bit of its header. type is one of
     * uint, bool, ipv4, ipv6, ether, bytes, string, time (computed: signed nanoseconds, printed as seconds).
     * wsDisplay: how tshark prints the field under its Wireshark names when that differs from display
     * ("dec", or "hexN" for N hex digits). Computed fields only: name (the full filter name, when it is not
     * header.id), either (one occurrence per listed field, as Wireshark's ip.addr is ip.src or ip.dst),
     * bitsOf (adjacent fields read as one number, as ipv6.tclass is dscp and ecn).
     */
    public record Field(String id, String origId, int bits, int bitOffset, String type, String display,
                        String enumName, String label, String doc, List<String> ws, boolean reserved,
                        List<SubField> subfields, List<Carry> carries, boolean icrcVariant, String name,
                        String wsDisplay, List<String> either, List<String> bitsOf) {
        public int byteOffset() { return bitOffset / 8; }
        /** The filter name in a header with this id. */
        public String fullName(String headerId) { return name != null ? name : headerId + "." + id; }
    }

    /** A header carried inside a bytes field at a byte offset, optionally only when one of its fields has a value. */
    public record Carry(String header, int at, String whenField, Long whenEquals) {}

    /** A masked part of a field (Wireshark's bitmask fields), e.g. aeth.syndrome.kind. */
    public record SubField(String id, long mask, String enumName, String label, String doc, List<String> ws) {
        public int shift() { return Long.numberOfTrailingZeros(mask); }
        public int width() { return Long.bitCount(mask); }
    }

    public record EnumDef(String id, List<EnumValue> values) {}

    public record EnumValue(long value, String id, String label, Map<String, Object> extra) {}

    public record Transport(String id, int base, String label, String service, List<String> requestPrefix,
                            List<String> responsePrefix) {}

    public record Operation(int code, String id, String label, List<String> in, String role, String family,
                            String segment, List<String> headers, List<String> sprayHeaders, boolean payload,
                            int payloadBytes) {}

    public record Special(int code, String id, String label, List<Integer> tver, String role, String family,
                          List<String> headers, boolean payload, String psn, String doc) {}

    public record OpcodeRange(int from, int to, String id, String label, String severity, String message,
                              List<Integer> tver, String expert) {}

    /** kind: "conformance" (a rule of the protocol) or "diagnosis" (an operator finding about a host or QP). */
    public record Rule(String id, String severity, String section, String taps, String text, String kind) {}

    /**
     * An expert item kind (Wireshark's ei[] entry): stable id such as {@code icrc.bad}, group, severity, a
     * one-line summary, and the rule of §11 it is evidence for (or null).
     */
    public record Expert(String id, String group, String severity, String summary, String rule) {}

    /**
     * One row of the expanded opcode table: an opcode as it is valid under one transport version.
     * chain = the headers after BTH (and MRTH); sprayChain = the chain when MRTH.spray is set, or null.
     */
    public record Opcode(int code, String id, String label, String transport, String service, String role,
                         String family, String segment, List<String> chain, List<String> sprayChain,
                         boolean payload, int payloadBytes, String psnRule, List<Integer> tver) {}
}

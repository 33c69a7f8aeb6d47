package io.metaroce.spec;

import io.metaroce.spec.SpecModel.Carry;
import io.metaroce.spec.SpecModel.EnumDef;
import io.metaroce.spec.SpecModel.EnumValue;
import io.metaroce.spec.SpecModel.Field;
import io.metaroce.spec.SpecModel.Header;
import io.metaroce.spec.SpecModel.Opcode;
import io.metaroce.spec.SpecModel.Spec;
import io.metaroce.spec.SpecModel.SubField;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Emits Kaitai Struct .ksy files in the style of the Kaitai format gallery: one file per header
 * (meta id/title/license/ks-version/endian, doc, doc-ref, -orig-id), plus three entry points:
 * roce_transport (UDP payload of port 4791: BTH, MRTH, the opcode's header chain, payload, ICRC),
 * mad_packet (CM MADs on QP 1) and roce_frame (Ethernet to ICRC).
 */
public final class KsyEmitter {
    private static final String GENERATED =
            "# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.\n";
    private final Spec spec;

    public KsyEmitter(Spec spec) { this.spec = spec; }

    /** File name -> content, in a stable order. */
    public Map<String, String> emit() {
        Map<String, String> files = new LinkedHashMap<>();
        for (Header h : spec.headers()) files.put(h.id() + ".ksy", header(h));
        files.put("roce_transport.ksy", transport());
        files.put("mad_packet.ksy", madPacket());
        files.put("roce_frame.ksy", frame());
        return files;
    }

    private String docRef(String section) {
        return spec.meta().spec() + (section == null ? "" : " " + section) + " (" + spec.meta().version() + ")";
    }

    private void meta(StringBuilder b, String id, String title, List<String> imports) {
        b.append(GENERATED);
        b.append("meta:\n");
        b.append("  id: ").append(id).append('\n');
        b.append("  title: ").append(q(title)).append('\n');
        b.append("  license: ").append(spec.meta().license()).append('\n');
        b.append("  ks-version: '").append(spec.meta().ksVersion()).append("'\n");
        if (!imports.isEmpty()) {
            b.append("  imports:\n");
            for (String i : imports) b.append("    - ").append(i).append('\n');
        }
        b.append("  endian: be\n");
        b.append("  bit-endian: be\n");
    }

    private String header(Header h) {
        StringBuilder b = new StringBuilder();
        List<String> imports = new ArrayList<>();
        for (Field f : h.fields()) for (Carry c : f.carries()) if (!imports.contains(c.header())) imports.add(c.header());
        meta(b, h.id(), h.title(), imports);
        doc(b, "", h.doc() != null ? h.doc() : h.title() + ".");
        b.append("doc-ref: ").append(q(docRef(h.section()))).append('\n');
        b.append("seq:\n");
        for (Field f : h.fields()) {
            b.append("  - id: ").append(f.id()).append('\n');
            if (f.origId() != null) b.append("    -orig-id: ").append(q(f.origId())).append('\n');
            String t = ksyType(f);
            if (t.startsWith("size:")) b.append("    ").append(t).append('\n');
            else b.append("    type: ").append(t).append('\n');
            doc(b, "    ", f.label() + (f.doc() != null ? ": " + f.doc() : "")
                    + (f.reserved() ? " (reserved, must be 0)" : ""));
        }
        Set<String> enums = new LinkedHashSet<>();
        StringBuilder inst = new StringBuilder();
        for (Field f : h.fields()) {
            if (f.enumName() != null) {
                enums.add(f.enumName());
                inst.append("  ").append(f.id()).append("_enum:\n");
                inst.append("    value: ").append(f.id()).append('\n');
                inst.append("    enum: ").append(f.enumName()).append('\n');
            }
            for (SubField s : f.subfields()) {
                inst.append("  ").append(f.id()).append('_').append(s.id()).append(":\n");
                inst.append("    value: '(").append(f.id()).append(" & 0x").append(Long.toHexString(s.mask()).toUpperCase())
                        .append(") >> ").append(s.shift()).append("'\n");
                doc(inst, "    ", s.label() + (s.doc() != null ? ": " + s.doc() : ""));
                if (s.enumName() != null) {
                    enums.add(s.enumName());
                    inst.append("  ").append(f.id()).append('_').append(s.id()).append("_enum:\n");
                    inst.append("    value: ").append(f.id()).append('_').append(s.id()).append('\n');
                    inst.append("    enum: ").append(s.enumName()).append('\n');
                }
            }
            for (Carry c : f.carries()) {
                Header carried = spec.header(c.header());
                if (c.whenField() != null) {
                    Field w = carried.fields().stream().filter(x -> x.id().equals(c.whenField())).findFirst()
                            .orElseThrow(() -> new SpecException(c.header() + " has no field " + c.whenField()));
                    inst.append("  ").append(c.header()).append('_').append(w.id()).append(":\n");
                    inst.append("    pos: ").append(f.byteOffset() + c.at() + w.byteOffset()).append('\n');
                    inst.append("    type: ").append(ksyType(w)).append('\n');
                }
                inst.append("  ").append(c.header()).append(":\n");
                inst.append("    pos: ").append(f.byteOffset() + c.at()).append('\n');
                inst.append("    type: ").append(c.header()).append('\n');
                if (c.whenField() != null)
                    inst.append("    if: ").append(c.header()).append('_').append(c.whenField())
                            .append(" == 0x").append(Long.toHexString(c.whenEquals()).toUpperCase()).append('\n');
                doc(inst, "    ", spec.header(c.header()).title() + ", carried in " + f.id() + " at byte " + c.at());
            }
        }
        if (!inst.isEmpty()) b.append("instances:\n").append(inst);
        if (!enums.isEmpty()) {
            b.append("enums:\n");
            for (String e : enums) enumBlock(b, e.equals("opcode") ? opcodeEnum() : spec.enums().get(e));
        }
        return b.toString();
    }

    private EnumDef opcodeEnum() {
        Map<Integer, EnumValue> byCode = new TreeMap<>();
        for (Opcode op : SpecLoader.expandOpcodes(spec))
            byCode.putIfAbsent(op.code(), new EnumValue(op.code(), op.id(), op.label(), Map.of()));
        return new EnumDef("opcode", List.copyOf(byCode.values()));
    }

    private static void enumBlock(StringBuilder b, EnumDef e) {
        b.append("  ").append(e.id()).append(":\n");
        for (EnumValue v : e.values()) {
            b.append("    0x").append(String.format("%02X", v.value())).append(":\n");
            b.append("      id: ").append(v.id()).append('\n');
            b.append("      doc: ").append(q(v.label())).append('\n');
        }
    }

    static String ksyType(Field f) {
        boolean aligned = f.bitOffset() % 8 == 0;
        return switch (f.type()) {
            case "bool" -> "b1";
            case "ipv6", "bytes" -> "size: " + f.bits() / 8;
            default -> aligned && (f.bits() == 8 || f.bits() == 16 || f.bits() == 32 || f.bits() == 64)
                    ? "u" + f.bits() / 8 : "b" + f.bits();
        };
    }

    /** Header chains keyed the way roce_transport switches: opcode, 256 + opcode (tver 1), 512 + opcode (tver 1, spray). */
    private Map<Integer, List<String>> chains() {
        Map<Integer, List<String>> keys = new TreeMap<>();
        for (Opcode op : SpecLoader.expandOpcodes(spec)) {
            if (op.tver().contains(0)) keys.put(op.code(), op.chain());
            if (op.tver().contains(1)) {
                keys.put(256 + op.code(), op.chain());
                keys.put(512 + op.code(), op.sprayChain() != null ? op.sprayChain() : op.chain());
            }
        }
        keys.values().removeIf(List::isEmpty);
        return keys;
    }

    private static String chainType(List<String> chain) { return "chain_" + String.join("_", chain); }

    private String transport() {
        Map<Integer, List<String>> chains = chains();
        Set<String> imports = new LinkedHashSet<>(List.of("bth", "mrth"));
        for (List<String> c : chains.values()) imports.addAll(c);
        imports.add("mad_packet");
        StringBuilder b = new StringBuilder();
        meta(b, "roce_transport", "RoCEv2 and MetaRoCE v1 transport packet (UDP payload, port "
                + spec.meta().rocePort() + ")", List.copyOf(imports));
        doc(b, "", "BTH, then MRTH iff bth.tver == 1, then the extension headers the opcode requires (§5: the "
                + "header chain of the opcode, with the RETH that MRTH.spray adds to WRITE Middle/Last), the payload "
                + "(a MAD when sent to QP 1), the pad bytes and the ICRC, stored least significant byte first.");
        b.append("doc-ref: ").append(q(docRef("§1, §5, §8"))).append('\n');
        b.append("seq:\n");
        b.append("  - id: bth\n    type: bth\n");
        b.append("  - id: mrth\n    type: mrth\n    if: bth.tver == 1\n");
        b.append("  - id: headers\n    type:\n      switch-on: chain_key\n      cases:\n");
        for (var e : chains.entrySet())
            b.append("        0x").append(String.format("%03X", e.getKey())).append(": ").append(chainType(e.getValue())).append('\n');
        b.append("  - id: payload\n    size: _io.size - _io.pos - 4 - bth.pad_cnt\n");
        b.append("    type:\n      switch-on: 'bth.dest_qp == 1 and (bth.opcode == 0x64 or bth.opcode == 0x65) ? 1 : 0'\n      cases:\n        1: mad_packet\n");
        doc(b, "    ", "Payload bytes; a management datagram (CM) when a UD SEND Only goes to QP 1 (the GSI).");
        b.append("  - id: pad\n    size: bth.pad_cnt\n");
        b.append("  - id: icrc\n    type: u4le\n");
        doc(b, "    ", "Invariant CRC (§8), stored least significant byte first.");
        b.append("instances:\n  chain_key:\n");
        b.append("    value: 'bth.tver == 1 ? (mrth.spray ? 512 : 256) + bth.opcode : bth.opcode'\n");
        doc(b, "    ", "Selects the header chain: opcode, +256 under MetaRoCE, +512 when MRTH.spray is set.");
        b.append("types:\n");
        Set<List<String>> seen = new LinkedHashSet<>(chains.values());
        for (List<String> c : seen) {
            b.append("  ").append(chainType(c)).append(":\n    seq:\n");
            for (String h : c) b.append("      - id: ").append(h).append("\n        type: ").append(h).append('\n');
        }
        return b.toString();
    }

    private String madPacket() {
        Map<Long, String> bodies = new TreeMap<>();
        for (EnumValue v : spec.enums().get("cm_attribute").values())
            if (spec.headers().stream().anyMatch(h -> h.id().equals("cm_" + v.id()))) bodies.put(v.value(), "cm_" + v.id());
        List<String> imports = new ArrayList<>(List.of("mad"));
        imports.addAll(bodies.values());
        StringBuilder b = new StringBuilder();
        meta(b, "mad_packet", "Connection-management MAD (RDMA CM over QP 1)", imports);
        doc(b, "", "MAD common header, then the CM message its attribute ID names (REQ, REP, RTU, DREQ, DREP, REJ).");
        b.append("doc-ref: ").append(q(docRef("§4.1"))).append('\n');
        b.append("seq:\n  - id: mad\n    type: mad\n");
        b.append("  - id: body\n    size-eos: true\n    type:\n      switch-on: 'mad.mgmt_class == 7 ? mad.attribute_id : 0'\n      cases:\n");
        // Only the CM class (0x07) carries CM messages; other management classes stay raw bytes.
        for (var e : bodies.entrySet())
            b.append("        0x").append(String.format("%04X", e.getKey())).append(": ").append(e.getValue()).append('\n');
        return b.toString();
    }

    private String frame() {
        StringBuilder b = new StringBuilder();
        meta(b, "roce_frame", "RoCEv2 / MetaRoCE frame from Ethernet to ICRC",
                List.of("eth", "vlan", "ip", "ipv6", "udp", "grh", "roce_transport", "macc", "macc_pause", "macc_cbfc",
                        "macc_cbfc_times"));
        doc(b, "", "Ethernet II, 802.1Q/802.1ad tags, IPv4 (with options) or IPv6 (without extension headers), UDP, "
                + "then the transport packet; or RoCEv1 (EtherType 0x" + Integer.toHexString(spec.meta().roceV1EtherType())
                + ", GRH); or MAC Control (EtherType 0x8808: PAUSE, PFC). The Ethernet FCS, when captured, follows the UDP datagram and is not parsed.");
        b.append("doc-ref: ").append(q(docRef("§1"))).append('\n');
        b.append("seq:\n");
        b.append("  - id: eth\n    type: eth\n");
        b.append("  - id: vlans\n    type: vlan\n    repeat: until\n    repeat-until: '_.etype != 0x8100 and _.etype != 0x88A8 and _.etype != 0x9100'\n    if: eth.type == 0x8100 or eth.type == 0x88A8 or eth.type == 0x9100\n");
        b.append("  - id: ip\n    type: ip\n    if: ether_type == 0x0800\n");
        b.append("  - id: ip_options\n    size: ip.hdr_len * 4 - 20\n    if: ether_type == 0x0800\n");
        b.append("  - id: ipv6\n    type: ipv6\n    if: ether_type == 0x86DD\n");
        b.append("  - id: grh\n    type: grh\n    if: ether_type == 0x").append(Integer.toHexString(spec.meta().roceV1EtherType()).toUpperCase()).append('\n');
        b.append("  - id: udp\n    type: udp\n    if: ether_type == 0x0800 or ether_type == 0x86DD\n");
        b.append("  - id: udp_transport\n    size: udp.length - 8\n    type: roce_transport\n    if: ether_type == 0x0800 or ether_type == 0x86DD\n");
        b.append("  - id: grh_transport\n    size-eos: true\n    type: roce_transport\n    if: ether_type == 0x").append(Integer.toHexString(spec.meta().roceV1EtherType()).toUpperCase()).append('\n');
        // MAC Control (802.3x PAUSE, 802.1Qbb PFC): the opcode says which body follows.
        b.append("  - id: macc\n    type: macc\n    if: ether_type == 0x8808\n");
        b.append("  - id: macc_pause\n    type: macc_pause\n    if: ether_type == 0x8808 and macc.opcode == 0x0001\n");
        b.append("  - id: macc_cbfc\n    type: macc_cbfc\n    if: ether_type == 0x8808 and macc.opcode == 0x0101\n");
        b.append("  - id: macc_cbfc_times\n    type: macc_cbfc_times\n    if: ether_type == 0x8808 and macc.opcode == 0x0101\n");
        b.append("instances:\n");
        b.append("  has_vlan:\n    value: eth.type == 0x8100 or eth.type == 0x88A8 or eth.type == 0x9100\n");
        b.append("  ether_type:\n    value: 'has_vlan ? vlans.last.etype : eth.type'\n");
        doc(b, "    ", "EtherType after the last VLAN tag.");
        return b.toString();
    }

    // ------------------------------------------------------------------ YAML text helpers

    private static void doc(StringBuilder b, String indent, String text) {
        if (text.contains("\n") || text.length() > 100) {
            b.append(indent).append("doc: |\n");
            for (String line : wrap(text.strip(), 100 - indent.length())) b.append(indent).append("  ").append(line).append('\n');
        } else {
            b.append(indent).append("doc: ").append(q(text)).append('\n');
        }
    }

    private static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        for (String para : text.split("\n")) {
            StringBuilder line = new StringBuilder();
            for (String w : para.split(" ")) {
                if (line.length() > 0 && line.length() + 1 + w.length() > width) {
                    lines.add(line.toString());
                    line.setLength(0);
                }
                if (line.length() > 0) line.append(' ');
                line.append(w);
            }
            lines.add(line.toString());
        }
        return lines;
    }

    static String q(String s) {
        if (s.matches("[A-Za-z][A-Za-z0-9 _()./,+-]*") && !s.endsWith(" ")) return s;
        return "'" + s.replace("'", "''") + "'";
    }
}

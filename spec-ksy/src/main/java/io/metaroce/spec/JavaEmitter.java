package io.metaroce.spec;

import io.metaroce.spec.SpecModel.Carry;
import io.metaroce.spec.SpecModel.EnumDef;
import io.metaroce.spec.SpecModel.EnumValue;
import io.metaroce.spec.SpecModel.Field;
import io.metaroce.spec.SpecModel.Header;
import io.metaroce.spec.SpecModel.Opcode;
import io.metaroce.spec.SpecModel.OpcodeRange;
import io.metaroce.spec.SpecModel.Rule;
import io.metaroce.spec.SpecModel.Spec;
import io.metaroce.spec.SpecModel.SubField;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Emits the Java side of the spec into package {@code io.metaroce.protocol}:
 * <ul>
 *   <li>one flyweight class per header (SBE style: static accessors over a MemorySegment at an offset,
 *       offsets baked in as literals, getters and setters, no allocation), used by the fast decoder,
 *       the simulator and the tests; each getter also reads a byte[] (the decoder's copy of a frame's
 *       headers, cheaper to compile than segment accesses);</li>
 *   <li>{@code Spec}: the catalogue of headers, fields (filter name, label, type, doc, Wireshark
 *       aliases), enums, the expanded opcode table per transport version, and the rule table;</li>
 *   <li>{@code Expert}: one {@code ExpertDef} constant per row of the expert table (Wireshark's ei[]), and
 *       {@code RuleIds}: the rule ids as compile-time constants.</li>
 * </ul>
 * The record types the catalogue is made of (HeaderDef, FieldDef, ...) are hand-written in the dissector.
 */
public final class JavaEmitter {
    static final String PACKAGE = "io.metaroce.protocol";
    private static final String BANNER = "// Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.\n";
    private final Spec spec;

    public JavaEmitter(Spec spec) { this.spec = spec; }

    public Map<String, String> emit() {
        Map<String, String> files = new LinkedHashMap<>();
        int fieldId = 0;
        List<Header> all = new ArrayList<>(spec.headers());
        all.addAll(spec.pseudo());
        Map<String, Integer> firstField = new LinkedHashMap<>();
        for (Header h : all) {
            firstField.put(h.id(), fieldId);
            for (Field f : h.fields()) fieldId += 1 + f.subfields().size();
        }
        for (int i = 0; i < spec.headers().size(); i++) {
            Header h = spec.headers().get(i);
            files.put(className(h.id()) + ".java", flyweight(h, i, firstField.get(h.id())));
        }
        files.put("Spec.java", catalogue(all, firstField));
        files.put("Expert.java", expert());
        files.put("RuleIds.java", ruleIds());
        return files;
    }

    public static String className(String id) {
        StringBuilder b = new StringBuilder();
        for (String part : id.split("_")) b.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        return b.toString();
    }

    static String camel(String id) {
        String c = className(id);
        return Character.toLowerCase(c.charAt(0)) + c.substring(1);
    }

    private static String constant(String id) { return id.toUpperCase(Locale.ROOT); }

    // ------------------------------------------------------------------ flyweights

    private String flyweight(Header h, int index, int firstFieldId) {
        StringBuilder b = new StringBuilder();
        String cls = className(h.id());
        b.append(BANNER).append("package ").append(PACKAGE).append(";\n\n");
        b.append("import java.lang.foreign.MemorySegment;\n\n");
        b.append("/**\n * ").append(esc(h.title())).append(h.origId() != null ? " (" + esc(h.origId()) + ")" : "")
                .append(", ").append(h.size()).append(" bytes").append(h.section() != null ? ", " + spec.meta().spec() + " " + h.section() : "")
                .append(".\n");
        if (h.doc() != null) b.append(" * <p>").append(esc(h.doc())).append('\n');
        b.append(" */\n@SuppressWarnings(\"all\")\npublic final class ").append(cls).append(" {\n");
        b.append("    private ").append(cls).append("() {}\n\n");
        b.append("    /** Index in {@link Spec#HEADERS}. */\n    public static final int HEADER = ").append(index).append(";\n");
        b.append("    /** Filter-name prefix. */\n    public static final String NAME = \"").append(h.id()).append("\";\n");
        b.append("    /** Size in bytes. */\n    public static final int SIZE = ").append(h.size()).append(";\n\n");
        int fid = firstFieldId;
        for (Field f : h.fields()) {
            b.append("    /** Field id of ").append(h.id()).append('.').append(f.id()).append(" in {@link Spec#FIELDS}. */\n");
            b.append("    public static final int F_").append(constant(f.id())).append(" = ").append(fid++).append(";\n");
            for (SubField s : f.subfields()) {
                b.append("    public static final int F_").append(constant(f.id())).append('_').append(constant(s.id()))
                        .append(" = ").append(fid++).append(";\n");
            }
        }
        b.append('\n');
        for (Field f : h.fields()) {
            accessor(b, f);
            for (SubField s : f.subfields()) {
                String jt = s.width() < 32 ? "int" : "long";
                b.append("    /** ").append(esc(s.label())).append(" (mask 0x").append(Long.toHexString(s.mask())).append(" of ")
                        .append(f.id()).append("). */\n");
                b.append("    public static ").append(jt).append(' ').append(camel(f.id() + "_" + s.id()))
                        .append("(MemorySegment s, long o) { return (").append(jt).append(") ((").append(camel(f.id()))
                        .append("(s, o) & 0x").append(Long.toHexString(s.mask())).append("L) >>> ").append(s.shift()).append("); }\n");
                b.append("    public static ").append(jt).append(' ').append(camel(f.id() + "_" + s.id()))
                        .append("(byte[] b, int o) { return (").append(jt).append(") ((").append(camel(f.id()))
                        .append("(b, o) & 0x").append(Long.toHexString(s.mask())).append("L) >>> ").append(s.shift()).append("); }\n\n");
            }
        }
        b.append("}\n");
        return b.toString();
    }

    private static void accessor(StringBuilder b, Field f) {
        String name = camel(f.id());
        int byteOff = f.bitOffset() / 8;
        String doc = "    /** " + esc(f.label()) + (f.doc() != null ? ": " + esc(f.doc()) : "") + " (bits " + f.bitOffset()
                + ".." + (f.bitOffset() + f.bits() - 1) + (f.reserved() ? ", reserved" : "") + "). */\n";
        b.append(doc);
        switch (f.type()) {
            case "ipv6", "bytes" -> {
                b.append("    public static MemorySegment ").append(name).append("(MemorySegment s, long o) { return s.asSlice(o + ")
                        .append(byteOff).append(", ").append(f.bits() / 8).append("); }\n");
                b.append("    public static void ").append(name).append("(MemorySegment s, long o, MemorySegment v) { MemorySegment.copy(v, 0, s, o + ")
                        .append(byteOff).append(", ").append(f.bits() / 8).append("); }\n\n");
                return;
            }
            default -> { }
        }
        boolean bool = f.type().equals("bool");
        String jt = bool ? "boolean" : f.bits() < 32 || f.type().equals("ipv4") ? "int" : "long";
        int shift, nbytes;
        int first = f.bitOffset() / 8, last = (f.bitOffset() + f.bits() - 1) / 8;
        nbytes = last - first + 1;
        shift = nbytes * 8 - (f.bitOffset() % 8) - f.bits();
        String mask = f.bits() == 64 ? "-1L" : "0x" + Long.toHexString((1L << f.bits()) - 1) + "L";
        String read = "Bits.read" + nbytes + "(s, o + " + first + ")";
        String expr = shift == 0 && (nbytes * 8 == f.bits()) ? read : "((" + read + " >>> " + shift + ") & " + mask + ")";
        if (bool) b.append("    public static boolean ").append(name).append("(MemorySegment s, long o) { return ").append(expr).append(" != 0; }\n");
        else b.append("    public static ").append(jt).append(' ').append(name).append("(MemorySegment s, long o) { return (").append(jt).append(") ")
                .append(expr).append("; }\n");
        // The same read over a byte[] copy of the frame's headers: plain array loads, which the JIT compiles in a
        // fraction of the time of a MemorySegment access (a VarHandle chain of about ten frames per read).
        String arrayExpr = expr.replace("(s, o + ", "(b, o + ");
        if (bool) b.append("    public static boolean ").append(name).append("(byte[] b, int o) { return ").append(arrayExpr).append(" != 0; }\n");
        else b.append("    public static ").append(jt).append(' ').append(name).append("(byte[] b, int o) { return (").append(jt).append(") ")
                .append(arrayExpr).append("; }\n");
        String value = bool ? "(v ? 1L : 0L)" : "(long) v";
        if (f.type().equals("ipv4")) value = "(v & 0xffffffffL)";
        b.append("    public static void ").append(name).append("(MemorySegment s, long o, ").append(jt).append(" v) { Bits.write(s, o + ")
                .append(first).append(", ").append(nbytes).append(", ").append(shift).append(", ").append(mask).append(", ").append(value).append("); }\n\n");
    }

    // ------------------------------------------------------------------ catalogue

    private String catalogue(List<Header> all, Map<String, Integer> firstField) {
        StringBuilder b = new StringBuilder();
        b.append(BANNER).append("package ").append(PACKAGE).append(";\n\n");
        b.append("import java.util.List;\nimport java.util.Map;\n\n");
        b.append("/**\n * The MetaRoCE v1 catalogue (").append(esc(spec.meta().version())).append("): headers, fields, enums, opcodes, rules.\n");
        b.append(" * Field ids index {@link #FIELDS}; header indexes {@link #HEADERS}.\n */\n");
        b.append("@SuppressWarnings(\"all\")\npublic final class Spec {\n    private Spec() {}\n\n");
        b.append("    public static final String TITLE = ").append(str(spec.meta().title())).append(";\n");
        b.append("    public static final String VERSION = ").append(str(spec.meta().version())).append(";\n");
        b.append("    public static final int ROCE_UDP_PORT = ").append(spec.meta().rocePort()).append(";\n");
        b.append("    public static final int ROCE_V1_ETHERTYPE = 0x").append(Integer.toHexString(spec.meta().roceV1EtherType())).append(";\n\n");

        // enums
        Map<String, EnumDef> enums = new LinkedHashMap<>(spec.enums());
        Map<Integer, EnumValue> opcodeValues = new TreeMap<>();
        List<Opcode> opcodes = SpecLoader.expandOpcodes(spec);
        for (Opcode op : opcodes) opcodeValues.putIfAbsent(op.code(), new EnumValue(op.code(), op.id(), op.label(), Map.of()));
        enums.put("opcode", new EnumDef("opcode", List.copyOf(opcodeValues.values())));
        for (EnumDef e : enums.values()) {
            b.append("    public static final EnumDef ENUM_").append(constant(e.id())).append(" = new EnumDef(\"").append(e.id()).append("\", List.of(\n");
            for (int i = 0; i < e.values().size(); i++) {
                EnumValue v = e.values().get(i);
                long number = -1;
                for (Object x : v.extra().values()) if (x instanceof Number n) number = n.longValue();
                b.append("            new EnumValueDef(0x").append(Long.toHexString(v.value())).append("L, \"").append(v.id()).append("\", ")
                        .append(str(v.label())).append(", ").append(number).append("L)").append(i + 1 < e.values().size() ? ",\n" : "));\n");
            }
        }
        b.append("    public static final Map<String, EnumDef> ENUMS = Map.ofEntries(\n");
        int k = 0;
        for (EnumDef e : enums.values()) {
            b.append("            Map.entry(\"").append(e.id()).append("\", ENUM_").append(constant(e.id())).append(")")
                    .append(++k < enums.size() ? ",\n" : ");\n\n");
        }

        // headers and fields
        b.append("    public static final List<HeaderDef> HEADERS = List.of(\n");
        for (int i = 0; i < all.size(); i++) {
            Header h = all.get(i);
            int count = 0;
            for (Field f : h.fields()) count += 1 + f.subfields().size();
            b.append("            new HeaderDef(").append(i).append(", \"").append(h.id()).append("\", ").append(str(h.title())).append(", ")
                    .append(str(h.origId())).append(", ").append(str(h.section())).append(", ").append(str(h.doc())).append(", ")
                    .append(h.size()).append(", ").append(h.pseudo()).append(", ").append(firstField.get(h.id())).append(", ")
                    .append(count).append(")").append(i + 1 < all.size() ? ",\n" : ");\n\n");
        }
        // The sizes again as a plain array: a per-frame loop (the decoder's short cut, validate's) adds header sizes
        // along an opcode's chain, and a list look-up and a call per header is what C1 makes of HEADERS.get(h).size().
        b.append("    /** Each header's size in bytes, by header index (as {@code HEADERS.get(h).size()}); read-only. */\n");
        b.append("    public static final int[] HEADER_SIZES = {");
        for (int i = 0; i < all.size(); i++) b.append(i == 0 ? "" : ", ").append(all.get(i).size());
        b.append("};\n\n");
        b.append("    public static final List<FieldDef> FIELDS = List.of(\n");
        List<String> rows = new ArrayList<>();
        for (int hi = 0; hi < all.size(); hi++) {
            Header h = all.get(hi);
            for (Field f : h.fields()) {
                int parentId = rows.size();
                // A derived field (ip.addr, ipv6.tclass) belongs to the wire header its parts are in, so that it
                // occurs as often as that header; bits-of reads the parts' bits as one number.
                List<String> parts = !f.either().isEmpty() ? f.either() : f.bitsOf();
                int header = hi, bitOffset = f.bitOffset(), bits = f.bits();
                if (!parts.isEmpty()) {
                    Header ph = spec.header(parts.get(0).substring(0, parts.get(0).indexOf('.')));
                    header = all.indexOf(ph);
                    Field first = part(ph, parts.get(0)), last = part(ph, parts.get(parts.size() - 1));
                    bitOffset = first.bitOffset();
                    bits = f.bitsOf().isEmpty() ? first.bits() : last.bitOffset() + last.bits() - first.bitOffset();
                }
                rows.add(fieldRow(rows.size(), header, f.fullName(h.id()), f.label(), f.doc(), f.type(), f.display(), bitOffset,
                        bits, 0, -1, f.enumName(), f.ws(), f.reserved(), f.icrcVariant()));
                for (SubField s : f.subfields()) {
                    rows.add(fieldRow(rows.size(), hi, h.id() + "." + f.id() + "." + s.id(), s.label(), s.doc(), "uint", "dec", f.bitOffset(), f.bits(),
                            s.mask(), parentId, s.enumName(), s.ws(), false, false));
                }
            }
        }
        b.append(String.join(",\n", rows)).append(");\n\n");
        wireshark(b, all, firstField);

        // carried headers (CM private data)
        b.append("    /** Headers carried inside bytes fields (CM private data). */\n");
        b.append("    public static final List<CarryDef> CARRIES = List.of(\n");
        List<String> carries = new ArrayList<>();
        for (Header h : spec.headers()) {
            int fid = firstField.get(h.id());
            for (Field f : h.fields()) {
                for (Carry c : f.carries()) {
                    Header ch = spec.header(c.header());
                    int when = -1;
                    if (c.whenField() != null) {
                        int x = firstField.get(ch.id());
                        for (Field cf : ch.fields()) {
                            if (cf.id().equals(c.whenField())) when = x;
                            x += 1 + cf.subfields().size();
                        }
                    }
                    carries.add("            new CarryDef(" + fid + ", " + spec.headers().indexOf(ch) + ", " + c.at() + ", " + when
                            + ", " + (c.whenEquals() == null ? 0 : c.whenEquals()) + "L)");
                }
                fid += 1 + f.subfields().size();
            }
        }
        b.append(String.join(",\n", carries)).append(");\n\n");

        // opcodes
        for (int tver = 0; tver <= 1; tver++) {
            b.append("    /** Opcodes defined under tver ").append(tver).append(", by opcode value (null = not defined). */\n");
            b.append("    public static final List<OpcodeDef> OPCODES_TVER").append(tver).append(" = OpcodeDef.table(\n");
            List<String> ops = new ArrayList<>();
            for (Opcode op : opcodes) {
                if (!op.tver().contains(tver)) continue;
                ops.add("            new OpcodeDef(0x" + Integer.toHexString(op.code()) + ", \"" + op.id() + "\", " + str(op.label()) + ", \""
                        + op.transport() + "\", " + str(op.service()) + ", OpcodeDef.Role." + constant(op.role()) + ", \"" + op.family()
                        + "\", " + (op.segment() == null ? "null" : "OpcodeDef.Segment." + constant(op.segment())) + ", "
                        + headerList(op.chain()) + ", " + (op.sprayChain() == null || tver == 0 ? "null" : headerList(op.sprayChain()))
                        + ", " + op.payload() + ", " + op.payloadBytes() + ", \"" + op.psnRule() + "\")");
            }
            b.append(String.join(",\n", ops)).append(");\n\n");
        }
        b.append("    public static final List<OpcodeRangeDef> OPCODE_RANGES = List.of(\n");
        List<String> rr = new ArrayList<>();
        for (OpcodeRange r : spec.ranges()) {
            rr.add("            new OpcodeRangeDef(0x" + Integer.toHexString(r.from()) + ", 0x" + Integer.toHexString(r.to()) + ", \"" + r.id()
                    + "\", " + str(r.label()) + ", Severity." + constant(r.severity()) + ", " + str(r.message()) + ", "
                    + r.tver().contains(0) + ", " + r.tver().contains(1) + ", Expert." + expertConstant(r.expert()) + ")");
        }
        b.append(String.join(",\n", rr)).append(");\n\n");

        // rules
        b.append("    /** The conformance rule catalogue (§11). */\n");
        b.append("    public static final List<RuleDef> RULES = List.of(\n");
        List<String> rules = new ArrayList<>();
        for (Rule r : spec.rules()) {
            rules.add("            new RuleDef(\"" + r.id() + "\", Severity." + constant(r.severity()) + ", " + str(r.section()) + ", "
                    + str(r.taps()) + ", " + str(r.text()) + ", RuleDef.Kind." + constant(r.kind()) + ")");
        }
        b.append(String.join(",\n", rules)).append(");\n");
        b.append("}\n");
        return b.toString();
    }

    // ------------------------------------------------------------------ expert items and rule ids

    static String expertConstant(String id) { return constant(id.replace('.', '_')); }

    static String ruleConstant(String id) { return id.replace('-', '_'); }

    /** Wireshark's ei[] table: one ExpertDef constant per expert id, in spec order. */
    private String expert() {
        StringBuilder b = new StringBuilder();
        b.append(BANNER).append("package ").append(PACKAGE).append(";\n\n");
        b.append("import io.metaroce.dissector.ExpertItem.Group;\nimport java.util.List;\n\n");
        b.append("/**\n * The expert item kinds of the spec (Wireshark's ei[] table): the dissector emits expert items only\n");
        b.append(" * through these constants, so each item has a stable {@link ExpertDef#id()}.\n */\n");
        b.append("@SuppressWarnings(\"all\")\npublic final class Expert {\n    private Expert() {}\n\n");
        List<String> names = new ArrayList<>();
        int i = 0;
        for (SpecModel.Expert x : spec.expert()) {
            String c = expertConstant(x.id());
            names.add(c);
            b.append("    /** ").append(esc(x.summary())).append(" (").append(x.group()).append(", ").append(x.severity())
                    .append(x.rule() != null ? "; evidence for " + x.rule() : "").append("). */\n");
            b.append("    public static final ExpertDef ").append(c).append(" = new ExpertDef(").append(i++).append(", \"")
                    .append(x.id()).append("\", Group.").append(constant(x.group())).append(", Severity.").append(constant(x.severity()))
                    .append(", ").append(str(x.summary())).append(", ").append(str(x.rule())).append(");\n");
        }
        b.append("\n    /** Every expert kind; {@code ALL.get(d.index()) == d}. */\n");
        b.append("    public static final List<ExpertDef> ALL = List.of(").append(String.join(", ", names)).append(");\n\n");
        b.append("    /** The expert kind with this id, or null. */\n");
        b.append("    public static ExpertDef byId(String id) {\n        for (ExpertDef d : ALL) if (d.id().equals(id)) return d;\n        return null;\n    }\n");
        b.append("}\n");
        return b.toString();
    }

    /** Rule ids as compile-time constants, so code names a rule without a string literal (usable in switch). */
    private String ruleIds() {
        StringBuilder b = new StringBuilder();
        b.append(BANNER).append("package ").append(PACKAGE).append(";\n\n");
        b.append("/** The ids of the conformance rules (§11); the rules themselves are {@link Spec#RULES}. */\n");
        b.append("@SuppressWarnings(\"all\")\npublic final class RuleIds {\n    private RuleIds() {}\n\n");
        for (Rule r : spec.rules()) {
            b.append("    /** ").append(esc(r.text())).append(" */\n");
            b.append("    public static final String ").append(ruleConstant(r.id())).append(" = \"").append(r.id()).append("\";\n");
        }
        b.append("}\n");
        return b.toString();
    }

    private String headerList(List<String> chain) {
        List<String> idx = new ArrayList<>();
        for (String h : chain) idx.add(String.valueOf(spec.headers().indexOf(spec.header(h))));
        return "new int[] {" + String.join(", ", idx) + "}";
    }

    private static Field part(Header h, String name) {
        for (Field f : h.fields()) if (name.equals(h.id() + "." + f.id())) return f;
        throw new SpecException("unknown field " + name);
    }

    /** Field id of a wire field named header.field. */
    private static int fieldId(List<Header> all, Map<String, Integer> firstField, String name) {
        Header h = null;
        for (Header x : all) if (name.startsWith(x.id() + ".")) h = x;
        int id = firstField.get(h.id());
        for (Field f : h.fields()) {
            if (name.equals(h.id() + "." + f.id())) return id;
            id += 1 + f.subfields().size();
        }
        throw new SpecException("unknown field " + name);
    }

    /** Wireshark compatibility tables: protocol aliases, tshark's print format, either-fields, unmapped names. */
    private void wireshark(StringBuilder b, List<Header> all, Map<String, Integer> firstField) {
        List<String> protocols = new ArrayList<>(), display = new ArrayList<>(), either = new ArrayList<>(), unmapped = new ArrayList<>();
        for (int hi = 0; hi < all.size(); hi++) {
            Header h = all.get(hi);
            for (String a : h.ws()) protocols.add("Map.entry(" + str(a) + ", " + hi + ")");
            int id = firstField.get(h.id());
            for (Field f : h.fields()) {
                int fid = id;
                id += 1 + f.subfields().size();
                if (f.wsDisplay() != null) for (String a : f.ws()) display.add("Map.entry(" + str(a) + ", " + str(f.wsDisplay()) + ")");
                for (SubField s : f.subfields()) if (!s.ws().isEmpty() && f.wsDisplay() != null)
                    for (String a : s.ws()) display.add("Map.entry(" + str(a) + ", \"dec\")");
                if (!f.either().isEmpty()) {
                    List<String> ids = new ArrayList<>();
                    for (String p : f.either()) ids.add(String.valueOf(fieldId(all, firstField, p)));
                    either.add("Map.entry(" + fid + ", new int[] {" + String.join(", ", ids) + "})");
                }
            }
        }
        for (var e : spec.wsUnmapped().entrySet()) unmapped.add("Map.entry(" + str(e.getKey()) + ", " + str(e.getValue()) + ")");
        b.append("    /** Wireshark protocol names that test for one of our headers (index in HEADERS). */\n");
        b.append("    public static final Map<String, Integer> PROTOCOL_ALIASES = Map.ofEntries(").append(entries(protocols)).append(");\n\n");
        b.append("    /** How tshark prints a field under a Wireshark name, where that differs from our display: dec or hexN. */\n");
        b.append("    public static final Map<String, String> WS_DISPLAY = Map.ofEntries(").append(entries(display)).append(");\n\n");
        b.append("    /** Fields that are either of two others (ip.addr: ip.src, ip.dst), by field id: one occurrence per part. */\n");
        b.append("    public static final Map<Integer, int[]> EITHER = Map.ofEntries(").append(entries(either)).append(");\n\n");
        b.append("    /** Wireshark names (a trailing * matches a prefix) with no equivalent here, and why. */\n");
        b.append("    public static final Map<String, String> WS_UNMAPPED = Map.ofEntries(").append(entries(unmapped)).append(");\n\n");
    }

    private static String entries(List<String> l) {
        return l.isEmpty() ? "" : "\n            " + String.join(",\n            ", l);
    }

    private String fieldRow(int id, int headerIndex, String name, String label, String doc, String type, String display,
                            int bitOffset, int bits, long mask, int parent, String enumName, List<String> ws, boolean reserved,
                            boolean icrcVariant) {
        String aliases = ws.isEmpty() ? "List.of()" : "List.of(" + String.join(", ", ws.stream().map(JavaEmitter::str).toList()) + ")";
        String e = enumName == null ? "null" : "ENUM_" + constant(enumName);
        return "            new FieldDef(" + id + ", \"" + name + "\", " + headerIndex + ", " + str(label) + ", "
                + str(doc) + ", ValueType." + constant(type) + ", Display." + constant(display) + ", " + bitOffset + ", " + bits
                + ", 0x" + Long.toHexString(mask) + "L, " + parent + ", " + e + ", " + aliases + ", " + reserved + ", " + icrcVariant + ")";
    }

    private static String str(String s) {
        if (s == null) return "null";
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }

    private static String esc(String s) { return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("*/", "*&#47;"); }
}

package io.metaroce.spec;

import io.metaroce.spec.SpecModel.EnumDef;
import io.metaroce.spec.SpecModel.EnumValue;
import io.metaroce.spec.SpecModel.Field;
import io.metaroce.spec.SpecModel.Header;
import io.metaroce.spec.SpecModel.Meta;
import io.metaroce.spec.SpecModel.Opcode;
import io.metaroce.spec.SpecModel.OpcodeRange;
import io.metaroce.spec.SpecModel.Operation;
import io.metaroce.spec.SpecModel.Rule;
import io.metaroce.spec.SpecModel.Spec;
import io.metaroce.spec.SpecModel.Special;
import io.metaroce.spec.SpecModel.SubField;
import io.metaroce.spec.SpecModel.Transport;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** Reads spec-ksy/metaroce-v1.yaml into a {@link Spec} and checks that it is consistent. */
public final class SpecLoader {
    private static final Set<String> TYPES = Set.of("uint", "bool", "ipv4", "ipv6", "ether", "bytes", "string", "time");

    // The closed key set of every kind of mapping. An unknown key is an error, not silently ignored: in a
    // YAML flow map an unquoted comma ends the value, and what follows becomes a key of its own
    // ("doc: 0 RoCEv2, 1 MetaRoCE v1" is {doc: "0 RoCEv2", "1 MetaRoCE v1": null}).
    private static final Set<String> ROOT_KEYS = Set.of("meta", "headers", "pseudo", "enums", "transports", "operations",
            "special-opcodes", "opcode-ranges", "tver", "rules", "expert", "ws-unmapped");
    private static final Set<String> META_KEYS = Set.of("id", "title", "version", "license", "ks-version", "spec",
            "roce-udp-port", "roce-v1-ethertype");
    private static final Set<String> HEADER_KEYS = Set.of("title", "orig-id", "section", "doc", "fields", "ws");
    private static final Set<String> FIELD_KEYS = Set.of("id", "orig-id", "bits", "type", "display", "enum", "label", "doc",
            "ws", "reserved", "subfields", "carries", "icrc", "name", "ws-display", "either", "bits-of");
    private static final Set<String> SUBFIELD_KEYS = Set.of("id", "mask", "enum", "label", "doc", "ws");
    private static final Set<String> CARRY_KEYS = Set.of("header", "at", "when");
    private static final Set<String> WHEN_KEYS = Set.of("field", "equals");
    /** id and label, plus the numeric extras an enum value may carry (ns: RNR timer, bytes: MTU). */
    private static final Set<String> ENUM_VALUE_KEYS = Set.of("id", "label", "ns", "bytes");
    private static final Set<String> TRANSPORT_KEYS = Set.of("base", "label", "service", "request-prefix", "response-prefix");
    private static final Set<String> OPERATION_KEYS = Set.of("code", "id", "label", "in", "role", "family", "segment",
            "headers", "spray-headers", "payload", "payload-bytes");
    private static final Set<String> SPECIAL_KEYS = Set.of("code", "id", "label", "tver", "role", "family", "headers",
            "payload", "psn", "doc");
    private static final Set<String> RANGE_KEYS = Set.of("from", "to", "id", "label", "severity", "message", "tver", "expert");
    private static final Set<String> EXPERT_KEYS = Set.of("id", "group", "severity", "summary", "rule");
    private static final Set<String> EXPERT_GROUPS = Set.of("malformed", "checksum", "protocol", "undecoded", "sequence", "capture");
    private static final Set<String> SEVERITIES = Set.of("error", "warn", "note");
    private static final Set<String> TVER_KEYS = Set.of("id", "label", "mrth", "allowed");
    /** A Wireshark name with no equivalent here, and why. */
    private static final Set<String> WS_UNMAPPED_KEYS = Set.of("name", "reason");
    private static final Set<String> RULE_KEYS = Set.of("id", "severity", "section", "taps", "text", "kind");

    private SpecLoader() {}

    public static Spec load(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(r);
        }
    }

    public static Spec parse(Reader reader) {
        Map<String, Object> root = asMap(new Yaml(new SafeConstructor(new LoaderOptions())).load(reader), "spec");
        closed(root, "", ROOT_KEYS);
        Map<String, Object> m = map(root, "meta");
        closed(m, "meta", META_KEYS);
        Meta meta = new Meta(str(m, "id"), str(m, "title"), str(m, "version"), str(m, "license"),
                str(m, "ks-version"), str(m, "spec"), integer(m.get("roce-udp-port")),
                integer(m.get("roce-v1-ethertype")));
        List<Header> headers = headers(map(root, "headers"), false);
        List<Header> pseudo = headers(map(root, "pseudo"), true);
        for (var e : map(root, "tver").entrySet()) closed(asMap(e.getValue(), "tver"), "tver." + e.getKey(), TVER_KEYS);
        Map<String, EnumDef> enums = new LinkedHashMap<>();
        for (var e : map(root, "enums").entrySet()) {
            List<EnumValue> values = new ArrayList<>();
            for (var v : asMap(e.getValue(), e.getKey()).entrySet()) {
                Map<String, Object> vm = new LinkedHashMap<>(asMap(v.getValue(), e.getKey()));
                closed(vm, "enums." + e.getKey() + "." + v.getKey(), ENUM_VALUE_KEYS);
                String id = (String) vm.remove("id");
                String label = String.valueOf(vm.remove("label"));
                values.add(new EnumValue(integer(v.getKey()), id, label, vm));
            }
            enums.put(e.getKey(), new EnumDef(e.getKey(), values));
        }
        List<Transport> transports = new ArrayList<>();
        for (var e : map(root, "transports").entrySet()) {
            Map<String, Object> t = asMap(e.getValue(), e.getKey());
            closed(t, "transports." + e.getKey(), TRANSPORT_KEYS);
            transports.add(new Transport(e.getKey(), integer(t.get("base")), str(t, "label"), str(t, "service"),
                    strings(t.get("request-prefix")), strings(t.get("response-prefix"))));
        }
        List<Operation> ops = new ArrayList<>();
        for (Object o : list(root, "operations")) {
            Map<String, Object> op = asMap(o, "operation");
            closed(op, "operations[" + ops.size() + "]", OPERATION_KEYS);
            ops.add(new Operation(integer(op.get("code")), str(op, "id"), str(op, "label"), strings(op.get("in")),
                    str(op, "role"), str(op, "family"), (String) op.get("segment"), strings(op.get("headers")),
                    op.containsKey("spray-headers") ? strings(op.get("spray-headers")) : null,
                    Boolean.TRUE.equals(op.get("payload")),
                    op.containsKey("payload-bytes") ? integer(op.get("payload-bytes")) : -1));
        }
        List<Special> specials = new ArrayList<>();
        for (Object o : list(root, "special-opcodes")) {
            Map<String, Object> op = asMap(o, "special opcode");
            closed(op, "special-opcodes[" + specials.size() + "]", SPECIAL_KEYS);
            specials.add(new Special(integer(op.get("code")), str(op, "id"), str(op, "label"), ints(op.get("tver")),
                    str(op, "role"), str(op, "family"), strings(op.get("headers")),
                    Boolean.TRUE.equals(op.get("payload")), (String) op.get("psn"), (String) op.get("doc")));
        }
        List<OpcodeRange> ranges = new ArrayList<>();
        for (Object o : list(root, "opcode-ranges")) {
            Map<String, Object> r = asMap(o, "opcode range");
            closed(r, "opcode-ranges[" + ranges.size() + "]", RANGE_KEYS);
            ranges.add(new OpcodeRange(integer(r.get("from")), integer(r.get("to")), str(r, "id"), str(r, "label"),
                    str(r, "severity"), str(r, "message"), r.containsKey("tver") ? ints(r.get("tver")) : List.of(0, 1),
                    str(r, "expert")));
        }
        List<Rule> rules = new ArrayList<>();
        for (Object o : list(root, "rules")) {
            Map<String, Object> r = asMap(o, "rule");
            closed(r, "rules[" + rules.size() + "]", RULE_KEYS);
            // kind: conformance (the default: a rule of the protocol) or diagnosis (an operator finding, MR-DIAG).
            rules.add(new Rule(str(r, "id"), str(r, "severity"), str(r, "section"), str(r, "taps"), str(r, "text"),
                    r.containsKey("kind") ? str(r, "kind") : "conformance"));
        }
        List<SpecModel.Expert> expert = new ArrayList<>();
        for (Object o : list(root, "expert")) {
            Map<String, Object> x = asMap(o, "expert");
            closed(x, "expert[" + expert.size() + "]" + (x.get("id") != null ? " (" + x.get("id") + ")" : ""), EXPERT_KEYS);
            expert.add(new SpecModel.Expert(str(x, "id"), str(x, "group"), str(x, "severity"), str(x, "summary"),
                    (String) x.get("rule")));
        }
        // Wireshark names with no equivalent here, each with the reason (checked against tshark -G fields by a test).
        Map<String, String> wsUnmapped = new LinkedHashMap<>();
        if (root.get("ws-unmapped") != null) {
            for (Object o : list(root, "ws-unmapped")) {
                Map<String, Object> u = asMap(o, "ws-unmapped");
                closed(u, "ws-unmapped[" + wsUnmapped.size() + "]", WS_UNMAPPED_KEYS);
                if (wsUnmapped.put(str(u, "name"), str(u, "reason")) != null)
                    throw new SpecException("ws-unmapped: " + u.get("name") + " listed twice");
            }
        }
        Spec spec = new Spec(meta, headers, pseudo, enums, transports, ops, specials, ranges, rules, expert, wsUnmapped);
        validate(spec);
        return spec;
    }

    private static List<Header> headers(Map<String, Object> map, boolean pseudo) {
        List<Header> out = new ArrayList<>();
        for (var e : map.entrySet()) {
            Map<String, Object> h = asMap(e.getValue(), e.getKey());
            String hPath = (pseudo ? "pseudo." : "headers.") + e.getKey();
            closed(h, hPath, HEADER_KEYS);
            List<Field> fields = new ArrayList<>();
            int offset = 0;
            for (Object fo : (List<?>) h.get("fields")) {
                Map<String, Object> f = asMap(fo, e.getKey() + " field");
                String fPath = hPath + ".fields[" + fields.size() + "]" + (f.get("id") != null ? " (" + f.get("id") + ")" : "");
                closed(f, fPath, FIELD_KEYS);
                String type = f.containsKey("type") ? str(f, "type") : "uint";
                int bits = pseudo ? 0 : integer(req(f, "bits", e.getKey()));
                List<SubField> subs = new ArrayList<>();
                if (f.get("subfields") != null) {
                    for (Object so : (List<?>) f.get("subfields")) {
                        Map<String, Object> s = asMap(so, "subfield");
                        closed(s, fPath + ".subfields[" + subs.size() + "]", SUBFIELD_KEYS);
                        subs.add(new SubField(str(s, "id"), integer(s.get("mask")), (String) s.get("enum"),
                                str(s, "label"), (String) s.get("doc"), strings(s.get("ws"))));
                    }
                }
                List<SpecModel.Carry> carries = new ArrayList<>();
                if (f.get("carries") != null) {
                    for (Object co : (List<?>) f.get("carries")) {
                        Map<String, Object> c = asMap(co, "carries");
                        String cPath = fPath + ".carries[" + carries.size() + "]";
                        closed(c, cPath, CARRY_KEYS);
                        Map<String, Object> when = c.get("when") == null ? null : asMap(c.get("when"), "when");
                        if (when != null) closed(when, cPath + ".when", WHEN_KEYS);
                        carries.add(new SpecModel.Carry(str(c, "header"), integer(c.get("at")),
                                when == null ? null : str(when, "field"),
                                when == null ? null : (long) integer(when.get("equals"))));
                    }
                }
                fields.add(new Field(str(f, "id"), (String) f.get("orig-id"), bits, offset, type,
                        f.containsKey("display") ? str(f, "display") : "dec", (String) f.get("enum"),
                        f.containsKey("label") ? str(f, "label") : str(f, "id"), (String) f.get("doc"),
                        strings(f.get("ws")), Boolean.TRUE.equals(f.get("reserved")), subs, carries,
                        "variant".equals(f.get("icrc")), (String) f.get("name"), (String) f.get("ws-display"),
                        strings(f.get("either")), strings(f.get("bits-of"))));
                offset += bits;
            }
            out.add(new Header(e.getKey(), str(h, "title"), (String) h.get("orig-id"), (String) h.get("section"),
                    (String) h.get("doc"), fields, pseudo, strings(h.get("ws"))));
        }
        return out;
    }

    private static void validate(Spec spec) {
        Set<String> headerIds = new HashSet<>();
        for (Header h : spec.headers()) {
            if (!headerIds.add(h.id())) throw new SpecException("duplicate header " + h.id());
            if (h.sizeBits() % 8 != 0)
                throw new SpecException("header " + h.id() + ": fields add up to " + h.sizeBits() + " bits, not whole bytes");
            Set<String> ids = new HashSet<>();
            for (Field f : h.fields()) {
                if (!ids.add(f.id())) throw new SpecException("header " + h.id() + ": duplicate field " + f.id());
                checkField(spec, h, f);
            }
        }
        for (Header h : spec.pseudo()) {
            if (!headerIds.add(h.id())) throw new SpecException("pseudo header " + h.id() + " clashes with a header");
            for (Field f : h.fields()) {
                checkField(spec, h, f);
                checkDerived(spec, h, f);
            }
        }
        Set<String> transports = new HashSet<>();
        for (Transport t : spec.transports()) {
            transports.add(t.id());
            for (String p : t.requestPrefix()) spec.header(p);
            for (String p : t.responsePrefix()) spec.header(p);
        }
        for (Operation op : spec.operations()) {
            for (String h : op.headers()) spec.header(h);
            if (op.sprayHeaders() != null) for (String h : op.sprayHeaders()) spec.header(h);
            for (String t : op.in())
                if (!transports.contains(t)) throw new SpecException(op.id() + ": unknown transport " + t);
        }
        for (Special s : spec.specials()) for (String h : s.headers()) spec.header(h);
        Set<String> ruleIds = new HashSet<>();
        for (Rule r : spec.rules()) {
            if (!ruleIds.add(r.id())) throw new SpecException("duplicate rule " + r.id());
            if (!r.id().matches("[A-Z][A-Z0-9]*(-[A-Z0-9]+)+")) throw new SpecException("rule " + r.id() + ": ids look like MR-FRAME-001");
            if (!Set.of("error", "warn", "note").contains(r.severity()))
                throw new SpecException(r.id() + ": severity must be error, warn or note");
            if (!Set.of("conformance", "diagnosis").contains(r.kind()))
                throw new SpecException(r.id() + ": kind must be conformance or diagnosis");
        }
        Map<String, SpecModel.Expert> experts = new HashMap<>();
        Set<String> expertConstants = new HashSet<>();
        for (SpecModel.Expert x : spec.expert()) {
            if (experts.put(x.id(), x) != null) throw new SpecException("duplicate expert id " + x.id());
            if (!x.id().matches("[a-z][a-z0-9_]*(\\.[a-z0-9_]+)+"))
                throw new SpecException("expert " + x.id() + ": ids are protocol.lower_snake_case (icrc.bad)");
            if (!expertConstants.add(x.id().replace('.', '_')))
                throw new SpecException("expert " + x.id() + ": clashes with another id once dots become underscores");
            if (!EXPERT_GROUPS.contains(x.group())) throw new SpecException("expert " + x.id() + ": group must be one of " + EXPERT_GROUPS);
            if (!SEVERITIES.contains(x.severity())) throw new SpecException("expert " + x.id() + ": severity must be error, warn or note");
            if (x.rule() != null && !ruleIds.contains(x.rule())) throw new SpecException("expert " + x.id() + ": unknown rule " + x.rule());
        }
        for (OpcodeRange r : spec.ranges()) {
            SpecModel.Expert x = experts.get(r.expert());
            if (x == null) throw new SpecException("opcode range " + r.id() + ": unknown expert " + r.expert());
            if (!x.severity().equals(r.severity()))
                throw new SpecException("opcode range " + r.id() + ": severity " + r.severity() + " differs from its expert " + x.id());
        }
        Map<Integer, String> codes = new TreeMap<>();
        for (Opcode op : expandOpcodes(spec)) {
            for (int tv : op.tver()) {
                String prev = codes.put(tv * 256 + op.code(), op.id());
                if (prev != null) throw new SpecException("opcode 0x" + Integer.toHexString(op.code()) + " defined twice: " + prev + ", " + op.id());
            }
        }
    }

    /** either / bits-of name fields of one wire header; bits-of fields must be adjacent. */
    private static void checkDerived(Spec spec, Header h, Field f) {
        List<String> parts = !f.either().isEmpty() ? f.either() : f.bitsOf();
        if (parts.isEmpty()) return;
        if (f.name() == null) throw new SpecException(h.id() + "." + f.id() + ": a derived field needs a name");
        String header = null;
        int nextBit = -1;
        for (String p : parts) {
            int dot = p.indexOf('.');
            Header ph = spec.header(p.substring(0, dot));
            Field pf = ph.fields().stream().filter(x -> x.id().equals(p.substring(dot + 1))).findFirst()
                    .orElseThrow(() -> new SpecException(f.name() + ": unknown field " + p));
            if (header != null && !header.equals(ph.id())) throw new SpecException(f.name() + ": parts from two headers");
            header = ph.id();
            if (!f.bitsOf().isEmpty()) {
                if (nextBit >= 0 && pf.bitOffset() != nextBit) throw new SpecException(f.name() + ": bits-of parts are not adjacent");
                nextBit = pf.bitOffset() + pf.bits();
            } else if (!pf.type().equals(f.type()) && !f.type().equals("string")) {
                throw new SpecException(f.name() + ": " + p + " is " + pf.type() + ", not " + f.type());
            }
        }
    }

    private static void checkField(Spec spec, Header h, Field f) {
        if (!TYPES.contains(f.type())) throw new SpecException(h.id() + "." + f.id() + ": unknown type " + f.type());
        if (f.enumName() != null && !f.enumName().equals("opcode") && !spec.enums().containsKey(f.enumName()))
            throw new SpecException(h.id() + "." + f.id() + ": unknown enum " + f.enumName());
        if (!f.id().matches("[a-z][a-z0-9_]*")) throw new SpecException(h.id() + "." + f.id() + ": ids are lower_snake_case");
        if (f.wsDisplay() != null && !f.wsDisplay().matches("dec|hex([1-9]|1[0-6])"))
            throw new SpecException(h.id() + "." + f.id() + ": ws-display is dec or hexN, not " + f.wsDisplay());
        if (f.type().equals("time") && !h.pseudo()) throw new SpecException(h.id() + "." + f.id() + ": time fields are computed");
        if (h.pseudo()) return;
        if (f.name() != null || !f.either().isEmpty() || !f.bitsOf().isEmpty())
            throw new SpecException(h.id() + "." + f.id() + ": name, either and bits-of are for computed fields");
        switch (f.type()) {
            case "bool" -> { if (f.bits() != 1) throw new SpecException(h.id() + "." + f.id() + ": bool is 1 bit"); }
            case "ipv4" -> { if (f.bits() != 32) throw new SpecException(h.id() + "." + f.id() + ": ipv4 is 32 bits"); }
            case "ipv6" -> { if (f.bits() != 128) throw new SpecException(h.id() + "." + f.id() + ": ipv6 is 128 bits"); }
            case "ether" -> { if (f.bits() != 48) throw new SpecException(h.id() + "." + f.id() + ": ether is 48 bits"); }
            case "bytes" -> {
                if (f.bits() % 8 != 0 || f.bitOffset() % 8 != 0)
                    throw new SpecException(h.id() + "." + f.id() + ": bytes fields are byte-aligned");
            }
            default -> {
                if (f.bits() > 64) throw new SpecException(h.id() + "." + f.id() + ": integers are at most 64 bits");
                int firstByte = f.bitOffset() / 8, lastByte = (f.bitOffset() + f.bits() - 1) / 8;
                if (lastByte - firstByte + 1 > 8)
                    throw new SpecException(h.id() + "." + f.id() + ": an integer field may span at most 8 bytes");
            }
        }
        for (SpecModel.Carry c : f.carries()) {
            Header carried = spec.header(c.header());
            if (!f.type().equals("bytes") || c.at() + carried.size() > f.bits() / 8)
                throw new SpecException(h.id() + "." + f.id() + ": " + c.header() + " does not fit at " + c.at());
        }
        for (SubField s : f.subfields()) {
            if (s.mask() <= 0 || Long.numberOfLeadingZeros(s.mask()) < 64 - f.bits())
                throw new SpecException(h.id() + "." + f.id() + "." + s.id() + ": mask outside the field");
            if (s.enumName() != null && !spec.enums().containsKey(s.enumName()))
                throw new SpecException(h.id() + "." + f.id() + "." + s.id() + ": unknown enum " + s.enumName());
        }
    }

    /** The full opcode table: every (transport, operation) pair plus the special opcodes. */
    public static List<Opcode> expandOpcodes(Spec spec) {
        List<Opcode> out = new ArrayList<>();
        for (Operation op : spec.operations()) {
            for (Transport t : spec.transports()) {
                if (!op.in().contains(t.id())) continue;
                if (t.id().equals("ud") && !op.id().startsWith("send_only")) continue;
                List<String> prefix = op.role().equals("request") ? t.requestPrefix() : t.responsePrefix();
                List<String> chain = concat(prefix, op.headers());
                // MetaRoCE (tver 1) runs over RC only (A1); the spray variant exists only there.
                boolean rc = t.id().equals("rc");
                List<String> spray = rc && op.sprayHeaders() != null ? concat(prefix, op.sprayHeaders()) : null;
                out.add(new Opcode(t.base() + op.code(), t.id() + "_" + op.id(), t.label() + " " + op.label(),
                        t.id(), t.service(), op.role(), op.family(), op.segment(), chain, spray, op.payload(),
                        op.payloadBytes(), op.role().equals("ack") ? "acknowledged" : "sequence",
                        rc ? List.of(0, 1) : List.of(0)));
            }
        }
        for (Special s : spec.specials()) {
            out.add(new Opcode(s.code(), s.id(), s.label(), "control", null, s.role(), s.family(), null,
                    s.headers(), null, s.payload(), -1, s.psn() == null ? "zero" : s.psn(), s.tver()));
        }
        out.sort((a, b) -> Integer.compare(a.code(), b.code()));
        return out;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> l = new ArrayList<>(a);
        l.addAll(b);
        return List.copyOf(l);
    }

    // ------------------------------------------------------------------ YAML helpers

    /** Fails on the first key of m outside the allowed set, naming the YAML path and the key. */
    private static void closed(Map<String, Object> m, String path, Set<String> allowed) {
        for (var e : m.entrySet()) {
            if (allowed.contains(e.getKey())) continue;
            String hint = e.getValue() == null ? " (a value with an unquoted comma? quote it: 'a, b')" : "";
            throw new SpecException((path.isEmpty() ? "top level" : path) + ": unknown key '" + e.getKey() + "'" + hint
                    + "; allowed: " + new java.util.TreeSet<>(allowed));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o, String what) {
        if (!(o instanceof Map<?, ?> m)) throw new SpecException(what + ": expected a mapping, got " + o);
        Map<String, Object> out = new LinkedHashMap<>();
        for (var e : m.entrySet()) out.put(String.valueOf(e.getKey()), e.getValue());
        return out;
    }

    private static Map<String, Object> map(Map<String, Object> m, String key) {
        return asMap(req(m, key, "spec"), key);
    }

    private static List<?> list(Map<String, Object> m, String key) {
        Object o = req(m, key, "spec");
        if (!(o instanceof List<?> l)) throw new SpecException(key + ": expected a list");
        return l;
    }

    private static Object req(Map<String, Object> m, String key, String where) {
        Object o = m.get(key);
        if (o == null) throw new SpecException(where + ": missing '" + key + "' in " + m);
        return o;
    }

    private static String str(Map<String, Object> m, String key) { return String.valueOf(req(m, key, "spec")); }

    private static int integer(Object o) {
        if (o instanceof Number n) return n.intValue();
        String s = String.valueOf(o).trim();
        return s.startsWith("0x") || s.startsWith("0X") ? Integer.parseInt(s.substring(2), 16) : Integer.parseInt(s);
    }

    private static List<String> strings(Object o) {
        if (o == null) return List.of();
        if (o instanceof List<?> l) return l.stream().map(String::valueOf).toList();
        return List.of(String.valueOf(o));
    }

    private static List<Integer> ints(Object o) {
        if (o == null) return List.of();
        if (o instanceof List<?> l) return l.stream().map(SpecLoader::integer).toList();
        return List.of(integer(o));
    }
}

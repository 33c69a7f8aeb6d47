package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import io.metaroce.dissector.TestFrames.Frame;
import io.metaroce.protocol.EnumValueDef;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.ValueType;
import io.metaroce.protocol.kaitai.RoceFrame;
import io.metaroce.protocol.kaitai.RoceTransport;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pins the flyweight dissector to the Kaitai parsers (the decoder of record). For every reference vector
 * and a few thousand generated frames with random values in every field, each layer the {@link Dissector}
 * reports is matched with the Kaitai object of the same header (k-th layer of a header = k-th Kaitai object
 * of that type), and every catalogue field of it, subfields included, must have the same value three ways:
 * through the catalogue ({@link FieldDef#readLong}/{@link FieldDef#slice}), through the generated flyweight
 * accessor ({@code io.metaroce.protocol.Bth.psn(segment, offset)}) and through the Kaitai getter. The
 * Kaitai ICRC must equal {@link Dissection#icrcValue()}, and for a RoCE frame both must see the same headers.
 *
 * <p>Random values make a moved field visible: {@link #aShiftedFieldIsDetected()} checks that moving any
 * field of the catalogue by one byte makes the comparison fail. Seed: {@code -Dkaitai.seed=...}.
 */
class KaitaiAgreementTest {
    private static final long SEED = TestFrames.seed("kaitai.seed");
    /** Frames per tver-1 opcode and spray value. */
    private static final int ROUNDS_TVER1 = 40;
    private static final int ROUNDS_TVER0 = 8;
    private static final int ROUNDS_CM = 30;
    /** Headers the Kaitai entry points do not cover (link types other than Ethernet). */
    private static final Set<String> NO_KAITAI = Set.of("sll", "sll2");

    @BeforeAll
    static void printSeed() {
        System.out.println("KaitaiAgreementTest seed=" + SEED + " (rerun with -Dkaitai.seed=" + SEED + ")");
    }

    @Test
    void vectorsAgreeWithKaitai() {
        Dissector dissector = new Dissector();
        Dissection d = new Dissection();
        int frames = 0, layers = 0;
        for (Frame f : TestFrames.vectors()) {
            f.dissect(dissector, d);
            layers += assertAgree(f, d);
            frames++;
        }
        assertTrue(frames >= 40, "vector frames: " + frames);
        System.out.println("KaitaiAgreementTest: " + frames + " vector frames, " + layers + " layers agree");
    }

    @Test
    void generatedMetaRoceFramesAgreeWithKaitai() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        Dissector dissector = new Dissector();
        Dissection d = new Dissection();
        List<OpcodeDef> opcodes = TestFrames.opcodes(1);
        assertEquals(31, opcodes.size(), "tver 1 opcodes in the spec");
        int frames = 0;
        for (OpcodeDef def : opcodes) {
            for (int spray = 0; spray <= 1; spray++) {
                for (int i = 0; i < ROUNDS_TVER1; i++) {
                    checkGenerated(TestFrames.roceFrame(rnd, 1, def, spray == 1, true), dissector, d);
                    frames++;
                }
            }
        }
        System.out.println("KaitaiAgreementTest: " + frames + " generated MetaRoCE frames agree");
    }

    /** Beyond the brief's tver 1: every RoCEv2 opcode, and CM MADs (the only source of mad/cm_* values). */
    @Test
    void generatedRoceV2AndCmFramesAgreeWithKaitai() {
        SplittableRandom rnd = new SplittableRandom(SEED ^ 0x5DEECE66DL);
        Dissector dissector = new Dissector();
        Dissection d = new Dissection();
        int frames = 0;
        for (OpcodeDef def : TestFrames.opcodes(0)) {
            for (int i = 0; i < ROUNDS_TVER0; i++, frames++) checkGenerated(TestFrames.roceFrame(rnd, 0, def, false, true), dissector, d);
        }
        List<EnumValueDef> cm = TestFrames.cmAttributes();
        assertEquals(6, cm.size(), "CM messages with a catalogue header");
        for (EnumValueDef a : cm) {
            for (int i = 0; i < ROUNDS_CM; i++, frames++) checkGenerated(TestFrames.cmFrame(rnd, a), dissector, d);
        }
        System.out.println("KaitaiAgreementTest: " + frames + " generated RoCEv2 and CM frames agree");
    }

    /**
     * The comparison is not vacuous: for every field of every header met in generated frames, a catalogue
     * entry moved by one byte (what an edited offset in the flyweights or the .ksy looks like from the other
     * side) disagrees with Kaitai on at least one frame.
     */
    @Test
    void aShiftedFieldIsDetected() {
        SplittableRandom rnd = new SplittableRandom(SEED ^ 0x9E3779B97F4A7C15L);
        Dissector dissector = new Dissector();
        Dissection d = new Dissection();
        Map<Integer, Boolean> detected = new TreeMap<>();
        // A one-bit field survives a move with probability 1/2 per frame: go on until every field met was caught.
        for (int round = 0; round < 60 && (round < 3 || detected.containsValue(false)); round++) {
            for (Frame f : TestFrames.generatedMix(rnd, true)) {
                f.dissect(dissector, d);
                for (Match m : match(f, d, new ArrayList<>())) {
                    for (FieldDef field : TestFrames.fieldsOf(m.header)) {
                        // One byte later (the neighbouring header, payload or ICRC is random too).
                        int by = 8;
                        if (m.offset + (field.bitOffset() + by + field.bitWidth() + 7) / 8 > d.data().byteSize()) continue;
                        FieldDef moved = new FieldDef(field.id(), field.name(), field.header(), field.label(), field.doc(),
                                field.type(), field.display(), field.bitOffset() + by, field.bitWidth(), field.mask(),
                                field.parent(), field.enumDef(), field.aliases(), field.reserved(), field.icrcVariant());
                        boolean differs = compareField(moved, d.data(), m.offset, m.kaitai) != null;
                        detected.merge(field.id(), differs, Boolean::logicalOr);
                    }
                }
            }
        }
        List<String> missed = new ArrayList<>();
        detected.forEach((id, hit) -> { if (!hit) missed.add(Spec.FIELDS.get(id).name()); });
        assertTrue(detected.size() > 150, "fields exercised: " + detected.size());
        assertTrue(missed.isEmpty(), "moving these fields by a byte went unnoticed: " + missed);
    }

    // ------------------------------------------------------------------ the comparison

    private static void checkGenerated(Frame f, Dissector dissector, Dissection d) {
        f.dissect(dissector, d);
        String ctx = context(f);
        assertEquals(String.join(":", f.expected()), d.protocols(), ctx + "protocol stack");
        boolean firstFragment = d.hasLayer(TestFrames.header("ip").index())
                && d.get(TestFrames.field("ip.flags_mf").id(), 0) == 1;
        assertEquals(firstFragment ? List.of("ip.fragment: IPv4 fragment (offset 0), not reassembled") : List.of(),
                d.expert().stream().map(e -> e.id() + ": " + e.message()).toList(), ctx + "expert items of a valid frame");
        assertEquals(IcrcStatus.GOOD, d.icrcStatus(), ctx + "ICRC");
        assertEquals(f.bthOffset(), d.bthOffset(), ctx + "BTH offset");
        assertAgree(f, d);
    }

    /** One layer of the dissection and the Kaitai object of the same header. */
    record Match(int layer, HeaderDef header, int offset, KaitaiStruct kaitai) {}

    /** Asserts the agreement; returns the number of layers compared. */
    static int assertAgree(Frame f, Dissection d) {
        List<String> problems = new ArrayList<>();
        List<Match> matches = match(f, d, problems);
        for (Match m : matches) {
            for (FieldDef field : TestFrames.fieldsOf(m.header)) {
                String p = compareField(field, d.data(), m.offset, m.kaitai);
                if (p != null) problems.add("layer " + m.layer + " (" + m.header.id() + " at " + m.offset + "): " + p);
            }
        }
        if (!problems.isEmpty()) fail(context(f) + String.join("\n  ", problems));
        return matches.size();
    }

    /**
     * Parses the frame with Kaitai and pairs every layer of the dissection with its Kaitai object; also checks
     * the ICRC and, for RoCE frames, that Kaitai found no header the dissection lacks. Problems go to problems.
     */
    static List<Match> match(Frame f, Dissection d, List<String> problems) {
        RoceFrame root;
        try {
            root = new RoceFrame(new ByteBufferKaitaiStream(f.bytes().clone()));
        } catch (RuntimeException e) {
            throw new AssertionError(context(f) + "Kaitai cannot parse the frame: " + e, e);
        }
        KaitaiIndex index = new KaitaiIndex(root);
        List<Match> out = new ArrayList<>();
        Map<Integer, Integer> occurrence = new HashMap<>();
        Map<String, Integer> layerCounts = new TreeMap<>();
        for (int i = 0; i < d.layerCount(); i++) {
            HeaderDef h = d.layer(i);
            int k = occurrence.merge(h.index(), 1, Integer::sum) - 1;
            layerCounts.merge(h.id(), 1, Integer::sum);
            if (NO_KAITAI.contains(h.id())) continue;
            Class<?> type = kaitaiType(h);
            if (type == null) {
                problems.add("no Kaitai type " + upperCamel(h.id()) + " for layer " + h.id());
                continue;
            }
            List<KaitaiStruct> objects = index.of(type);
            if (k >= objects.size()) {
                problems.add("layer " + i + " is " + h.id() + " #" + (k + 1) + " at " + d.layerOffset(i) + ", Kaitai has "
                        + objects.size() + " " + type.getSimpleName());
                continue;
            }
            if (objects.size() > 1 && index.origins(type).size() > 1) {
                problems.add("Kaitai objects of " + type.getSimpleName() + " come from several places, order unknown: "
                        + index.origins(type));
            }
            out.add(new Match(i, h, d.layerOffset(i), objects.get(k)));
        }
        List<KaitaiStruct> transports = index.of(RoceTransport.class);
        if (d.icrcStatus() != IcrcStatus.NONE && d.icrcValue() >= 0) {
            if (transports.size() != 1) problems.add("ICRC " + d.icrcStatus() + " but Kaitai has " + transports.size() + " transports");
            else if (((RoceTransport) transports.get(0)).icrc() != d.icrcValue()) {
                problems.add("icrc: dissector 0x" + Long.toHexString(d.icrcValue()) + ", Kaitai 0x"
                        + Long.toHexString(((RoceTransport) transports.get(0)).icrc()));
            }
        }
        if (d.isRoce()) {
            Map<String, Integer> kaitaiCounts = new TreeMap<>();
            for (HeaderDef h : Spec.HEADERS) {
                Class<?> type = h.pseudo() ? null : kaitaiType(h);
                if (type != null && !index.of(type).isEmpty()) kaitaiCounts.put(h.id(), index.of(type).size());
            }
            if (!kaitaiCounts.equals(layerCounts)) problems.add("headers: dissector " + layerCounts + ", Kaitai " + kaitaiCounts);
        }
        return out;
    }

    /**
     * Compares one catalogue field of the header at off: catalogue read, generated flyweight accessor and Kaitai
     * getter. Returns null when all agree, else what differs.
     */
    static String compareField(FieldDef field, MemorySegment data, int off, KaitaiStruct kaitai) {
        String name = lowerCamel(field.shortName().replace('.', '_'));
        Method getter = kaitaiGetter(kaitai.getClass(), name);
        if (getter == null) return field.name() + ": Kaitai " + kaitai.getClass().getSimpleName() + " has no " + name + "()";
        Method accessor = flyweightAccessor(Spec.HEADERS.get(field.header()), name);
        if (accessor == null) return field.name() + ": no generated flyweight accessor " + name + "(MemorySegment, long)";
        Object k = invoke(getter, kaitai);
        Object fw = invoke(accessor, null, data, (long) off);
        if (field.type() == ValueType.IPV6 || field.type() == ValueType.BYTES) {
            byte[] catalogue = field.slice(data, off).toArray(ValueLayout.JAVA_BYTE);
            byte[] kaitaiBytes = k instanceof byte[] b ? b : null;
            byte[] flyweight = fw instanceof MemorySegment s ? s.toArray(ValueLayout.JAVA_BYTE) : null;
            if (Arrays.equals(catalogue, kaitaiBytes) && Arrays.equals(catalogue, flyweight)) return null;
            return field.name() + ": catalogue " + hex(catalogue) + ", flyweight " + hex(flyweight) + ", Kaitai " + hex(kaitaiBytes);
        }
        int width = field.isSubfield() ? Long.bitCount(field.mask()) : field.bitWidth();
        long catalogue = field.readLong(data, off);
        Long kaitaiValue = number(k, width), flyweight = number(fw, width);
        if (kaitaiValue != null && kaitaiValue == catalogue && flyweight != null && flyweight == catalogue) return null;
        return field.name() + " (bits " + field.bitOffset() + "+" + field.bitWidth() + "): catalogue 0x" + Long.toHexString(catalogue)
                + ", flyweight " + hexOrNull(flyweight) + ", Kaitai " + hexOrNull(kaitaiValue) + " (" + k + ")";
    }

    private static Long number(Object v, int width) {
        long x;
        if (v instanceof Boolean b) x = b ? 1 : 0;
        else if (v instanceof Number n) x = n.longValue();
        else return null;
        return width >= 64 ? x : x & ((1L << width) - 1);
    }

    // ------------------------------------------------------------------ the Kaitai tree

    /**
     * Every KaitaiStruct reachable from the root through public no-arg getters (seq fields and instances) that
     * return a KaitaiStruct, a List of them, or Object (switch types); _root, _parent, _io and _raw_* skipped.
     */
    static final class KaitaiIndex {
        private final Map<Class<?>, List<KaitaiStruct>> byType = new HashMap<>();
        private final Map<Class<?>, Set<String>> origins = new HashMap<>();
        private final Set<KaitaiStruct> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

        KaitaiIndex(KaitaiStruct root) { walk(root, "root"); }

        private void walk(KaitaiStruct s, String origin) {
            if (!seen.add(s)) return;
            byType.computeIfAbsent(s.getClass(), c -> new ArrayList<>()).add(s);
            origins.computeIfAbsent(s.getClass(), c -> new LinkedHashSet<>()).add(origin);
            for (Method m : structGetters(s.getClass())) {
                Object v = invoke(m, s);
                String here = s.getClass().getSimpleName() + "." + m.getName();
                if (v instanceof KaitaiStruct child) walk(child, here);
                else if (v instanceof List<?> list) {
                    for (Object e : list) if (e instanceof KaitaiStruct child) walk(child, here);
                }
            }
        }

        List<KaitaiStruct> of(Class<?> type) { return byType.getOrDefault(type, List.of()); }

        Set<String> origins(Class<?> type) { return origins.getOrDefault(type, Set.of()); }
    }

    private static final Map<Class<?>, List<Method>> STRUCT_GETTERS = new ConcurrentHashMap<>();

    private static List<Method> structGetters(Class<?> c) {
        return STRUCT_GETTERS.computeIfAbsent(c, k -> Arrays.stream(k.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers()))
                .filter(m -> m.getParameterCount() == 0 && !m.getName().startsWith("_"))
                .filter(m -> KaitaiStruct.class.isAssignableFrom(m.getReturnType()) || List.class.isAssignableFrom(m.getReturnType())
                        || m.getReturnType() == Object.class)
                .sorted(Comparator.comparing(Method::getName))
                .toList());
    }

    private static final Map<String, Object> CACHE = new ConcurrentHashMap<>();
    private static final Object NONE = new Object();

    private static Class<?> kaitaiType(HeaderDef h) {
        Object c = CACHE.computeIfAbsent("k:" + h.id(), k -> load("io.metaroce.protocol.kaitai." + upperCamel(h.id())));
        return c == NONE ? null : (Class<?>) c;
    }

    private static Method kaitaiGetter(Class<?> type, String name) {
        Object m = CACHE.computeIfAbsent("g:" + type.getName() + "." + name, k -> {
            try {
                return type.getMethod(name);
            } catch (NoSuchMethodException e) {
                return NONE;
            }
        });
        return m == NONE ? null : (Method) m;
    }

    private static Method flyweightAccessor(HeaderDef h, String name) {
        Object m = CACHE.computeIfAbsent("f:" + h.id() + "." + name, k -> {
            Object c = load("io.metaroce.protocol." + upperCamel(h.id()));
            if (c == NONE) return NONE;
            try {
                Method a = ((Class<?>) c).getMethod(name, MemorySegment.class, long.class);
                return Modifier.isStatic(a.getModifiers()) && a.getReturnType() != void.class ? a : NONE;
            } catch (NoSuchMethodException e) {
                return NONE;
            }
        });
        return m == NONE ? null : (Method) m;
    }

    private static Object load(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            return NONE;
        }
    }

    private static Object invoke(Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
            throw new AssertionError(m + " threw " + e.getCause(), e.getCause());
        }
    }

    // ------------------------------------------------------------------ names and text

    /** cm_req -> CmReq, atomicacketh -> Atomicacketh (Kaitai's and the generator's class names). */
    static String upperCamel(String id) {
        String s = lowerCamel(id);
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** pad_cnt -> padCnt, syndrome_kind -> syndromeKind (Kaitai's Java getter names). */
    static String lowerCamel(String id) {
        StringBuilder b = new StringBuilder(id.length());
        boolean up = false;
        for (char c : id.toCharArray()) {
            if (c == '_') up = true;
            else {
                b.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return b.toString();
    }

    static String context(Frame f) {
        return "[seed " + SEED + "] " + f.label() + " (" + f.bytes().length + " bytes: " + HexFormat.of().formatHex(f.bytes())
                + ")\n  ";
    }

    private static String hex(byte[] b) { return b == null ? "null" : HexFormat.of().formatHex(b); }

    private static String hexOrNull(Long v) { return v == null ? "null" : "0x" + Long.toHexString(v); }
}

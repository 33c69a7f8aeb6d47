package io.metaroce.dissector;

import io.kaitai.struct.KaitaiStruct;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Spec;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The headers of one Kaitai parse (the {@code io.metaroce.protocol.kaitai.pos} parsers, compiled with
 * {@code --read-pos}), in the order the parse met them, each with its absolute byte range in the frame.
 *
 * <p>Kaitai records an attribute's range relative to the stream it was read from; a sized sub-structure (the UDP
 * payload, a MAD body) gets a stream of its own that starts at 0, so the walk carries the absolute offset of each
 * stream: a child read from a new stream starts where its parent's attribute did. The generated classes are read
 * through reflection, once per class: their {@code _seqFields}, the {@code _attrStart}/{@code _attrEnd} maps and
 * the getters, named as the catalogue's field names in lower camel case (as the agreement tests pair them).
 */
final class KaitaiLayers {
    /** A field's value and absolute byte range; start/end are -1 when Kaitai recorded none (value instances). */
    record Value(Object value, int start, int end) { }

    /** One header the parse met: its Kaitai object, the absolute offset of its stream and its byte range. */
    record Placed(HeaderDef header, KaitaiStruct struct, int base, int start, int end, int limit, String path) {
        /** The field's value and range, or null when the parse did not get that far. */
        Value value(FieldDef f) {
            String name = attributeName(f);
            Meta m = meta(struct.getClass());
            Method getter = m.getters.get(name);
            if (getter == null) return null;
            Object v;
            try {
                v = getter.invoke(struct);
            } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
                return null;     // an instance computed from a field that was never read
            }
            if (v == null) return null;
            Integer s = m.pos(struct, true, name), e = m.pos(struct, false, name);
            if (s != null && e == null && !f.isSubfield()) return null;   // the read of this field failed
            if (e != null && base + e > limit) return null;                // read from bytes the capture lacks
            return new Value(v, s == null ? -1 : base + s, e == null ? -1 : base + e);
        }
    }

    /** Frame bytes past this were not captured: a field that ends there was not read. */
    private final int limit;
    private final List<Placed> placed = new ArrayList<>();
    private final Map<Integer, List<Placed>> byHeader = new HashMap<>();
    private final List<String> failures = new ArrayList<>(0);
    /** Absolute start of the RoCE transport's payload, pad and ICRC as Kaitai read them, -1 when not read. */
    private int payloadStart = -1, padStart = -1, icrcStart = -1;

    KaitaiLayers(int capturedLength) { limit = capturedLength; }

    /** The k-th object of header h in walk order, or null. */
    Placed get(HeaderDef h, int k) {
        List<Placed> l = byHeader.get(h.index());
        return l == null || k >= l.size() ? null : l.get(k);
    }

    boolean has(HeaderDef h) { return byHeader.containsKey(h.index()); }

    /** Every header met, in walk order. */
    List<Placed> all() { return placed; }

    int payloadStart() { return payloadStart; }

    int padStart() { return padStart; }

    int icrcStart() { return icrcStart; }

    /** Why a parse stopped early ("frame: ..."), empty when every parse read to its end. */
    List<String> failures() { return failures; }

    void failure(String where, RuntimeException e) {
        failures.add(where + ": " + e.getClass().getSimpleName() + (e.getMessage() != null ? " " + e.getMessage() : ""));
    }

    /** Records s (read from a stream that starts at frame byte base) and everything under it. */
    void walk(KaitaiStruct s, int base, String path) {
        Meta m = meta(s.getClass());
        HeaderDef h = m.header;
        if (h != null) {
            Integer start = null, end = null;
            for (String name : m.seq) {
                Integer a = m.pos(s, true, name), b = m.pos(s, false, name);
                if (a != null && start == null) start = a;
                if (b != null) end = b;
            }
            if (start != null && end != null && base + start < limit) {
                Placed p = new Placed(h, s, base, base + start, Math.min(base + end, limit), limit, path);
                placed.add(p);
                byHeader.computeIfAbsent(h.index(), k -> new ArrayList<>(1)).add(p);
            }
        }
        if (s instanceof io.metaroce.protocol.kaitai.pos.RoceTransport) {
            payloadStart = readAt(s, m, base, "payload");
            padStart = readAt(s, m, base, "pad");
            icrcStart = readAt(s, m, base, "icrc");
        }
        for (String name : m.seq) {
            Method g = m.getters.get(name);
            if (g != null && m.structLike.contains(name)) child(s, m, base, path, name, invoke(g, s));
        }
        for (String name : m.instances) {
            Object v;
            try {
                v = m.getters.get(name).invoke(s);
            } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
                continue;     // e.g. a header carried at a fixed position past the end of a short message
            }
            child(s, m, base, path, name, v);
        }
    }

    /** Where attribute name was read from (absolute), or -1 when it was not read or lies past the captured bytes. */
    private int readAt(KaitaiStruct s, Meta m, int base, String name) {
        Integer a = m.pos(s, true, name), b = m.pos(s, false, name);
        return a == null || b == null || base + b > limit ? -1 : base + a;
    }

    private void child(KaitaiStruct parent, Meta m, int base, String path, String name, Object v) {
        if (v instanceof KaitaiStruct c) walk(c, childBase(parent, m, base, name, c), path + "." + name);
        else if (v instanceof List<?> list) {
            for (Object e : list) if (e instanceof KaitaiStruct c) walk(c, childBase(parent, m, base, name, c), path + "." + name);
        }
    }

    /** A child read from its parent's stream shares its base; one read from a stream of its own starts at 0. */
    private static int childBase(KaitaiStruct parent, Meta m, int base, String name, KaitaiStruct c) {
        if (c._io() == parent._io()) return base;
        Integer at = m.pos(parent, true, name);
        return at == null ? base : base + at;
    }

    private static Object invoke(Method g, Object target) {
        try {
            return g.invoke(target);
        } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
            return null;
        }
    }

    /** pad_cnt -> padCnt, mad.class_version -> madClassVersion: the Kaitai attribute of a catalogue field. */
    static String attributeName(FieldDef f) { return attributeName(f.shortName().replace('.', '_')); }

    /** A Kaitai value as the catalogue reads it: booleans 0/1, a subfield to the width of its mask. */
    static long number(Object v, FieldDef f) {
        long x;
        if (v instanceof Boolean b) x = b ? 1 : 0;
        else if (v instanceof Number n) x = n.longValue();
        else throw new IllegalArgumentException(f.name() + ": not a number: " + v);
        int width = f.isSubfield() ? Long.bitCount(f.mask()) : f.bitWidth();
        return width <= 0 || width >= 64 ? x : x & ((1L << width) - 1);
    }

    // ------------------------------------------------------------------ what reflection finds, once per class

    private static final Map<Class<?>, Meta> META = new ConcurrentHashMap<>();

    static Meta meta(Class<?> c) { return META.computeIfAbsent(c, Meta::new); }

    static final class Meta {
        final HeaderDef header;
        final List<String> seq;
        /** Seq attributes that may hold a structure (or a list of them): walked. */
        final Set<String> structLike = new LinkedHashSet<>();
        /** Instances returning a structure (headers carried at a position, CM private data): walked after the seq. */
        final List<String> instances = new ArrayList<>();
        final Map<String, Method> getters = new HashMap<>();
        private final Field attrStart, attrEnd;

        Meta(Class<?> c) {
            header = c.getEnclosingClass() == null ? headerNamed(c.getSimpleName()) : null;
            seq = Arrays.asList((String[]) staticField(c, "_seqFields"));
            attrStart = field(c, "_attrStart");
            attrEnd = field(c, "_attrEnd");
            for (Method g : c.getMethods()) {
                if (Modifier.isStatic(g.getModifiers()) || g.getParameterCount() != 0 || g.getName().startsWith("_")
                        || g.getDeclaringClass() != c) continue;
                getters.put(g.getName(), g);
                boolean struct = KaitaiStruct.class.isAssignableFrom(g.getReturnType()) || g.getReturnType() == Object.class
                        || List.class.isAssignableFrom(g.getReturnType());
                if (!struct) continue;
                if (seq.contains(g.getName())) structLike.add(g.getName());
                else instances.add(g.getName());
            }
            instances.sort(null);
        }

        /** The recorded start (or end) of attribute name in its stream, or null. */
        @SuppressWarnings("unchecked")
        Integer pos(KaitaiStruct s, boolean start, String name) {
            try {
                return ((Map<String, Integer>) (start ? attrStart : attrEnd).get(s)).get(name);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }

        private static HeaderDef headerNamed(String simpleName) {
            for (HeaderDef h : Spec.HEADERS) {
                if (h.pseudo()) continue;
                String camel = attributeName(h.id());
                if ((Character.toUpperCase(camel.charAt(0)) + camel.substring(1)).equals(simpleName)) return h;
            }
            return null;
        }

        private static Object staticField(Class<?> c, String name) {
            try {
                return c.getField(name).get(null);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(c + " was not compiled with --read-pos", e);
            }
        }

        private static Field field(Class<?> c, String name) {
            try {
                return c.getField(name);
            } catch (NoSuchFieldException e) {
                throw new IllegalStateException(c + " was not compiled with --read-pos", e);
            }
        }
    }

    private static String attributeName(String id) {
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
}

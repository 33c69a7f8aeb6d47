package io.metaroce.index;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One document of the flow index (a capture, a QP flow, or a further part of a long flow's packets, see
 * {@link FlowSchema}): field name to value, each value typed by {@link FlowSchema} ({@link FieldType} says which
 * Java type), multi-valued fields as a {@link List}, absent values left out. Immutable; backends store these and
 * give them back from a search.
 */
public final class FlowDocument {
    private final Map<String, Object> fields;

    private FlowDocument(Map<String, Object> fields) { this.fields = Collections.unmodifiableMap(fields); }

    public static Builder builder() { return new Builder(); }

    /** The unique id: {@code <capture hash>} for a capture, {@code <hash>/<flow id>#<part>} for a flow or part. */
    public String id() { return (String) fields.get(FlowSchema.ID); }

    public String kind() { return (String) fields.get(FlowSchema.KIND); }

    /** Every field with a value, in the order they were set. */
    public Map<String, Object> fields() { return fields; }

    /** The value of a field (a List for a multi-valued one), or null. */
    public Object get(String name) { return fields.get(name); }

    public Long getLong(String name) { return (Long) fields.get(name); }

    public String getString(String name) { return (String) fields.get(name); }

    /** The values of a field as a list (empty when absent, one element for a single-valued field). */
    public List<Object> values(String name) {
        Object v = fields.get(name);
        if (v == null) return List.of();
        if (v instanceof List<?> l) return Collections.unmodifiableList(new ArrayList<>(l));
        return List.of(v);
    }

    /** File offsets of this document's packet records (capture order); empty when it holds none. */
    public long[] offsets() {
        byte[] b = (byte[]) fields.get(FlowSchema.OFFSETS);
        return b == null ? new long[0] : PackedLongs.decode(b);
    }

    /** Frame numbers of this document's packets, aligned with {@link #offsets()}. */
    public long[] frames() {
        byte[] b = (byte[]) fields.get(FlowSchema.FRAMES);
        return b == null ? new long[0] : PackedLongs.decode(b);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof FlowDocument d) || !d.fields.keySet().equals(fields.keySet())) return false;
        for (var e : fields.entrySet()) {
            Object a = e.getValue(), b = d.fields.get(e.getKey());
            if (a instanceof byte[] x ? !(b instanceof byte[] y && java.util.Arrays.equals(x, y)) : !a.equals(b)) return false;
        }
        return true;
    }

    @Override
    public int hashCode() { return id() == null ? 0 : id().hashCode(); }

    @Override
    public String toString() { return "FlowDocument" + fields.keySet() + " " + id(); }

    /** Collects the fields of one document, checking each name and value against {@link FlowSchema}. */
    public static final class Builder {
        /** Sized for a flow document (about 90 fields before per-path ones), so it never rehashes on the way. */
        private Map<String, Object> fields = new LinkedHashMap<>(128);
        /** The map went to a built document: the next change works on a copy (documents are immutable). */
        private boolean handedOver;

        private Builder() {}

        /** Sets a single-valued field; a null value leaves it absent. */
        public Builder put(String name, Object value) {
            if (value == null) return this;
            FieldDef f = def(name);
            if (f.multi()) throw new IllegalArgumentException(name + " is multi-valued: use add");
            own().put(f.name(), check(f, value));
            return this;
        }

        /** Adds one value to a multi-valued field. */
        public Builder add(String name, Object value) {
            FieldDef f = def(name);
            if (!f.multi()) throw new IllegalArgumentException(name + " is single-valued: use put");
            @SuppressWarnings("unchecked")
            List<Object> l = (List<Object>) own().computeIfAbsent(f.name(), k -> new ArrayList<>());
            l.add(check(f, value));
            return this;
        }

        /**
         * The document. The builder's map becomes the document's (no copy: a flow document is built once per
         * flow on the indexing path); a builder used again afterwards continues on a copy.
         */
        public FlowDocument build() {
            if (!(fields.get(FlowSchema.ID) instanceof String)) throw new IllegalStateException("a flow document needs an id");
            if (!handedOver) fields.replaceAll((k, v) -> v instanceof List<?> l ? List.copyOf(l) : v);
            handedOver = true;
            return new FlowDocument(fields);
        }

        private Map<String, Object> own() {
            if (handedOver) {
                Map<String, Object> copy = new LinkedHashMap<>(Math.max(128, fields.size() * 2));
                fields.forEach((k, v) -> copy.put(k, v instanceof List<?> l ? new ArrayList<>(l) : v));
                fields = copy;
                handedOver = false;
            }
            return fields;
        }

        private static FieldDef def(String name) {
            FieldDef f = FlowSchema.field(name);
            if (f == null || !f.name().equals(name)) throw new IllegalArgumentException("not a field of the flow schema: " + name);
            return f;
        }

        private static Object check(FieldDef f, Object v) {
            boolean ok = switch (f.type()) {
                case LONG, TIME -> v instanceof Long;
                case DOUBLE -> v instanceof Double;
                case KEYWORD -> v instanceof String;
                case IP -> v instanceof String s && IpAddresses.parse(s) != null;
                case STORED -> v instanceof byte[];
            };
            if (!ok) throw new IllegalArgumentException(f.name() + " (" + f.type() + ") cannot hold " + v.getClass().getSimpleName() + " " + v);
            return v;
        }
    }
}

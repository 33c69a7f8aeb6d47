package io.metaroce.dissector;

import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.Spec;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One frame as a JSON object (the {@code dissect -T json/jsonl} record, and what an indexer stores):
 * {@code {"frame", "time_ns", "len", "cap_len", "protocols", "fields", "expert"}}. Fields come in the frame
 * tree's order (headers in wire order, first occurrence of each header; then the computed fields), a field that
 * occurs more than once is an array, values as {@link FieldFormat#json}. Not thread-safe (one per writer).
 *
 * <p>Everything that depends only on the frame's protocol stack (which fields, their quoted keys, the
 * "protocols" string) is worked out once per stack and kept as bytes: a capture has a handful of stacks, and a
 * frame then costs one copy per key and the formatting of its values, no object.
 */
public final class FrameJson {
    private static final Set<String> SKIPPED = Set.of("payload.data");
    /** Computed fields, after the wire headers' fields. */
    private static final List<FieldDef> TRAILING = new ArrayList<>();

    static {
        for (FieldDef f : Spec.FIELDS) {
            String h = Spec.HEADERS.get(f.header()).id();
            if (h.equals("payload") || h.equals("icrc") || h.equals("eth_fcs") || h.equals("analysis")) TRAILING.add(f);
        }
    }

    private static final byte[] FRAME = ascii("{\"frame\": "), TIME_NS = ascii(", \"time_ns\": "), LEN = ascii(", \"len\": "),
            CAP_LEN = ascii(", \"cap_len\": "), PROTOCOLS = ascii(", \"protocols\": "), FIELDS = ascii(", \"fields\": {"),
            EXPERT = ascii("}, \"expert\": ["), END = ascii("]}");
    /** A stack deeper than this is laid out frame by frame (never seen in practice; keeps the cache key exact). */
    private static final int CACHED_DEPTH = 10;

    private final ByteOut out;
    private final boolean array;
    /** Only these fields, in this order (tshark narrows its JSON to the -e fields the same way); null: all. */
    private final List<FieldDef> only;
    /** The fields and keys of -e, the same for every stack; null without -e. */
    private final Keys onlyKeys;
    private final Map<Long, Layout> layouts = new HashMap<>();
    /** The layout of the previous frame: consecutive frames mostly share their stack. */
    private Layout last;

    /** array: the object is an element of a JSON array (no newline after it); otherwise one object per line. */
    public FrameJson(ByteOut out, boolean array) {
        this(out, array, null);
    }

    /** As {@link #FrameJson(ByteOut, boolean)}, with only the given fields (null: every field). */
    public FrameJson(ByteOut out, boolean array, List<FieldDef> only) {
        this.out = out;
        this.array = array;
        this.only = only == null ? null : List.copyOf(new java.util.LinkedHashSet<>(only));
        this.onlyKeys = this.only == null ? null : new Keys(this.only);
    }

    public void frame(Dissection d, FrameFields ff) {
        Layout layout = layout(d);
        out.bytes(FRAME).num(d.number()).bytes(TIME_NS).jsonNum(d.timeNanos(), false).bytes(LEN).num(d.originalLength())
                .bytes(CAP_LEN).num(d.capturedLength()).bytes(PROTOCOLS);
        if (layout != null) out.bytes(layout.protocols);
        else out.json(d.protocols());
        out.bytes(FIELDS);
        Keys keys = onlyKeys != null ? onlyKeys : layout != null ? layout.keys : new Keys(fieldsOf(d));
        FieldDef[] fields = keys.fields;
        int skip = Keys.SEPARATOR; // the first field has no ", " before its key
        for (int i = 0; i < fields.length; i++) {
            FieldDef f = fields[i];
            int n = ff.count(f);
            if (n == 0) continue;
            byte[] key = keys.keys[i];
            out.bytes(key, skip, key.length - skip);
            skip = 0;
            if (n == 1) FieldFormat.json(out, ff, f, 0);
            else {
                out.ch('[');
                for (int k = 0; k < n; k++) {
                    if (k > 0) out.ch(',').ch(' ');
                    FieldFormat.json(out, ff, f, k);
                }
                out.ch(']');
            }
        }
        out.bytes(EXPERT);
        for (int i = 0; i < d.expert().size(); i++) {
            ExpertItem e = d.expert().get(i);
            if (i > 0) out.ascii(", ");
            out.ascii("{\"severity\": \"").ascii(e.severity().label()).ascii("\", \"group\": \"")
                    .ascii(e.group().name().toLowerCase()).ascii("\", \"message\": ").json(e.message()).ch('}');
        }
        out.bytes(END);
        if (!array) out.ch('\n');
    }

    /** The layout of d's stack, from the cache; null for a stack deeper than {@link #CACHED_DEPTH}. */
    private Layout layout(Dissection d) {
        int count = d.layerCount;
        if (count > CACHED_DEPTH) return null;
        if (last != null && last.sameStack(d)) return last;
        // The layer headers, 6 bits each, under the depth (a collision only costs a new layout: the stack is compared).
        long key = count;
        for (int i = 0; i < count; i++) key = key * 64 + d.layerHeader[i];
        Layout l = layouts.get(key);
        if (l == null || !l.sameStack(d)) {
            l = new Layout(d, only == null ? new Keys(fieldsOf(d)) : null);
            if (layouts.size() < 4096) layouts.put(key, l);
        }
        last = l;
        return l;
    }

    /** Frame-by-frame field order: headers in wire order (first occurrence of each), then computed fields. */
    private static List<FieldDef> fieldsOf(Dissection d) {
        List<FieldDef> l = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < d.layerCount(); i++) {
            var h = d.layer(i);
            if (!seen.add(h.index())) continue;
            for (int k = h.firstField(); k < h.firstField() + h.fieldCount(); k++) l.add(Spec.FIELDS.get(k));
        }
        l.addAll(TRAILING);
        l.removeIf(f -> SKIPPED.contains(f.name()));
        return l;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Fields to print and each one's key as written: {@code , "name": } (the first field skips the separator). */
    private static final class Keys {
        static final int SEPARATOR = 2;
        final FieldDef[] fields;
        final byte[][] keys;

        Keys(List<FieldDef> fields) {
            this.fields = fields.toArray(FieldDef[]::new);
            this.keys = new byte[this.fields.length][];
            // Not through a ByteOut: each has a 64 KiB buffer, and a layout has about 50 keys (dissect -T jsonl of
            // 100 k frames allocated 75 MB for them, one young collection's worth).
            for (int i = 0; i < this.fields.length; i++) {
                String key = ", \"" + this.fields[i].name() + "\": ";
                byte[] k = new byte[key.length()];
                for (int c = 0; c < k.length; c++) k[c] = (byte) key.charAt(c); // as ByteOut.ascii writes it
                keys[i] = k;
            }
        }
    }

    /** What one protocol stack fixes: its "protocols" string as JSON and (without -e) its fields. */
    private static final class Layout {
        final int[] stack;
        final byte[] protocols;
        final Keys keys;

        Layout(Dissection d, Keys keys) {
            this.stack = Arrays.copyOf(d.layerHeader, d.layerCount);
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            try (ByteOut o = new ByteOut(b)) {
                o.json(d.protocols());
            }
            this.protocols = b.toByteArray();
            this.keys = keys;
        }

        boolean sameStack(Dissection d) {
            return d.layerCount == stack.length && Arrays.equals(d.layerHeader, 0, stack.length, stack, 0, stack.length);
        }
    }
}

package io.metaroce.dissector;

import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.Spec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One frame as a JSON object (the {@code dissect -T json/jsonl} record, and what an indexer stores):
 * {@code {"frame", "time_ns", "len", "cap_len", "protocols", "fields", "expert"}}. Fields come in the frame
 * tree's order (headers in wire order, first occurrence of each header; then the computed fields), a field that
 * occurs more than once is an array, values as {@link FieldFormat#json}. Not thread-safe (one per writer).
 */
public final class FrameJson {
    private static final Set<String> SKIPPED = Set.of("payload.data");
    private final ByteOut out;
    private final boolean array;

    /** array: the object is an element of a JSON array (no newline after it); otherwise one object per line. */
    public FrameJson(ByteOut out, boolean array) {
        this.out = out;
        this.array = array;
    }

    public void frame(Dissection d, FrameFields ff) {
        out.ascii("{\"frame\": ").num(d.number()).ascii(", \"time_ns\": ").num(d.timeNanos())
                .ascii(", \"len\": ").num(d.originalLength()).ascii(", \"cap_len\": ").num(d.capturedLength())
                .ascii(", \"protocols\": ").json(d.protocols()).ascii(", \"fields\": {");
        boolean firstField = true;
        for (FieldDef f : JsonOrder.fieldsOf(d)) {
            int n = ff.count(f);
            if (n == 0 || SKIPPED.contains(f.name())) continue;
            if (!firstField) out.ascii(", ");
            firstField = false;
            out.ch('"').ascii(f.name()).ascii("\": ");
            if (n == 1) FieldFormat.json(out, ff, f, 0);
            else {
                out.ch('[');
                for (int k = 0; k < n; k++) {
                    if (k > 0) out.ascii(", ");
                    FieldFormat.json(out, ff, f, k);
                }
                out.ch(']');
            }
        }
        out.ascii("}, \"expert\": [");
        for (int i = 0; i < d.expert().size(); i++) {
            ExpertItem e = d.expert().get(i);
            if (i > 0) out.ascii(", ");
            out.ascii("{\"severity\": \"").ascii(e.severity().label()).ascii("\", \"group\": \"")
                    .ascii(e.group().name().toLowerCase()).ascii("\", \"message\": ").json(e.message()).ch('}');
        }
        out.ascii("]}");
        if (!array) out.ch('\n');
    }

    /** Frame-by-frame field order: headers in wire order, then computed fields. Cached per protocol stack (per thread). */
    static final class JsonOrder {
        private static final ThreadLocal<Map<Long, List<FieldDef>>> CACHE = ThreadLocal.withInitial(java.util.HashMap::new);
        private static final List<FieldDef> TRAILING = new ArrayList<>();

        static {
            for (FieldDef f : Spec.FIELDS) {
                String h = Spec.HEADERS.get(f.header()).id();
                if (h.equals("payload") || h.equals("icrc") || h.equals("eth_fcs") || h.equals("analysis")) TRAILING.add(f);
            }
        }

        static List<FieldDef> fieldsOf(Dissection d) {
            // Key: the layer headers, 6 bits each (a stack deeper than 10 layers is simply not cached).
            long key = d.layerCount();
            for (int i = 0; i < d.layerCount() && i < 10; i++) key = key * 64 + d.layerHeader(i);
            Map<Long, List<FieldDef>> cache = CACHE.get();
            List<FieldDef> l = d.layerCount() <= 10 ? cache.get(key) : null;
            if (l != null) return l;
            l = new ArrayList<>();
            Set<Integer> seen = new HashSet<>();
            for (int i = 0; i < d.layerCount(); i++) {
                var h = d.layer(i);
                if (!seen.add(h.index())) continue;
                for (int k = h.firstField(); k < h.firstField() + h.fieldCount(); k++) l.add(Spec.FIELDS.get(k));
            }
            l.addAll(TRAILING);
            if (d.layerCount() <= 10 && cache.size() < 4096) cache.put(key, l);
            return l;
        }
    }
}

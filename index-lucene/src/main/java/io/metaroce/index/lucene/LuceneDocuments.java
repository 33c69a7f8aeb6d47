package io.metaroce.index.lucene;

import io.metaroce.index.FieldDef;
import io.metaroce.index.FieldType;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.IpAddresses;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoubleDocValuesField;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.InetAddressPoint;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.util.BytesRef;

/**
 * The Lucene form of a {@link FlowDocument}. The whole document is stored once, as one value
 * ({@link StoredFlows}); each field is indexed as its type needs: KEYWORD as a term plus sorted-set doc values
 * (facet groups, sort by id); IP as an InetAddressPoint plus its 16 bytes in sorted-set doc values (CIDR ranges,
 * facet groups); DOUBLE as a point plus doc values. Numbers: the fields a query leads with ({@link #pointed}:
 * times, the QP, the multi-valued lists) get a point (BKD tree) plus doc values; every other counter gets doc
 * values with a skip index only, and a range on it runs over the doc values ({@link LuceneQueries}). A counter
 * query is either a filter beside a selective clause (the doc values check the few candidates) or a scan of one
 * column; a point per counter cost more at indexing (sixty BKD trees per segment) than it ever saved there.
 * The usual counters of a flow document get no doc value when 0 ({@link #SPARSE_COUNTERS}).
 *
 * <p>A part document (a long flow's further packet lists) is stored whole like any other, but indexed only by the
 * fields that queries reach it by ({@link #ON_PART}): every search, facet and sort runs on flow documents alone.
 */
final class LuceneDocuments {
    /** The single-valued LONG fields that are points as well as doc values. */
    private static final Set<String> POINTED = Set.of(FlowSchema.DEST_QP, FlowSchema.PART, FlowSchema.PARTS);
    /**
     * The counters every flow document carries ({@code FlowDocuments} writes each for every flow) and that are 0 on
     * most flows: of the bundled samples' 233 flows, the median one had 33 of these 38 at 0. A flow document gets no
     * doc value for such a 0 (each doc value costs at indexing, at flush and at every merge, whatever it holds);
     * {@link LuceneQueries}, the sort and {@link ExactFacet} read "a flow document without the doc value" as 0. A flow
     * document without the field itself (possible through the API, never from {@code metaroce index}) says so
     * with an {@link #ABSENT} term, so that it still matches nothing but {@code NOT}, as {@code FlowQueryMatcher}
     * has it. Nullable counters ({@code ce_without_cnp}, {@code goodput_bps}, latencies, per-path fields) keep
     * every value: their absence is common, so marking it would cost what leaving out the zeros saves.
     */
    static final List<String> SPARSE_COUNTERS = List.of("packets", "bytes", "data_packets", "payload_bytes", "messages",
            "messages_completed", "retransmitted_packets", "retransmissions_by_cause.nak", "retransmissions_by_cause.nack",
            "retransmissions_by_cause.sack", "retransmissions_by_cause.timeout", "retransmissions_by_cause.rnr",
            "spurious_retransmissions", "spurious_unknown", "inferred_retransmissions", "repeated_responses",
            "timeout_retransmissions", "timeouts", "out_of_order", "duplicates", "psn_gaps", "capture_gaps",
            "network_losses", "acks", "naks", "nak_errors", "rnr_naks", "sacks", "nacks", "cnps", "mr_cnps", "ce_marks",
            "credit_stalls", "read_responses", "unattributed_control", "truncated_frames", "unjudged_frames",
            "unique_payload_bytes");
    private static final Set<String> SPARSE = Set.copyOf(SPARSE_COUNTERS);
    /** The term field naming the {@link #SPARSE_COUNTERS} a flow document does not have (not a schema name). */
    static final String ABSENT = "_absent";

    static {
        for (String n : SPARSE_COUNTERS) {
            FieldDef f = FlowSchema.field(n);
            if (f == null || f.type() != FieldType.LONG || f.multi() || pointed(f)) throw new IllegalStateException("not a plain counter: " + n);
        }
    }

    /**
     * The fields a part document is indexed by, each as a flow document indexes it (Lucene wants one schema per
     * field name in every document that has it); a part's other fields (its flow's and capture's identity, repeated
     * from the flow document) are in its stored value only. WHY: searches, facets and sorts run on flow documents
     * alone ({@code FlowIndexQueries.flows}); a part is reached only by its capture (the replace and delete terms
     * {@code capture_path}, {@code capture_hash}), its flow ({@code root_id}, sorted by {@code part}), the expiry
     * ({@code capture_last_ns}, {@code indexed_at_ns}) and its {@code kind} and {@code id}. Indexing the other
     * sixteen fields (a term and a sorted-set doc value per keyword, a point and a doc value per time and QP, the IPs)
     * was cold code for every part at the end of a run: the 98 parts of the 1 M-frame capture cost some 0.07 s of CPU
     * after the pass (docs/benchmarks.md, "helper ixcpu, eighteenth session").
     */
    static final Set<String> ON_PART = Set.of(FlowSchema.ID, FlowSchema.KIND, FlowSchema.ROOT_ID, FlowSchema.PART,
            FlowSchema.CAPTURE_PATH, FlowSchema.CAPTURE_HASH, FlowSchema.CAPTURE_LAST, FlowSchema.INDEXED_AT);

    private LuceneDocuments() {}

    /** Whether a flow document leaves this counter's doc value out when it is 0 ({@link #SPARSE_COUNTERS}). */
    static boolean sparse(FieldDef f) { return SPARSE.contains(f.name()); }

    /** Whether a numeric field has a point (else a range on it runs on its doc values). */
    static boolean pointed(FieldDef f) {
        return f.type() != FieldType.LONG || f.multi() || POINTED.contains(f.name());
    }

    static Document toLucene(FlowDocument d) { return new Converter().toLucene(d); }

    /**
     * Converts the documents of one block, one after the other: the stored value is encoded into one buffer
     * reused for every document, so each document must be handed to Lucene (which copies the bytes) before the
     * next is converted, as {@code IndexWriter.updateDocuments} does with an iteration. Not thread-safe.
     *
     * <p>Each field name is worked out once ({@link Plan}: how it is indexed, the bytes of its code in the stored
     * value), not at every value: the conversion was about 6 us of CPU per document, a tenth of what indexing one
     * costs, most of it looking the same names up again (schema, stored code) and encoding each keyword to UTF-8
     * twice (the term, then the stored value).
     */
    static final class Converter {
        private final StoredFlows.Encoder stored = new StoredFlows.Encoder();
        /** Plans of the names that are not fixed fields (the per-path ones), made as they come. */
        private final Map<String, Plan> others = new HashMap<>();
        /** The document handed to Lucene: cleared and filled again for each flow document (see {@link #reused}). */
        private final Document doc = new Document();
        /** The reused fields: two per plan slot (a pointed counter's point, then its doc value). */
        private Field[] reused = new Field[2 * FIXED_PLANS.size()];
        private final StoredField storedFlow = new StoredField(StoredFlows.FIELD, new BytesRef());

        /**
         * The Lucene document of {@code d}, valid until the next call: the single-valued fields (keywords, counters,
         * points, packed lists kept apart) are the same {@link Field} instances from one document to the next, their
         * values set in place, as Lucene allows once a document is indexed ({@code IndexWriter} takes a block's
         * documents one at a time from its iteration and copies what it keeps). WHY: making about 60 field objects,
         * their BytesRefs and the document's list anew per document was a share of the conversion's 6 us per document
         * and of the young collections' work (docs/benchmarks.md, "helper docs, sixteenth session").
         * A map has each name once, so each slot's field is in a document at most once.
         */
        Document toLucene(FlowDocument d) {
            Document doc = this.doc;
            doc.clear();
            stored.reset();
            boolean flow = FlowSchema.KIND_FLOW.equals(d.kind());
            boolean part = !flow && FlowSchema.KIND_PART.equals(d.kind());
            int sparse = 0;
            for (var e : d.fields().entrySet()) {
                Plan p = plan(e.getKey());
                FieldDef f = p.field();
                String n = f.name();
                Object v = e.getValue();
                int at = 2 * p.slot();
                if (part && !p.onPart()) { // stored only (ON_PART)
                    stored(p, v);
                    continue;
                }
                switch (p.kind()) {
                    case AS_PACKED -> {
                        byte[] b = (byte[]) v;
                        if (StoredFlows.apart(f, b)) {
                            Field x = reused[at];
                            if (x == null) reused[at] = x = new BinaryDocValuesField(n, new BytesRef(b));
                            else x.setBytesValue(new BytesRef(b));
                            doc.add(x);
                            stored.placeholder(f);
                        } else {
                            stored.inline(f, b);
                        }
                    }
                    case AS_KEYWORD -> {
                        String t = (String) v;
                        byte[] b = t.getBytes(StandardCharsets.UTF_8);
                        Field x = reused[at];
                        if (x == null) reused[at] = x = new KeywordField(n, new BytesRef(), Field.Store.NO);
                        // As many bytes as chars: ASCII, where Java's UTF-8 and Lucene's are the same bytes (they
                        // differ on a lone surrogate, which the term keeps in Lucene's form, as queries make it).
                        BytesRef r = x.binaryValue();
                        if (b.length == t.length()) {
                            r.bytes = b;
                            r.offset = 0;
                            r.length = b.length;
                        } else {
                            BytesRef lucene = new BytesRef(t);
                            r.bytes = lucene.bytes;
                            r.offset = lucene.offset;
                            r.length = lucene.length;
                        }
                        doc.add(x);
                        stored.utf8Field(p.header(), b);
                    }
                    case AS_SPARSE -> {
                        sparse++;
                        long x = (Long) v;
                        if (x != 0 || !flow) doc.add(docValue(at, n, x));
                        stored.longField(p.header(), x);
                    }
                    case AS_COUNTER -> {
                        long x = (Long) v;
                        doc.add(docValue(at, n, x));
                        stored.longField(p.header(), x);
                    }
                    case AS_POINTED -> {
                        long x = (Long) v;
                        Field point = reused[at], value = reused[at + 1];
                        if (point == null) {
                            reused[at] = point = new LongPoint(n, x);
                            reused[at + 1] = value = new NumericDocValuesField(n, x);
                        } else {
                            point.setLongValue(x);
                            value.setLongValue(x);
                        }
                        doc.add(point);
                        doc.add(value);
                        stored.longField(p.header(), x);
                    }
                    default -> { // multi-valued fields, IPs, doubles: made anew, as they always were
                        if (v instanceof List<?> l) for (Object x : l) add(doc, f, x, false);
                        else add(doc, f, v, flow);
                        stored.field(f, v);
                    }
                }
            }
            if (flow && sparse < SPARSE_COUNTERS.size()) {
                Map<String, Object> fields = d.fields();
                for (String n : SPARSE_COUNTERS) if (!fields.containsKey(n)) doc.add(new StringField(ABSENT, n, Field.Store.NO));
            }
            storedFlow.setBytesValue(stored.bytes());
            doc.add(storedFlow);
            return doc;
        }

        /** {@code v} into the stored value alone, as {@link #toLucene} stores it beside indexing it. */
        private void stored(Plan p, Object v) {
            switch (p.kind()) {
                case AS_KEYWORD -> stored.utf8Field(p.header(), ((String) v).getBytes(StandardCharsets.UTF_8));
                case AS_SPARSE, AS_COUNTER, AS_POINTED -> stored.longField(p.header(), (Long) v);
                default -> stored.field(p.field(), v);
            }
        }

        /** The reused doc value with a skip index of a plain counter, set to {@code x}. */
        private Field docValue(int at, String n, long x) {
            Field f = reused[at];
            if (f == null) reused[at] = f = NumericDocValuesField.indexedField(n, x);
            else f.setLongValue(x);
            return f;
        }

        private Plan plan(String name) {
            Plan p = FIXED_PLANS.get(name);
            if (p != null) return p;
            p = others.get(name);
            if (p == null) {
                if (others.size() >= 10_000) { // path ids are few; a bound all the same
                    others.clear();
                    reused = Arrays.copyOf(reused, 2 * FIXED_PLANS.size());
                }
                p = Plan.of(FlowSchema.field(name), FIXED_PLANS.size() + others.size());
                others.put(name, p);
                if (2 * p.slot() + 2 > reused.length) reused = Arrays.copyOf(reused, Math.max(2 * p.slot() + 2, 2 * reused.length));
            }
            return p;
        }
    }

    private static final int AS_PACKED = 0, AS_KEYWORD = 1, AS_SPARSE = 2, AS_COUNTER = 3, AS_POINTED = 4, AS_OTHER = 5;

    /**
     * How a field is converted ({@link #AS_PACKED} ... {@link #AS_OTHER}), the bytes of its code in the stored value,
     * and its slot among a converter's reused fields.
     */
    private record Plan(FieldDef field, int kind, byte[] header, int slot, boolean onPart) {
        static Plan of(FieldDef f, int slot) {
            int kind;
            if (StoredFlows.packed(f)) kind = AS_PACKED;
            else if (f.multi()) kind = AS_OTHER;
            else kind = switch (f.type()) {
                case KEYWORD -> AS_KEYWORD;
                case LONG, TIME -> pointed(f) ? AS_POINTED : sparse(f) ? AS_SPARSE : AS_COUNTER;
                default -> AS_OTHER;
            };
            return new Plan(f, kind, StoredFlows.header(f), slot, kind == AS_PACKED || ON_PART.contains(f.name()));
        }
    }

    private static final Map<String, Plan> FIXED_PLANS = new HashMap<>();

    static {
        for (FieldDef f : FlowSchema.fields()) FIXED_PLANS.put(f.name(), Plan.of(f, FIXED_PLANS.size()));
    }

    /** @param flow whether {@code doc} is a flow document (where a sparse counter's 0 is left out) */
    private static void add(Document doc, FieldDef f, Object v, boolean flow) {
        String n = f.name();
        switch (f.type()) {
            case KEYWORD -> doc.add(new KeywordField(n, (String) v, Field.Store.NO));
            case LONG, TIME -> {
                long x = (Long) v;
                if (!pointed(f)) {
                    if (x == 0 && flow && sparse(f)) return;
                    doc.add(NumericDocValuesField.indexedField(n, x));
                    return;
                }
                doc.add(new LongPoint(n, x));
                doc.add(f.multi() ? new SortedNumericDocValuesField(n, x) : new NumericDocValuesField(n, x));
            }
            case DOUBLE -> {
                double x = (Double) v;
                doc.add(new DoublePoint(n, x));
                doc.add(new DoubleDocValuesField(n, x));
            }
            case IP -> {
                InetAddress a = IpAddresses.parse((String) v);
                doc.add(new InetAddressPoint(n, a));
                doc.add(new SortedSetDocValuesField(n, new BytesRef(IpAddresses.to16(a))));
            }
            case STORED -> { /* in the stored document only (or apart from it, in a binary doc value) */ }
        }
    }

    /**
     * The flow document read back from its stored value and the binary doc values of the fields kept
     * {@link StoredFlows#apart} from it.
     *
     * @param leaf the segment that holds the document, {@code doc} its number there
     */
    static FlowDocument fromLucene(Document stored, LeafReader leaf, int doc) throws IOException {
        BytesRef r = stored.getBinaryValue(StoredFlows.FIELD);
        if (r == null) throw new IllegalStateException("a document without its stored flow (written by an older metaroce?)");
        IOException[] failed = {null};
        FlowDocument d = StoredFlows.decode(r.bytes, r.offset, r.length, name -> {
            try {
                // A new iterator per value: hits come in the query's order, and an iterator only moves forward.
                BinaryDocValues v = leaf.getBinaryDocValues(name);
                if (v == null || !v.advanceExact(doc)) return null;
                BytesRef b = v.binaryValue();
                return Arrays.copyOfRange(b.bytes, b.offset, b.offset + b.length);
            } catch (IOException e) {
                failed[0] = e;
                return new byte[0];
            }
        });
        if (failed[0] != null) throw failed[0];
        return d;
    }
}

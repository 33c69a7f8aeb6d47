package io.metaroce.index.lucene;

import io.metaroce.index.FacetBucket;
import io.metaroce.index.FieldDef;
import io.metaroce.index.FieldType;
import io.metaroce.index.IpAddresses;
import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.util.BytesRef;

/**
 * An exact top-N facet: visits every matching document once, reading the group field and the counter from doc
 * values, and sums per group value. Exact by construction (no per-segment or per-shard cut-off), which is what
 * an operator comparing QPs needs; cost is linear in the matching flows.
 */
final class ExactFacet implements CollectorManager<ExactFacet.Sums, List<FacetBucket>> {
    private final FieldDef group, counter;
    private final int n;

    ExactFacet(FieldDef group, FieldDef counter, int n) {
        if (!group.groupable()) throw new IllegalArgumentException("'" + group.name() + "' cannot group a facet: use a keyword, integer or IP field");
        if (!counter.summable()) throw new IllegalArgumentException("'" + counter.name() + "' cannot be summed: use a counter (an integer field)");
        this.group = group;
        this.counter = counter;
        this.n = n;
    }

    @Override
    public Sums newCollector() { return new Sums(); }

    @Override
    public List<FacetBucket> reduce(Collection<Sums> all) {
        Map<Object, long[]> merged = new HashMap<>();
        for (Sums s : all) s.totals().forEach((k, v) -> {
            long[] t = merged.computeIfAbsent(k, x -> new long[2]);
            t[0] += v[0];
            t[1] += v[1];
        });
        List<FacetBucket> out = new ArrayList<>(merged.size());
        merged.forEach((k, v) -> out.add(new FacetBucket(k, v[0], v[1])));
        out.sort(FacetBucket.ORDER);
        return out.size() > n ? List.copyOf(out.subList(0, n)) : out;
    }

    /** Sums of one slice of the index: group value to {sum, flows}. */
    final class Sums implements Collector {
        final Map<Object, long[]> totals = new HashMap<>();
        /** Integer groups of every leaf of this slice, in a primitive table (no boxing per document). */
        private final LongSums byValue = new LongSums();

        @Override
        public ScoreMode scoreMode() { return ScoreMode.COMPLETE_NO_SCORES; }

        @Override
        public LeafCollector getLeafCollector(LeafReaderContext ctx) throws IOException {
            NumericDocValues count = DocValues.getNumeric(ctx.reader(), counter.name());
            if (group.type() == FieldType.LONG) {
                if (LuceneDocuments.sparse(group)) {
                    // A flow without the group counter's doc value holds it at 0: it counts in the group 0.
                    NumericDocValues values = DocValues.getNumeric(ctx.reader(), group.name());
                    SparseCounter.Zeros zeros = new SparseCounter.Zeros(ctx.reader(), group.name());
                    return new Leaf() {
                        @Override
                        public void collect(int doc) throws IOException {
                            long c = count.advanceExact(doc) ? count.longValue() : 0;
                            if (values.advanceExact(doc)) byValue.add(values.longValue(), c);
                            else if (zeros.zero(doc)) byValue.add(0, c);
                        }
                    };
                }
                SortedNumericDocValues g = DocValues.getSortedNumeric(ctx.reader(), group.name());
                NumericDocValues single = DocValues.unwrapSingleton(g);
                if (single != null) {
                    return new Leaf() {
                        @Override
                        public void collect(int doc) throws IOException {
                            if (single.advanceExact(doc)) byValue.add(single.longValue(), count.advanceExact(doc) ? count.longValue() : 0);
                        }
                    };
                }
                return new Leaf() {
                    @Override
                    public void collect(int doc) throws IOException {
                        if (!g.advanceExact(doc)) return;
                        long c = count.advanceExact(doc) ? count.longValue() : 0;
                        for (int i = 0, k = g.docValueCount(); i < k; i++) byValue.add(g.nextValue(), c);
                    }
                };
            }
            // Keywords and IPs: sum per ordinal of the segment in two arrays, resolve the ordinals at its end.
            SortedSetDocValues g = DocValues.getSortedSet(ctx.reader(), group.name());
            int ords = (int) Math.min(Integer.MAX_VALUE - 8, g.getValueCount());
            long[] sums = new long[ords], flows = new long[ords];
            return new Leaf() {
                @Override
                public void collect(int doc) throws IOException {
                    if (!g.advanceExact(doc)) return;
                    long c = count.advanceExact(doc) ? count.longValue() : 0;
                    for (int i = 0, k = g.docValueCount(); i < k; i++) {
                        int o = (int) g.nextOrd();
                        sums[o] += c;
                        flows[o]++;
                    }
                }

                @Override
                public void finish() throws IOException {
                    for (int o = 0; o < ords; o++) {
                        if (flows[o] == 0) continue;
                        Object key = ordKey(g, group, o);
                        long[] t = totals.computeIfAbsent(key, x -> new long[2]);
                        t[0] += sums[o];
                        t[1] += flows[o];
                    }
                }
            };
        }

        /** Every group of the slice, the integer ones boxed once each here rather than once per document. */
        Map<Object, long[]> totals() {
            byValue.forEach((k, sum, n) -> {
                long[] t = totals.computeIfAbsent(k, x -> new long[2]);
                t[0] += sum;
                t[1] += n;
            });
            byValue.clear();
            return totals;
        }
    }

    /** An open-addressing table from a long to a sum and a count (the integer facet groups: QPs, path ids). */
    static final class LongSums {
        private long[] keys = new long[1024], sums = new long[1024], counts = new long[1024];
        private boolean[] used = new boolean[1024];
        private int size;

        void add(long key, long c) {
            int mask = keys.length - 1, i = (int) mix(key) & mask;
            while (used[i] && keys[i] != key) i = (i + 1) & mask;
            if (!used[i]) {
                used[i] = true;
                keys[i] = key;
                if (++size * 2 > keys.length) {
                    grow(); // rehashes the new key too; the add below finds it there
                    add(key, c);
                    return;
                }
            }
            sums[i] += c;
            counts[i]++;
        }

        private static long mix(long k) {
            k *= 0x9E3779B97F4A7C15L;
            return k ^ (k >>> 32);
        }

        private void grow() {
            long[] k = keys, s = sums, c = counts;
            boolean[] u = used;
            keys = new long[k.length * 2];
            sums = new long[k.length * 2];
            counts = new long[k.length * 2];
            used = new boolean[k.length * 2];
            size = 0;
            int mask = keys.length - 1;
            for (int j = 0; j < k.length; j++) {
                if (!u[j]) continue;
                int i = (int) mix(k[j]) & mask;
                while (used[i]) i = (i + 1) & mask;
                used[i] = true;
                keys[i] = k[j];
                sums[i] = s[j];
                counts[i] = c[j];
                size++;
            }
        }

        interface Entry {
            void accept(long key, long sum, long count);
        }

        void forEach(Entry e) {
            for (int i = 0; i < keys.length; i++) if (used[i]) e.accept(keys[i], sums[i], counts[i]);
        }

        void clear() {
            java.util.Arrays.fill(used, false);
            size = 0;
        }
    }

    /** The value of a keyword or IP field's segment ordinal as the analysis prints it (an IP as its text). */
    static Object ordKey(SortedSetDocValues g, FieldDef field, long ord) throws IOException {
        BytesRef b = g.lookupOrd(ord);
        return field.type() == FieldType.IP
                ? IpAddresses.text(InetAddress.getByAddress(unmap(BytesRef.deepCopyOf(b).bytes)))
                : b.utf8ToString();
    }

    /**
     * A group field's values of one segment's documents (asked in order), each as a long: an integer field's value
     * itself, a keyword or IP field's segment ordinal ({@link #key} turns either into the bucket key). What
     * {@link PairFacet} reads per document; the single-field facet above keeps its own loops, tuned per case.
     */
    abstract static class GroupValues {
        /** Positions on a document: how many values it holds (0: none, not grouped). */
        abstract int advance(int doc) throws IOException;

        /** The next of the document's values. */
        abstract long next() throws IOException;

        /** The bucket key of a value this segment gave. */
        abstract Object key(long value) throws IOException;

        static GroupValues of(LeafReaderContext ctx, FieldDef field) throws IOException {
            if (field.type() == FieldType.LONG) {
                if (LuceneDocuments.sparse(field)) {
                    // A flow without the sparse counter's doc value holds it at 0: it groups under 0, as top does.
                    NumericDocValues values = DocValues.getNumeric(ctx.reader(), field.name());
                    SparseCounter.Zeros zeros = new SparseCounter.Zeros(ctx.reader(), field.name());
                    return new GroupValues() {
                        private long value;

                        @Override
                        int advance(int doc) throws IOException {
                            if (values.advanceExact(doc)) value = values.longValue();
                            else if (zeros.zero(doc)) value = 0;
                            else return 0;
                            return 1;
                        }

                        @Override
                        long next() { return value; }

                        @Override
                        Object key(long v) { return v; }
                    };
                }
                SortedNumericDocValues g = DocValues.getSortedNumeric(ctx.reader(), field.name());
                return new GroupValues() {
                    @Override
                    int advance(int doc) throws IOException { return g.advanceExact(doc) ? g.docValueCount() : 0; }

                    @Override
                    long next() throws IOException { return g.nextValue(); }

                    @Override
                    Object key(long v) { return v; }
                };
            }
            SortedSetDocValues g = DocValues.getSortedSet(ctx.reader(), field.name());
            return new GroupValues() {
                @Override
                int advance(int doc) throws IOException { return g.advanceExact(doc) ? g.docValueCount() : 0; }

                @Override
                long next() throws IOException { return g.nextOrd(); }

                @Override
                Object key(long ord) throws IOException { return ordKey(g, field, ord); }
            };
        }
    }

    /** An IPv4-mapped address back to its 4 bytes, so it prints as the analysis prints it. */
    private static byte[] unmap(byte[] b16) {
        for (int i = 0; i < 10; i++) if (b16[i] != 0) return b16;
        if ((b16[10] & 0xFF) != 0xFF || (b16[11] & 0xFF) != 0xFF) return b16;
        return java.util.Arrays.copyOfRange(b16, 12, 16);
    }

    abstract static class Leaf implements LeafCollector {
        @Override
        public void setScorer(Scorable scorer) {}
    }
}

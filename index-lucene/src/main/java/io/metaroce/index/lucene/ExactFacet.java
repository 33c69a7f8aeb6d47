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
        for (Sums s : all) s.totals.forEach((k, v) -> {
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

        @Override
        public ScoreMode scoreMode() { return ScoreMode.COMPLETE_NO_SCORES; }

        @Override
        public LeafCollector getLeafCollector(LeafReaderContext ctx) throws IOException {
            NumericDocValues count = DocValues.getNumeric(ctx.reader(), counter.name());
            if (group.type() == FieldType.LONG) {
                SortedNumericDocValues g = DocValues.getSortedNumeric(ctx.reader(), group.name());
                return new Leaf() {
                    @Override
                    public void collect(int doc) throws IOException {
                        if (!g.advanceExact(doc)) return;
                        long c = count.advanceExact(doc) ? count.longValue() : 0;
                        for (int i = 0, k = g.docValueCount(); i < k; i++) credit(g.nextValue(), c);
                    }
                };
            }
            // Keywords and IPs: sum per ordinal within the segment, resolve the ordinals to values at its end.
            SortedSetDocValues g = DocValues.getSortedSet(ctx.reader(), group.name());
            Map<Long, long[]> byOrd = new HashMap<>();
            return new Leaf() {
                @Override
                public void collect(int doc) throws IOException {
                    if (!g.advanceExact(doc)) return;
                    long c = count.advanceExact(doc) ? count.longValue() : 0;
                    for (int i = 0, k = g.docValueCount(); i < k; i++) {
                        long[] t = byOrd.computeIfAbsent(g.nextOrd(), x -> new long[2]);
                        t[0] += c;
                        t[1]++;
                    }
                }

                @Override
                public void finish() throws IOException {
                    for (var e : byOrd.entrySet()) {
                        BytesRef b = g.lookupOrd(e.getKey());
                        Object key = group.type() == FieldType.IP
                                ? IpAddresses.text(InetAddress.getByAddress(unmap(BytesRef.deepCopyOf(b).bytes)))
                                : b.utf8ToString();
                        long[] t = totals.computeIfAbsent(key, x -> new long[2]);
                        t[0] += e.getValue()[0];
                        t[1] += e.getValue()[1];
                    }
                }
            };
        }

        private void credit(Object key, long c) {
            long[] t = totals.computeIfAbsent(key, x -> new long[2]);
            t[0] += c;
            t[1]++;
        }
    }

    /** An IPv4-mapped address back to its 4 bytes, so it prints as the analysis prints it. */
    private static byte[] unmap(byte[] b16) {
        for (int i = 0; i < 10; i++) if (b16[i] != 0) return b16;
        if ((b16[10] & 0xFF) != 0xFF || (b16[11] & 0xFF) != 0xFF) return b16;
        return java.util.Arrays.copyOfRange(b16, 12, 16);
    }

    private abstract static class Leaf implements LeafCollector {
        @Override
        public void setScorer(Scorable scorer) {}
    }
}

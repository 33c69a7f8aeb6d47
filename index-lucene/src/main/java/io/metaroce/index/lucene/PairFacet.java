package io.metaroce.index.lucene;

import io.metaroce.index.Connection;
import io.metaroce.index.FieldDef;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.ScoreMode;

/**
 * The exact connections facet ({@link io.metaroce.index.FlowIndex#connections}): as {@link ExactFacet}, every matching
 * document visited once through doc values, but grouped by a pair of values. Per segment the pair is two longs
 * ({@link ExactFacet.GroupValues}: integers, or keyword/IP ordinals) in a primitive table, so the per-document work
 * allocates nothing; the pairs become keys once per segment, at its end.
 */
final class PairFacet implements CollectorManager<PairFacet.Pairs, List<Connection>> {
    private final FieldDef from, to;
    private final List<FieldDef> counters;
    private final int n;

    PairFacet(FieldDef from, FieldDef to, List<FieldDef> counters, int n) {
        Connection.check(from, to, counters);
        this.from = from;
        this.to = to;
        this.counters = List.copyOf(counters);
        this.n = n;
    }

    @Override
    public Pairs newCollector() { return new Pairs(); }

    @Override
    public List<Connection> reduce(Collection<Pairs> all) {
        Map<List<Object>, long[]> merged = new HashMap<>();
        for (Pairs p : all) p.totals.forEach((k, v) -> add(merged, k, v));
        List<Connection> out = new ArrayList<>(merged.size());
        merged.forEach((k, v) -> {
            List<Long> sums = new ArrayList<>(counters.size());
            for (int i = 1; i < v.length; i++) sums.add(v[i]);
            out.add(new Connection(k.get(0), k.get(1), v[0], sums));
        });
        return Connection.top(out, n);
    }

    private static void add(Map<List<Object>, long[]> into, List<Object> key, long[] v) {
        long[] t = into.get(key);
        if (t == null) into.put(key, t = new long[v.length]);
        for (int i = 0; i < v.length; i++) t[i] += v[i];
    }

    /** The pairs of one slice of the index: (from, to) to {flows, sum of each counter}. */
    final class Pairs implements Collector {
        final Map<List<Object>, long[]> totals = new HashMap<>();

        @Override
        public ScoreMode scoreMode() { return ScoreMode.COMPLETE_NO_SCORES; }

        @Override
        public LeafCollector getLeafCollector(LeafReaderContext ctx) throws IOException {
            ExactFacet.GroupValues a = ExactFacet.GroupValues.of(ctx, from), b = ExactFacet.GroupValues.of(ctx, to);
            NumericDocValues[] count = new NumericDocValues[counters.size()];
            for (int i = 0; i < count.length; i++) count[i] = DocValues.getNumeric(ctx.reader(), counters.get(i).name());
            long[] c = new long[count.length];
            PairSums table = new PairSums(count.length);
            return new ExactFacet.Leaf() {
                /** The second field's values of a multi-valued document, reused (no allocation per document). */
                private long[] bs = new long[8];

                @Override
                public void collect(int doc) throws IOException {
                    int na = a.advance(doc);
                    if (na == 0) return;
                    int nb = b.advance(doc);
                    if (nb == 0) return;
                    for (int i = 0; i < c.length; i++) c[i] = count[i].advanceExact(doc) ? count[i].longValue() : 0;
                    if (na == 1 && nb == 1) {
                        table.add(a.next(), b.next(), c);
                        return;
                    }
                    // Multi-valued: every pair of the flow's values (the values of b read once, then crossed).
                    if (bs.length < nb) bs = new long[Math.max(nb, 2 * bs.length)];
                    for (int j = 0; j < nb; j++) bs[j] = b.next();
                    for (int i = 0; i < na; i++) {
                        long x = a.next();
                        for (int j = 0; j < nb; j++) table.add(x, bs[j], c);
                    }
                }

                @Override
                public void finish() throws IOException {
                    table.forEach((x, y, v) -> add(totals, List.of(a.key(x), b.key(y)), v));
                }
            };
        }
    }

    /** An open-addressing table from a pair of longs to a flow count and the counters' sums (one segment's pairs). */
    static final class PairSums {
        private final int width;
        private long[] xs = new long[256], ys = new long[256], values;
        private boolean[] used = new boolean[256];
        private int size;

        PairSums(int counters) {
            width = counters + 1;
            values = new long[256 * width];
        }

        void add(long x, long y, long[] c) {
            int i = slot(x, y);
            if (!used[i]) {
                used[i] = true;
                xs[i] = x;
                ys[i] = y;
                if (++size * 2 > xs.length) {
                    grow();
                    i = slot(x, y);
                }
            }
            int at = i * width;
            values[at]++;
            for (int k = 0; k < c.length; k++) values[at + 1 + k] += c[k];
        }

        private int slot(long x, long y) {
            int mask = xs.length - 1, i = (int) mix(x * 31 + y) & mask;
            while (used[i] && (xs[i] != x || ys[i] != y)) i = (i + 1) & mask;
            return i;
        }

        private static long mix(long k) {
            k *= 0x9E3779B97F4A7C15L;
            return k ^ (k >>> 32);
        }

        private void grow() {
            long[] ox = xs, oy = ys, ov = values;
            boolean[] ou = used;
            xs = new long[ox.length * 2];
            ys = new long[ox.length * 2];
            values = new long[ox.length * 2 * width];
            used = new boolean[ox.length * 2];
            for (int j = 0; j < ox.length; j++) {
                if (!ou[j]) continue;
                int i = slot(ox[j], oy[j]);
                used[i] = true;
                xs[i] = ox[j];
                ys[i] = oy[j];
                System.arraycopy(ov, j * width, values, i * width, width);
            }
        }

        interface Entry {
            void accept(long x, long y, long[] values) throws IOException;
        }

        void forEach(Entry e) throws IOException {
            for (int i = 0; i < xs.length; i++) if (used[i]) e.accept(xs[i], ys[i], Arrays.copyOfRange(values, i * width, (i + 1) * width));
        }
    }
}

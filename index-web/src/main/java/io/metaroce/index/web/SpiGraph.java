package io.metaroce.index.web;

import io.metaroce.index.FacetBucket;
import io.metaroce.index.FieldDef;
import io.metaroce.index.FlowIndex;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSchema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SPI Graph (Arkime's): a field's top values, each as a line of its flows (and counter sum) per time bucket. A flow
 * counts in the bucket of its first packet, or in the first bucket when it began before the range (it was active in
 * it), so each value's buckets add up to its total over the range, the number SPI View shows.
 *
 * <p>Cost: one facet call for the values, then one per bucket restricted to them; {@link #MAX_BUCKETS} bounds it.
 */
final class SpiGraph {
    /** Buckets without {@code buckets=}: a line a screen wide reads well with about 60 points. */
    static final int BUCKETS = 60;
    /** The most buckets: each is one facet call on the index. */
    static final int MAX_BUCKETS = 500;

    private SpiGraph() {}

    /** The series of the field's top n values over [lo, hi) in at most that many buckets of a round width. */
    static Map<String, Object> of(FlowIndex index, FlowQuery q, FieldDef f, FieldDef by, int n, long lo, long hi, int buckets)
            throws IOException {
        long width = width(hi - lo, buckets);
        long start = Math.floorDiv(lo, width) * width;
        int count = (int) Math.max(1, (hi - start + width - 1) / width);
        while (count > buckets) {
            width = width(width * 2, 1);
            start = Math.floorDiv(lo, width) * width;
            count = (int) Math.max(1, (hi - start + width - 1) / width);
        }
        List<FacetBucket> top = index.top(f, by, n, q);
        Map<Object, long[][]> series = new LinkedHashMap<>();
        List<FlowQuery> terms = new ArrayList<>();
        for (FacetBucket b : top) {
            series.put(b.key(), new long[2][count]);
            terms.add(FlowQueryParser.parse(ViewerApi.term(f, b.key())));
        }
        FieldDef first = FlowSchema.field(FlowSchema.FIRST);
        if (!terms.isEmpty()) {
            FlowQuery values = terms.size() == 1 ? terms.getFirst() : new FlowQuery.Or(terms);
            for (int i = 0; i < count; i++) {
                long from = i == 0 ? Long.MIN_VALUE : start + i * width, to = i == count - 1 ? Long.MAX_VALUE : start + (i + 1) * width - 1;
                FlowQuery in = new FlowQuery.And(List.of(q, values, new FlowQuery.LongRange(first, from, to)));
                // The values beside the top ones in multi-valued fields (rules) come too: ask for room to spare.
                for (FacetBucket b : index.top(f, by, ViewerApi.MAX_TOP, in)) {
                    long[][] s = series.get(b.key());
                    if (s == null) continue;
                    s[0][i] = b.flows();
                    s[1][i] = b.sum();
                }
            }
        }
        List<Object> times = new ArrayList<>();
        for (int i = 0; i < count; i++) times.add(start + i * width);
        List<Object> lines = new ArrayList<>();
        Map<Object, FacetBucket> totals = new HashMap<>();
        for (FacetBucket b : top) totals.put(b.key(), b);
        for (Map.Entry<Object, long[][]> e : series.entrySet()) {
            Map<String, Object> m = new LinkedHashMap<>();
            FacetBucket t = totals.get(e.getKey());
            m.put("value", e.getKey());
            m.put("term", ViewerApi.term(f, e.getKey()));
            m.put("flows", t.flows());
            m.put(by.name(), t.sum());
            m.put("flows_per_bucket", longs(e.getValue()[0]));
            m.put(by.name() + "_per_bucket", longs(e.getValue()[1]));
            lines.add(m);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("start_ns", start);
        m.put("stop_ns", start + count * width);
        m.put("bucket_ns", width);
        m.put("buckets", times);
        m.put("series", lines);
        return m;
    }

    /** The smallest 1, 2 or 5 times a power of ten nanoseconds that splits a span into at most that many buckets. */
    static long width(long span, int buckets) {
        long want = Math.max(1, (Math.max(1, span) + buckets - 1) / buckets);
        for (long p = 1; ; p *= 10) {
            for (long m : new long[] {1, 2, 5}) if (p * m >= want) return p * m;
            if (p > Long.MAX_VALUE / 100) return Long.MAX_VALUE / 4;
        }
    }

    private static List<Object> longs(long[] a) {
        List<Object> out = new ArrayList<>(a.length);
        for (long v : a) out.add(v);
        return out;
    }
}

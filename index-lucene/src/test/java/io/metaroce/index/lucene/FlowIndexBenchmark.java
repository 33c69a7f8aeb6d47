package io.metaroce.index.lucene;

import io.metaroce.index.FacetBucket;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.SyntheticFlows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Benchmark, not a test: off unless {@code -Dindex.bench=true}. Indexes {@code -Dindex.bench.flows} (default
 * 1,000,000) synthetic flow documents in captures of 10,000 flows (one commit each), then times a selective
 * query and an exact top-10 facet. Figures go to docs/benchmarks.md.
 *
 * <pre>./mvnw -o -q -pl index-lucene -am test -Dtest=FlowIndexBenchmark -Dindex.bench=true -Dsurefire.failIfNoSpecifiedTests=false</pre>
 */
@EnabledIfSystemProperty(named = "index.bench", matches = "true")
class FlowIndexBenchmark {
    @Test
    void indexQueryFacet() throws Exception {
        int flows = Integer.getInteger("index.bench.flows", 1_000_000), per = 10_000;
        Path dir = Files.createTempDirectory("idx-bench");
        long docs = 0, genNs = 0, addNs = 0;
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForWriting(dir.resolve("i"))) {
            for (int c = 0; c < flows / per; c++) {
                long t0 = System.nanoTime();
                SyntheticFlows.Capture cap = SyntheticFlows.capture(c, per, 1);
                long t1 = System.nanoTime();
                idx.addCapture(cap.capture(), cap.documents());
                addNs += System.nanoTime() - t1;
                genNs += t1 - t0;
                docs += cap.documents().size();
            }
        }
        System.out.printf(Locale.ROOT, "indexed %d flows (%d documents) in %.1f s: %.0f flow docs/s, %.0f docs/s (generation %.1f s apart)%n",
                flows, docs, addNs / 1e9, flows / (addNs / 1e9), docs / (addNs / 1e9), genNs / 1e9);
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForReading(dir.resolve("i"))) {
            Random r = new Random(3);
            long[] q = new long[300];
            long hits = 0;
            for (int i = -50; i < q.length; i++) {
                int qp = 0x200 + r.nextInt(40), capture = r.nextInt(flows / per);
                String from = Long.toString(SyntheticFlows.T0 + capture * 60_000_000_000L);
                String text = "dest_qp:" + qp + " AND naks:[5 TO *] AND first:[" + from + " TO " + (Long.parseLong(from) + 20_000_000_000L) + "]";
                long t0 = System.nanoTime();
                hits += idx.search(FlowQueryParser.parse(text), FlowSort.parse("naks"), 1000).flows().size();
                if (i >= 0) q[i] = System.nanoTime() - t0;
            }
            long[] f = new long[20];
            List<FacetBucket> top = null;
            for (int i = -3; i < f.length; i++) {
                long t0 = System.nanoTime();
                top = idx.top(FlowSchema.field("dest_qp"), FlowSchema.field("naks"), 10, FlowQueryParser.parse("*:*"));
                if (i >= 0) f[i] = System.nanoTime() - t0;
            }
            System.out.printf(Locale.ROOT, "selective query (dest_qp AND naks:[5 TO *] AND a 20 s window, %d hits in all): p50 %.2f ms, p95 %.2f ms%n",
                    hits, pct(q, 50), pct(q, 95));
            System.out.printf(Locale.ROOT, "exact top-10 dest_qp by sum(naks) over %d flows: p50 %.1f ms, p95 %.1f ms; top %s%n",
                    flows, pct(f, 50), pct(f, 95), top.get(0));
        }
        try (var s = Files.walk(dir)) {
            long bytes = s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
            System.out.printf(Locale.ROOT, "index on disk: %.1f MiB%n", bytes / 1048576.0);
        }
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static double pct(long[] ns, int p) {
        long[] s = ns.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.ceil(p / 100.0 * s.length) - 1)] / 1e6;
    }
}

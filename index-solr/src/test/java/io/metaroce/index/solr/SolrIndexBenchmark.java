package io.metaroce.index.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaroce.index.FacetBucket;
import io.metaroce.index.FieldDef;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowDocuments;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.IndexedCapture;
import io.metaroce.index.PackedLongs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The SolrCloud figures of docs/benchmarks.md, off by default (it takes minutes):
 * {@code ./mvnw -o -q -pl index-solr -am verify -Dtest=SolrIndexBenchmark -Dsurefire.failIfNoSpecifiedTests=false
 * -Dmetaroce.bench.docs=200000}. Indexes synthetic flow documents carrying every counter of the schema (as
 * FlowDocuments writes them) into a 2-shard, 2-replica collection on the in-JVM 2-node cluster, one commit per
 * capture of 10,000 flows, then times a selective query and an exact top-10 facet; the facet is checked against
 * the generator's own sums, so a fast wrong answer cannot pass.
 */
@ExtendWith(SolrCloudExtension.class)
@EnabledIfSystemProperty(named = "metaroce.bench.docs", matches = "\\d+")
class SolrIndexBenchmark {

  static final int PER_CAPTURE = 10_000, QPS = 5_000;
  static final long T0 = 1_764_460_800_000_000_000L;

  @Test
  void indexAndQuery(MiniSolrCloud cloud) throws Exception {
    int total = Integer.getInteger("metaroce.bench.docs");
    Random rnd = new Random(42);
    Map<Long, Long> naksByQp = new HashMap<>();
    try (SolrFlowIndex index = SolrFlowIndex.open(SolrTarget.parse(cloud.allNodeUrls(), "bench"), 2, 2)) {
      long indexNs = 0;
      for (int c = 0; c * PER_CAPTURE < total; c++) {
        IndexedCapture cap = new IndexedCapture("/bench/c" + c + ".pcapng", 1L << 30, String.format("%064x", c), "pcapng",
            "mirror", T0, T0 + 3_600_000_000_000L, T0);
        List<FlowDocument> docs = new ArrayList<>(PER_CAPTURE + 1);
        docs.add(FlowDocuments.capture(cap));
        for (int i = 0; i < PER_CAPTURE && c * PER_CAPTURE + i < total; i++) docs.add(flow(cap, i, rnd, naksByQp));
        long t = System.nanoTime();
        index.addCapture(cap, docs);
        indexNs += System.nanoTime() - t;
      }
      System.out.printf("solr bench: %d flow docs in %.1f s = %.0f docs/s (2 shards x 2 replicas, 2 nodes, one JVM)%n",
          total, indexNs / 1e9, total / (indexNs / 1e9));

      double[] q = new double[300];
      for (int i = 0; i < q.length; i++) {
        long qp = 0x200 + rnd.nextInt(QPS);
        FlowQuery query = FlowQueryParser.parse("dest_qp:" + qp + " AND retransmitted_packets:[10 TO *]");
        long t = System.nanoTime();
        index.search(query, FlowSort.DEFAULT, 1000);
        q[i] = (System.nanoTime() - t) / 1e6;
      }
      FieldDef qpField = FlowSchema.field("dest_qp"), naks = FlowSchema.field("naks");
      double[] f = new double[20];
      List<FacetBucket> top = null;
      for (int i = 0; i < f.length; i++) {
        long t = System.nanoTime();
        top = index.top(qpField, naks, 10, new FlowQuery.MatchAll());
        f[i] = (System.nanoTime() - t) / 1e6;
      }
      List<FacetBucket> truth = naksByQp.entrySet().stream().map(e -> new FacetBucket(e.getKey(), e.getValue(),
          0)).sorted((x, y) -> x.sum() != y.sum() ? Long.compare(y.sum(), x.sum()) : 0).limit(10).toList();
      assertEquals(truth.stream().map(FacetBucket::sum).toList(), top.stream().map(FacetBucket::sum).toList(), "exact top-10 sums");
      System.out.printf("solr bench: selective query p50 %.1f ms, p95 %.1f ms (300 runs); top-10 dest_qp by naks p50 %.1f ms, p95 %.1f ms (20 runs)%n",
          pct(q, 50), pct(q, 95), pct(f, 50), pct(f, 95));
    }
  }

  static double pct(double[] v, int p) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[Math.min(s.length - 1, (int) Math.ceil(p / 100.0 * s.length) - 1)];
  }

  /** A flow document with every fixed field of the schema filled, as FlowDocuments writes one. */
  static FlowDocument flow(IndexedCapture c, int i, Random rnd, Map<Long, Long> naksByQp) {
    String root = c.hash() + "/f" + i;
    long qp = 0x200 + rnd.nextInt(QPS), naks = rnd.nextInt(20) == 0 ? rnd.nextInt(500) : 0;
    naksByQp.merge(qp, naks, Long::sum);
    var b = FlowDocument.builder().put(FlowSchema.ID, root + "#0").put(FlowSchema.KIND, FlowSchema.KIND_FLOW)
        .put(FlowSchema.ROOT_ID, root).put(FlowSchema.FLOW, "f" + i).put(FlowSchema.DEST_QP, qp).put("naks", naks)
        .put(FlowSchema.SRC, "10.0." + rnd.nextInt(16) + "." + rnd.nextInt(256)).put(FlowSchema.DST, "10.1.0." + rnd.nextInt(256))
        .put(FlowSchema.CAPTURE_PATH, c.path()).put(FlowSchema.CAPTURE_HASH, c.hash())
        .put(FlowSchema.FIRST, T0 + rnd.nextLong(3_600_000_000_000L)).put(FlowSchema.LAST, T0 + 3_600_000_000_000L);
    var set = java.util.Set.of(FlowSchema.ID, FlowSchema.KIND, FlowSchema.ROOT_ID, FlowSchema.FLOW, FlowSchema.DEST_QP, "naks",
        FlowSchema.SRC, FlowSchema.DST, FlowSchema.CAPTURE_PATH, FlowSchema.CAPTURE_HASH, FlowSchema.FIRST, FlowSchema.LAST);
    for (FieldDef f : FlowSchema.fields()) {
      if (set.contains(f.name()) || f.multi()) continue;
      switch (f.type()) {
        case LONG, TIME -> b.put(f.name(), (long) rnd.nextInt(1000));
        case KEYWORD -> b.put(f.name(), "v" + rnd.nextInt(4));
        case STORED -> {
          long[] offsets = new long[64];
          for (int k = 0; k < offsets.length; k++) offsets[k] = 24 + k * 1100L + i * 70_400L;
          b.put(f.name(), PackedLongs.encode(offsets, 0, offsets.length));
        }
        default -> { }
      }
    }
    b.add(FlowSchema.SRC_QPS, qp + 1).add(FlowSchema.EVENTS, "retransmission");
    return b.build();
  }
}

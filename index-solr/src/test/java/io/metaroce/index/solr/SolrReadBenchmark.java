package io.metaroce.index.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.SyntheticFlows;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What hiding the documents of captures without a capture document costs a read (docs/benchmarks.md, "helper solr,
 * twentieth session"). Off by default: {@code ./mvnw -o -q -B -pl index-solr -am verify -Dtest=SolrReadBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false -Dmetaroce.bench.reads=200 [-Dmetaroce.bench.captures=23]}: a 2x2 collection
 * on the in-JVM 2-node cluster holding N captures of 10 synthetic flows (23 captures, 230 flows: the size of the samples'
 * collection), then a small search ({@code naks:[1 TO *]}, 100 flows at most) and a top-10 facet timed in interleaved
 * rounds: as the code before ("plain": the orphans already known to be none, so the request is the one it sent), and as
 * the first read of a run ("first": the orphans asked first, one more request), and that request alone. Then a capture
 * of 3,000 flows cut after its first batch (1,000 orphan documents) and the same again, now with the filter sent in
 * both ("plain": the orphans known). Prints p50 and p95 of each.
 */
@ExtendWith(SolrCloudExtension.class)
@EnabledIfSystemProperty(named = "metaroce.bench.reads", matches = "\\d+")
class SolrReadBenchmark {

  interface Read {
    Object run() throws Exception;
  }

  @Test
  void readsBeforeAndAfterTheOrphanFilter(MiniSolrCloud cloud) throws Exception {
    int rounds = Integer.getInteger("metaroce.bench.reads"), captures = Integer.getInteger("metaroce.bench.captures", 23);
    SolrTarget target = SolrTarget.parse(cloud.allNodeUrls(), "readbench");
    try (SolrFlowIndex index = SolrFlowIndex.open(target, 2, 2)) {
      for (int c = 0; c < captures; c++) {
        var cap = SyntheticFlows.capture(c, 10, 7);
        index.addCapture(cap.capture(), cap.documents());
      }
      FlowQuery q = FlowQueryParser.parse("naks:[1 TO *]");
      long matching = index.search(q, FlowSort.DEFAULT, 0).total();
      Read search = () -> index.search(q, FlowSort.DEFAULT, 100);
      Read top = () -> index.top(FlowSchema.field("dest_qp"), FlowSchema.field("naks"), 10, new FlowQuery.MatchAll());
      System.out.printf("solr read bench: %d captures, %d flows, %d match the query; load %s%n", captures,
          index.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total(), matching, loadavg());
      measure("no orphan", index, search, top, rounds);

      var big = SyntheticFlows.capture(captures, 3_000, 7);
      try (SolrFlowIndex cut = SolrFlowIndex.open(target, 0, 0)) {
        SolrFlowIndex.sending = SolrFlowIndexTest.closingAt(cut, 1);
        try {
          cut.addCapture(big.capture(), big.documents());
        } catch (Exception expected) {
          // cut off after its first batch
        } finally {
          SolrFlowIndex.sending = n -> {};
        }
      }
      try (var client = SolrCollections.connect(target)) {
        client.commit(true, true);
      }
      index.forgetHidden();
      assertEquals(List.of(big.capture().hash()), index.orphans());
      assertEquals(matching, index.search(q, FlowSort.DEFAULT, 0).total(), "the orphans hidden");
      measure("1,000 orphan documents of one capture", index, search, top, rounds);
      System.out.printf("solr read bench: load %s%n", loadavg());
    }
  }

  /**
   * {@code search --connections} on Solr (nested terms facets) against {@code --top} (one terms facet) on the same
   * collection: {@code -Dmetaroce.bench.captures} captures (default 100) of 1,000 synthetic flows each; interleaved
   * rounds of top-10 {@code src} by {@code bytes}, the top 10 {@code src,dst} pairs by {@code bytes} and the top 10
   * {@code src,dest_qp} pairs by {@code naks} (many more pairs), over every flow and over {@code naks:[1 TO *]}.
   * Prints p50 and p95 of each (docs/benchmarks.md, "Thirty-third session").
   */
  @Test
  void connectionsAgainstTop(MiniSolrCloud cloud) throws Exception {
    int rounds = Integer.getInteger("metaroce.bench.reads"), captures = Integer.getInteger("metaroce.bench.captures", 100);
    SolrTarget target = SolrTarget.parse(cloud.allNodeUrls(), "connbench");
    try (SolrFlowIndex index = SolrFlowIndex.open(target, 2, 2)) {
      for (int c = 0; c < captures; c++) {
        var cap = SyntheticFlows.capture(c, 1_000, 7);
        index.addCapture(cap.capture(), cap.documents());
      }
      var src = FlowSchema.field("src");
      var dst = FlowSchema.field("dst");
      var qp = FlowSchema.field("dest_qp");
      var bytes = FlowSchema.field("bytes");
      var naks = FlowSchema.field("naks");
      FlowQuery all = new FlowQuery.MatchAll(), some = FlowQueryParser.parse("naks:[1 TO *]");
      List<String> names = new ArrayList<>();
      List<Read> reads = new ArrayList<>();
      for (FlowQuery q : List.of(all, some)) {
        String over = q == all ? " (all flows)" : " (naks:[1 TO *])";
        names.add("top src by bytes" + over);
        reads.add(() -> index.top(src, bytes, 10, q));
        names.add("connections src,dst by bytes" + over);
        reads.add(() -> index.connections(src, dst, List.of(bytes), 10, q));
        names.add("connections src,dest_qp by naks" + over);
        reads.add(() -> index.connections(src, qp, List.of(naks), 10, q));
      }
      System.out.printf("solr connections bench: %d captures, %d flows, %d with NAKs, %d src,dest_qp pairs; load %s%n", captures,
          index.search(all, FlowSort.DEFAULT, 0).total(), index.search(some, FlowSort.DEFAULT, 0).total(),
          index.connections(src, qp, List.of(naks), 1_000_000, all).size(), loadavg());
      List<List<Double>> ms = new ArrayList<>();
      for (int i = 0; i < names.size(); i++) ms.add(new ArrayList<>());
      for (int r = -rounds; r < rounds; r++) {   // as many rounds first as warm-up, not counted
        for (int k = 0; k < names.size(); k++) {
          int i = (k + Math.floorMod(r, names.size())) % names.size();
          long t = System.nanoTime();
          reads.get(i).run();
          if (r >= 0) ms.get(i).add((System.nanoTime() - t) / 1e6);
        }
      }
      for (int i = 0; i < names.size(); i++) {
        double[] v = ms.get(i).stream().mapToDouble(Double::doubleValue).toArray();
        System.out.printf("solr connections bench: %s: p50 %.2f ms, p95 %.2f ms (%d runs)%n", names.get(i),
            SolrIndexBenchmark.pct(v, 50), SolrIndexBenchmark.pct(v, 95), v.length);
      }
      System.out.printf("solr connections bench: load %s%n", loadavg());
    }
  }

  /**
   * Rounds of: search plain, search first, top plain, top first, and the orphans' request alone (the order turning each
   * round); then p50/p95.
   */
  static void measure(String what, SolrFlowIndex index, Read search, Read top, int rounds) throws Exception {
    String[] names = {"search plain", "search first", "top plain", "top first", "orphans' request alone"};
    List<List<Double>> ms = new ArrayList<>();
    for (int i = 0; i < names.length; i++) ms.add(new ArrayList<>());
    for (int r = -rounds; r < rounds; r++) {   // as many rounds first as warm-up, not counted
      for (int k = 0; k < names.length; k++) {
        int i = (k + Math.floorMod(r, names.length)) % names.length;
        boolean first = i % 2 == 1 || i == 4;
        Read read = i == 4 ? index::hidden : i < 2 ? search : top;
        if (first) index.forgetHidden();
        else index.hidden();   // known already: the read sends what it sent before the filter
        long t = System.nanoTime();
        read.run();
        double d = (System.nanoTime() - t) / 1e6;
        if (r >= 0) ms.get(i).add(d);
      }
    }
    for (int i = 0; i < names.length; i++) {
      double[] v = ms.get(i).stream().mapToDouble(Double::doubleValue).toArray();
      System.out.printf("solr read bench: %s: %s p50 %.2f ms, p95 %.2f ms (%d runs)%n", what, names[i],
          SolrIndexBenchmark.pct(v, 50), SolrIndexBenchmark.pct(v, 95), v.length);
    }
  }

  static String loadavg() {
    try {
      return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
    } catch (java.io.IOException e) {
      return "?";
    }
  }
}

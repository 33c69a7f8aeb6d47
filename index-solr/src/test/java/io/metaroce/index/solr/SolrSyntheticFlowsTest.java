package io.metaroce.index.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.metaroce.index.FacetBucket;
import io.metaroce.index.FieldDef;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowQueryMatcher;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.SearchResult;
import io.metaroce.index.SyntheticFlows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The same synthetic captures and the same checks as the embedded backend's test (SyntheticFlows from
 * index-api's test-jar, FlowQueryMatcher as the meaning of each query), on a 2-shard, 2-replica collection:
 * what holds for Lucene holds for SolrCloud.
 */
@ExtendWith(SolrCloudExtension.class)
class SolrSyntheticFlowsTest {
  /** The query list of LuceneFlowIndexTest: every kind of the language. */
  static final List<String> QUERIES = List.of("naks:[5 TO *]", "dest_qp:0x000201", "src:10.0.0.0/24", "src:10.0.1.0/24 OR dst:fd00::/112",
      "first:[2026-11-30T00:55 TO 2026-11-30T00:57]", "last:<2026-11-30T00:55:30", "rule:MR-RTX-*", "rule:MR-RTX-00? AND NOT events:nak",
      "ce_without_cnp:*", "NOT ce_without_cnp:*", "transport:metaroce AND paths.2.loss_rate:>0", "ce_paths:1",
      "src_qps:[100 TO 150]", "10.1.0.3", "(naks:>3 || cnps:4) && -service:ud", "credit_mode:true cnps:{1 TO 4}",
      "*:*", "retransmissions_by_cause.nak:3", "dst:[10.1.0.2 TO 10.1.0.5]", "flow:*-1?", "capture:\"/captures/host3.pcapng\"");
  static SolrFlowIndex index;
  static final List<FlowDocument> flows = new ArrayList<>();

  @BeforeAll
  static void fill(MiniSolrCloud cloud) throws IOException {
    index = SolrFlowIndex.open(SolrTarget.parse(cloud.allNodeUrls(), "synthetic"), 2, 2);
    for (int c = 0; c < 6; c++) {
      SyntheticFlows.Capture cap = SyntheticFlows.capture(c, 400, 42);
      index.addCapture(cap.capture(), cap.documents());
      flows.addAll(cap.flows());
    }
  }

  @AfterAll
  static void close() throws IOException {
    if (index != null) index.close();
  }

  @Test
  void everyQueryKindMatchesExactlyItsMeaning() throws IOException {
    for (String text : QUERIES) {
      FlowQuery q = FlowQueryParser.parse(text);
      List<String> want = flows.stream().filter(d -> FlowQueryMatcher.matches(q, d)).map(FlowDocument::id).sorted().toList();
      SearchResult r = index.search(q, FlowSort.DEFAULT, 100_000);
      assertEquals(want.size(), r.total(), text);
      assertEquals(want, r.flows().stream().map(FlowDocument::id).sorted().toList(), text);
      assertFalse(want.isEmpty() && !text.startsWith("NOT"), "the fixture exercises " + text);
    }
  }

  @Test
  void sortsByAnyNumericFieldWithTiesById() throws IOException {
    for (String spec : List.of("naks", "ce_without_cnp:desc", "ce_without_cnp:asc", "first:asc", "dest_qp:asc")) {
      FlowSort s = FlowSort.parse(spec);
      Comparator<FlowDocument> byField = Comparator.comparing((FlowDocument d) -> d.getLong(s.field().name()),
          s.descending() ? Comparator.nullsLast(Comparator.<Long>reverseOrder()) : Comparator.nullsLast(Comparator.<Long>naturalOrder()));
      List<String> want = flows.stream().sorted(byField.thenComparing(FlowDocument::id)).limit(1500).map(FlowDocument::id).toList();
      // 1500 > one cursor page: the pages join without a gap or a repeat
      assertEquals(want, index.search(new FlowQuery.MatchAll(), s, 1500).flows().stream().map(FlowDocument::id).toList(), spec);
    }
  }

  @Test
  void topFacetsAreExact() throws IOException {
    String[][] cases = {{"dest_qp", "naks", "*:*"}, {"src", "ce_marks", "*:*"}, {"dst", "retransmitted_packets", "transport:rocev2"},
        {"rules", "naks", "*:*"}, {"ce_paths", "ce_marks", "*:*"}, {"capture_path", "cnps", "naks:>0"}, {"src_qps", "packets", "*:*"}};
    for (String[] c : cases) {
      FieldDef g = FlowSchema.field(c[0]), by = FlowSchema.field(c[1]);
      FlowQuery f = FlowQueryParser.parse(c[2]);
      List<FacetBucket> want = SyntheticFlows.top(flows, g, by, 10, f);
      assertEquals(want, index.top(g, by, 10, f), String.join(" ", c));
      assertFalse(want.isEmpty());
    }
  }

  @Test
  void documentsComeBackWhole() throws IOException {
    for (FlowDocument d : flows.subList(0, 50)) {
      var back = index.search(new FlowQuery.Term(FlowSchema.field(FlowSchema.ID), d.id()), FlowSort.DEFAULT, 1).flows();
      assertEquals(List.of(d), back);
      assertEquals(List.copyOf(d.fields().keySet()), List.copyOf(back.getFirst().fields().keySet()), "stored field order");
    }
  }
}

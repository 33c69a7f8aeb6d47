package io.metaroce.index.solr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.index.FacetBucket;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowDocuments;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.IndexedCapture;
import io.metaroce.index.PackedLongs;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The FlowIndex contract on a real 2-shard, 2-replica collection, with small hand-made documents whose answers
 * are known: queries of every kind of the tree, sort with ties and missing values, exact facets spread over both
 * shards, offsets byte for byte, replacement, deletion and expiry.
 */
@ExtendWith(SolrCloudExtension.class)
class SolrFlowIndexTest {

  static final long T0 = 1_764_460_800_000_000_000L;   // 2025-11-30T00:00Z
  static SolrFlowIndex index;
  static IndexedCapture a, b;

  @BeforeAll
  static void fill(MiniSolrCloud cloud) throws IOException {
    index = SolrFlowIndex.open(SolrTarget.parse(cloud.allNodeUrls(), "contract"), 2, 2);
    a = capture("/caps/a.pcapng", 'a', T0, T0 + 9_000);
    b = capture("/caps/b.pcapng", 'b', T0 + 1_000_000_000_000L, T0 + 1_000_000_009_000L);
    // 40 flows over two captures: enough keys that both shards hold part of every facet group.
    List<FlowDocument> da = new ArrayList<>(), db = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      IndexedCapture c = i % 2 == 0 ? a : b;
      (c == a ? da : db).addAll(flow(c, i));
    }
    da.add(FlowDocuments.capture(a));
    db.add(FlowDocuments.capture(b));
    index.addCapture(a, da);
    index.addCapture(b, db);
  }

  @AfterAll
  static void close() throws IOException {
    if (index != null) index.close();
  }

  static IndexedCapture capture(String path, char h, long first, long last) {
    return new IndexedCapture(path, 1234, String.valueOf(h).repeat(64), "pcapng", "mirror", first, last, T0);
  }

  /** Flow i: QP 0x200 + i % 5, from 10.0.0.(i % 4) (or 2001:db8::i for i >= 36), naks = i % 7, ... */
  static List<FlowDocument> flow(IndexedCapture c, int i) {
    String root = c.hash() + "/f" + i;
    String src = i >= 36 ? "2001:db8::" + i : "10.0.0." + (i % 4);
    var d = identity(FlowDocument.builder(), c, root, 0).put(FlowSchema.KIND, FlowSchema.KIND_FLOW)
        .put(FlowSchema.FLOW, "f" + i).put(FlowSchema.SRC, src).put(FlowSchema.DST, "10.0.1.1")
        .put(FlowSchema.DEST_QP, 0x200L + i % 5).put("transport", i % 3 == 0 ? "RC" : "UC")
        .put(FlowSchema.FIRST, T0 + i * 1_000_000_000L).put(FlowSchema.LAST, T0 + i * 1_000_000_000L + 500)
        .put("packets", 100L + i).put("naks", (long) (i % 7)).put("retransmissions_by_cause.nak", (long) (i % 3));
    if (i % 10 != 9) d.put("ce_marks", (long) (i % 4));   // every tenth flow lacks the value: sorts last
    d.add(FlowSchema.SRC_QPS, 0x100L + i % 3);
    if (i % 2 == 1) d.add(FlowSchema.SRC_QPS, 0x1ffL);
    if (i % 4 == 0) d.add(FlowSchema.RULES, "MR-RTX-0" + (i % 8 == 0 ? 1 : 2));
    if (i % 5 == 0) d.add(FlowSchema.RULES, "RC-PSN-01");
    if (i % 6 == 0) {
      d.put("path_count", 4L).put(FlowSchema.pathField(3, "ce_marks"), (long) i).put(FlowSchema.pathField(3, "loss_rate"), i / 100.0)
          .put(FlowSchema.pathField(3, "down"), "false").add(FlowSchema.PATH_IDS, 1L).add(FlowSchema.PATH_IDS, 3L);
    }
    long[] offsets = {24 + i, 1_000_000_000_000L + i, 5L << 40};
    d.put(FlowSchema.PART_PACKETS, 3L).put(FlowSchema.OFFSETS, PackedLongs.encode(offsets, 0, 3))
        .put(FlowSchema.FRAMES, PackedLongs.encode(new long[] {1, 2, 3}, 0, 3));
    List<FlowDocument> docs = new ArrayList<>(List.of(d.build()));
    if (i == 4) {   // one long flow with a part document
      docs.add(identity(FlowDocument.builder(), c, root, 1).put(FlowSchema.KIND, FlowSchema.KIND_PART)
          .put(FlowSchema.FLOW, "f4").put(FlowSchema.PART_PACKETS, 1L)
          .put(FlowSchema.OFFSETS, PackedLongs.encode(new long[] {77}, 0, 1)).build());
    }
    return docs;
  }

  /** The capture's document, then the documents of its flows 0 to n - 1. */
  static List<FlowDocument> withFlows(IndexedCapture c, int n) {
    List<FlowDocument> docs = withCapture(c, new ArrayList<>());
    for (int i = 0; i < n; i++) docs.addAll(flow(c, i));
    return docs;
  }

  /** A sending hook that closes the client under the add when its batch n is about to go: a send cut off midway. */
  static java.util.function.IntConsumer closingAt(SolrFlowIndex client, int n) {
    return sent -> {
      if (sent != n) return;
      try {
        client.close();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    };
  }

  static List<FlowDocument> withCapture(IndexedCapture c, List<FlowDocument> flows) {
    List<FlowDocument> all = new ArrayList<>(flows);
    all.add(0, FlowDocuments.capture(c));   // first in the list: the backend still commits it last
    return all;
  }

  static FlowDocument.Builder identity(FlowDocument.Builder b, IndexedCapture c, String root, long part) {
    return b.put(FlowSchema.ID, root + "#" + part).put(FlowSchema.ROOT_ID, root).put(FlowSchema.PART, part)
        .put(FlowSchema.PARTS, 2L).put(FlowSchema.CAPTURE_PATH, c.path()).put(FlowSchema.CAPTURE_HASH, c.hash())
        .put(FlowSchema.CAPTURE_SIZE, c.size()).put(FlowSchema.CAPTURE_FORMAT, c.format()).put(FlowSchema.TAP, c.tap())
        .put(FlowSchema.CAPTURE_FIRST, c.firstNs()).put(FlowSchema.CAPTURE_LAST, c.lastNs()).put(FlowSchema.INDEXED_AT, c.indexedAtNs());
  }

  /** The flow numbers a query matches, in the default order (first packet time = flow number). */
  static List<Integer> flows(String query) throws IOException {
    return index.search(FlowQueryParser.parse(query), FlowSort.DEFAULT, 1000).flows().stream()
        .map(d -> Integer.parseInt(d.getString(FlowSchema.FLOW).substring(1))).toList();
  }

  static List<Integer> where(java.util.function.IntPredicate p) {
    return java.util.stream.IntStream.range(0, 40).filter(p).boxed().toList();
  }

  @Test
  void queriesOfEveryKindMatchTheFlowsTheyName() throws IOException {
    assertEquals(where(i -> true), flows("*:*"), "flow documents only: no capture or part document");
    assertEquals(where(i -> i % 5 == 1), flows("dest_qp:0x000201"));
    assertEquals(where(i -> i % 7 >= 5), flows("naks:[5 TO *]"));
    assertEquals(where(i -> i % 7 >= 2 && i % 7 < 5), flows("naks:{1 TO 5}"));
    assertEquals(where(i -> i < 36 && i % 4 < 2), flows("src:10.0.0.0/31"));
    assertEquals(where(i -> i >= 36), flows("src:2001:db8::/32"));
    assertEquals(where(i -> i % 4 == 0), flows("rule:MR-RTX-*"));
    assertEquals(where(i -> i % 8 == 4), flows("rules:MR-RTX-02"));
    assertEquals(where(i -> i % 4 == 0 && i % 5 != 0), flows("rule:MR-RTX-* AND NOT rule:RC-PSN-01"));
    assertEquals(where(i -> i % 3 == 0 || i % 7 == 6), flows("transport:RC OR naks:6"));
    assertEquals(where(i -> i % 10 == 9), flows("NOT ce_marks:*"));
    assertEquals(where(i -> i % 2 == 1), flows("src_qp:0x1ff"));
    assertEquals(where(i -> i % 6 == 0 && i >= 12), flows("paths.3.ce_marks:[12 TO *]"));
    assertEquals(where(i -> i % 6 == 0 && i >= 12), flows("paths.3.loss_rate:[0.1 TO *]"));
    assertEquals(where(i -> i % 6 == 0), flows("path_ids:3 AND paths.3.down:false"));
    assertEquals(where(i -> i % 3 == 2), flows("retransmissions_by_cause.nak:2"));
    assertEquals(where(i -> i >= 2 && i < 5), flows("first:[2025-11-30T00:00:02 TO 2025-11-30T00:00:04]"));
    assertEquals(where(i -> i % 2 == 0), flows("capture_path:\"/caps/a.pcapng\""));
    assertEquals(List.of(7), flows("f7"), "a bare value searches the default fields");
  }

  @Test
  void sortsByAnyNumberWithTiesByIdAndMissingValuesLast() throws IOException {
    for (boolean desc : new boolean[] {true, false}) {
      var r = index.search(new FlowQuery.MatchAll(), new FlowSort(FlowSchema.field("ce_marks"), desc), 1000);
      assertEquals(40, r.total());
      List<String> ids = r.flows().stream().map(FlowDocument::id).toList();
      List<String> expected = r.flows().stream().sorted((x, y) -> {
        Long u = x.getLong("ce_marks"), v = y.getLong("ce_marks");
        if (u == null || v == null) return u == null && v == null ? x.id().compareTo(y.id()) : u == null ? 1 : -1;
        int c = desc ? Long.compare(v, u) : Long.compare(u, v);
        return c != 0 ? c : x.id().compareTo(y.id());
      }).map(FlowDocument::id).toList();
      assertEquals(expected, ids);
      assertNull(r.flows().getLast().getLong("ce_marks"));
    }
    var top3 = index.search(new FlowQuery.MatchAll(), FlowSort.parse("packets"), 3);
    assertEquals(40, top3.total());
    assertEquals(List.of("f39", "f38", "f37"), top3.flows().stream().map(d -> d.getString(FlowSchema.FLOW)).toList());
  }

  @Test
  void facetsAreExactAndOrderedLikeEveryBackend() throws IOException {
    List<FacetBucket> byQp = index.top(FlowSchema.field("dest_qp"), FlowSchema.field("naks"), 10, new FlowQuery.MatchAll());
    List<FacetBucket> expected = new ArrayList<>();
    for (long qp = 0; qp < 5; qp++) {
      long sum = 0, n = 0;
      for (int i = 0; i < 40; i++) if (i % 5 == qp) { sum += i % 7; n++; }
      expected.add(new FacetBucket(0x200L + qp, sum, n));
    }
    expected.sort(FacetBucket.ORDER);
    assertEquals(expected, byQp);

    // multi-valued group: each source QP of a flow is credited with the flow's counter
    List<FacetBucket> bySrcQp = index.top(FlowSchema.field("src_qps"), FlowSchema.field("packets"), 2, FlowQueryParser.parse("naks:[1 TO *]"));
    long sum1ff = 0, n1ff = 0;
    for (int i = 1; i < 40; i += 2) if (i % 7 >= 1) { sum1ff += 100 + i; n1ff++; }
    assertEquals(new FacetBucket(0x1ffL, sum1ff, n1ff), bySrcQp.getFirst());
    assertEquals(2, bySrcQp.size());

    // IP groups: ties on sum and flows go by address order (not text order: 10.0.0.10 would follow 10.0.0.9)
    List<FacetBucket> bySrc = index.top(FlowSchema.field("src"), FlowSchema.field("retransmissions_by_cause.nak"), 40, new FlowQuery.MatchAll());
    assertEquals(List.of(new FacetBucket("10.0.0.0", 9, 9), new FacetBucket("10.0.0.1", 9, 9), new FacetBucket("10.0.0.2", 9, 9),
        new FacetBucket("10.0.0.3", 9, 9), new FacetBucket("2001:db8::38", 2, 1), new FacetBucket("2001:db8::37", 1, 1),
        new FacetBucket("2001:db8::36", 0, 1), new FacetBucket("2001:db8::39", 0, 1)), bySrc);
    assertThrows(IllegalArgumentException.class, () -> index.top(FlowSchema.field("first"), FlowSchema.field("naks"), 3, new FlowQuery.MatchAll()));
    assertThrows(IllegalArgumentException.class, () -> index.top(FlowSchema.field("src"), FlowSchema.field("rules"), 3, new FlowQuery.MatchAll()));
  }

  @Test
  void documentsComeBackAsTheyWentInOffsetsByteForByte() throws IOException {
    FlowDocument f4 = index.search(FlowQueryParser.parse("flow:f4"), FlowSort.DEFAULT, 10).flows().getFirst();
    assertEquals(flow(a, 4).getFirst(), f4);
    assertArrayEquals(new long[] {28, 1_000_000_000_004L, 5L << 40}, f4.offsets());
    List<FlowDocument> parts = index.parts(f4.getString(FlowSchema.ROOT_ID));
    assertEquals(flow(a, 4), parts);
    assertArrayEquals(new long[] {77}, parts.get(1).offsets());
  }

  /**
   * A capture of more documents than a batch ({@code SolrFlowIndex.BATCH}) goes through the scratch file and comes
   * back whole, every document as it went in; a changed capture of the same path whose iteration fails after three
   * batches leaves the collection as it was (nothing was sent: the earlier capture whole, none of the new one), also
   * after a commit; no scratch file is left. In a collection of its own, so the other tests' answers stay.
   */
  @Test
  void aCaptureOfManyBatchesIsStreamedAndAFailedOneLeavesTheCollectionAsItWas(MiniSolrCloud cloud, @org.junit.jupiter.api.io.TempDir java.nio.file.Path spool) throws IOException {
    java.nio.file.Path was = SolrFlowIndex.spoolDir;
    SolrFlowIndex.spoolDir = spool;
    try (SolrFlowIndex streamed = SolrFlowIndex.open(SolrTarget.parse(cloud.allNodeUrls(), "streamed"), 2, 2)) {
      IndexedCapture big = capture("/caps/big.pcapng", 'f', T0, T0 + 9_000);
      List<FlowDocument> docs = new ArrayList<>();
      for (int i = 0; i < 3_500; i++) docs.addAll(flow(big, i));
      long spooledBefore = SolrFlowIndex.spooled.get();
      streamed.addCapture(big, (Iterable<FlowDocument>) () -> withCapture(big, docs).iterator());
      assertEquals(3, SolrFlowIndex.spooled.get() - spooledBefore, "3,501 flow and part documents: three batches through the file, 501 sent from memory");
      var all = streamed.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 10_000);
      assertEquals(3_500, all.total());
      java.util.Map<String, FlowDocument> byId = new java.util.HashMap<>();
      for (FlowDocument d : docs) byId.put(d.id(), d);
      for (FlowDocument f : all.flows()) assertEquals(byId.get(f.id()), f);
      assertEquals(docs.subList(4, 6), streamed.parts(docs.get(4).getString(FlowSchema.ROOT_ID)));
      assertEquals(List.of(big), streamed.captures());

      IndexedCapture changed = capture("/caps/big.pcapng", '9', T0, T0 + 9_500);
      List<FlowDocument> changedDocs = withFlows(changed, 3_500);
      Iterable<FlowDocument> broken = () -> new java.util.Iterator<>() {
        final java.util.Iterator<FlowDocument> in = changedDocs.iterator();
        int given;

        public boolean hasNext() { return in.hasNext(); }

        public FlowDocument next() {
          if (++given == 3_200) throw new IllegalStateException("analysis failed");
          return in.next();
        }
      };
      assertThrows(IllegalStateException.class, () -> streamed.addCapture(changed, broken));
      streamed.addCapture(capture("/caps/other.pcapng", '8', T0, T0 + 1), withCapture(capture("/caps/other.pcapng", '8', T0, T0 + 1), List.of()));   // a commit
      assertEquals(3_500, streamed.search(FlowQueryParser.parse("capture_path:\"/caps/big.pcapng\""), FlowSort.DEFAULT, 0).total());
      assertEquals(3_500, streamed.search(FlowQueryParser.parse("capture_hash:" + big.hash()), FlowSort.DEFAULT, 0).total());
      assertEquals(big, streamed.capture(big.hash()));
      assertNull(streamed.capture(changed.hash()));
      try (var left = java.nio.file.Files.list(spool)) {
        assertEquals(List.of(), left.toList(), "no scratch file left");
      }
    } finally {
      SolrFlowIndex.spoolDir = was;
    }
  }

  /** Documents of the collection matching a Solr query, hidden fields included, through a client of its own. */
  static long raw(SolrTarget target, String solrQuery) throws Exception {
    try (var client = SolrCollections.connect(target)) {
      return client.query(new org.apache.solr.client.solrj.SolrQuery(solrQuery).setRows(0)).getResults().getNumFound();
    }
  }

  /** The flow documents (not parts, not the capture) among the first {@code n} documents a capture sends. */
  static long flowsAmongFirst(List<FlowDocument> docs, int n) {
    return docs.stream().filter(d -> !FlowSchema.KIND_CAPTURE.equals(d.kind())).limit(n)
        .filter(d -> FlowSchema.KIND_FLOW.equals(d.kind())).count();
  }

  static long total(SolrFlowIndex index, String query) throws IOException {
    return index.search(FlowQueryParser.parse(query), FlowSort.DEFAULT, 0).total();
  }

  /**
   * Schema version 2: a capture's documents carry the hidden attempt tag (indexed, never shown), and a changed capture
   * whose send stops after two of its four batches leaves the earlier capture whole after another writer's commit:
   * (a) a send that fails with Solr reachable takes its own documents back out; (b) one cut off (its client closed
   * under it, as a kill -9 or a lost network would) leaves them without a capture document: search does not show them
   * (every read: {@link #aCutSendIsInvisibleToEveryRead}), the capture is not indexed; (c) the next index of that path
   * (other content) deletes them with the earlier capture; (d) the same file cut midway when indexed again leaves it whole (Solr replaced
   * equal documents by id, and no tagged delete ran), (d') also when the send fails with Solr reachable (the take-back
   * spares the ids of an indexed capture); (e) a capture cut midway whose path is never indexed again goes with the
   * expiry, when indexed a day ago or more (not an add still being sent). On the order of schema version 1 (the
   * earlier documents deleted first) (a) fails: the earlier capture null, 0 of its 3,500 flows.
   */
  @Test
  void aChangedCaptureWhoseSendStopsMidwayLeavesTheEarlierOneWhole(MiniSolrCloud cloud, @org.junit.jupiter.api.io.TempDir java.nio.file.Path spool) throws Exception {
    java.nio.file.Path was = SolrFlowIndex.spoolDir;
    SolrFlowIndex.spoolDir = spool;
    SolrTarget target = SolrTarget.parse(cloud.allNodeUrls(), "attempts");
    try (SolrFlowIndex writer = SolrFlowIndex.open(target, 2, 2)) {
      assertTrue(writer.tagged(), "the shipped configset declares the attempt field");
      IndexedCapture big = capture("/caps/big.pcapng", 'f', T0, T0 + 9_000);
      List<FlowDocument> docs = withFlows(big, 3_500);
      writer.addCapture(big, docs);
      // every document tagged (the capture's too), the tag in no answer
      assertEquals(3_502, raw(target, SolrFlowIndex.ATTEMPT + ":*"));
      try (var client = SolrCollections.connect(target)) {
        var d = client.query(new org.apache.solr.client.solrj.SolrQuery("id:" + SolrQueries.escape(docs.get(1).id())).setFields("*")).getResults().getFirst();
        assertFalse(d.getFieldNames().contains(SolrFlowIndex.ATTEMPT), d.getFieldNames().toString());
      }
      FlowDocument f4 = writer.search(FlowQueryParser.parse("flow:f4"), FlowSort.DEFAULT, 1).flows().getFirst();
      assertEquals(flow(big, 4).getFirst(), f4);

      IndexedCapture changed = capture("/caps/big.pcapng", '9', T0, T0 + 9_500);
      List<FlowDocument> changedDocs = withFlows(changed, 3_500);
      IndexedCapture other = capture("/caps/other.pcapng", '8', T0, T0 + 1);
      List<Integer> batchesSent = new ArrayList<>();

      // (a) fails at the third batch, Solr reachable
      SolrFlowIndex.sending = n -> {
        if (n == 2) throw new java.io.UncheckedIOException(new IOException("connection reset (test)"));
        batchesSent.add(n);
      };
      assertThrows(java.io.UncheckedIOException.class, () -> writer.addCapture(changed, changedDocs));
      assertEquals(List.of(0, 1), batchesSent);
      SolrFlowIndex.sending = n -> {};
      writer.addCapture(other, withCapture(other, List.of()));   // another writer's commit
      assertEquals(big, writer.capture(big.hash()));
      assertEquals(3_500, total(writer, "capture_path:\"/caps/big.pcapng\""));
      assertEquals(3_500, total(writer, "capture_hash:" + big.hash()));
      assertEquals(0, raw(target, "capture_hash:" + changed.hash()), "a failed send takes its own documents back");

      // (b) cut off at the third batch: nothing can be taken back
      try (SolrFlowIndex cut = SolrFlowIndex.open(target, 0, 0)) {
        SolrFlowIndex.sending = closingAt(cut, 2);
        assertThrows(Exception.class, () -> cut.addCapture(changed, changedDocs));
      }
      SolrFlowIndex.sending = n -> {};
      writer.addCapture(other, withCapture(other, List.of()));
      assertEquals(List.of(big, other), writer.captures());
      assertEquals(3_500, total(writer, "capture_hash:" + big.hash()), "the earlier capture whole");
      assertEquals(big, writer.capture(big.hash()));
      long orphans = flowsAmongFirst(changedDocs, 2_000);
      assertEquals(1_999, orphans);
      assertEquals(2_000, raw(target, "capture_hash:" + changed.hash()));
      assertNull(writer.capture(changed.hash()));
      assertEquals(3_500, total(writer, "capture_path:\"/caps/big.pcapng\""), "search does not show the cut capture's flows sent");

      // (c) the next index of the path replaces both
      IndexedCapture third = capture("/caps/big.pcapng", '7', T0, T0 + 9_700);
      List<FlowDocument> thirdDocs = withFlows(third, 3_500);
      writer.addCapture(third, thirdDocs);
      assertEquals(List.of(third, other), writer.captures());
      assertEquals(3_500, total(writer, "capture_path:\"/caps/big.pcapng\""));
      assertEquals(0, raw(target, "capture_hash:" + changed.hash() + " OR capture_hash:" + big.hash()));

      // (d) the same file indexed again and cut midway
      try (SolrFlowIndex cut = SolrFlowIndex.open(target, 0, 0)) {
        SolrFlowIndex.sending = closingAt(cut, 2);
        assertThrows(Exception.class, () -> cut.addCapture(third, thirdDocs));
      }
      SolrFlowIndex.sending = n -> {};
      writer.addCapture(other, withCapture(other, List.of()));
      assertEquals(third, writer.capture(third.hash()));
      var all = writer.search(FlowQueryParser.parse("capture_path:\"/caps/big.pcapng\""), FlowSort.DEFAULT, 10_000);
      assertEquals(3_500, all.total());
      java.util.Map<String, FlowDocument> byId = new java.util.HashMap<>();
      for (FlowDocument d : thirdDocs) byId.put(d.id(), d);
      for (FlowDocument f : all.flows()) assertEquals(byId.get(f.id()), f);

      // (d') the same, failing with Solr reachable: not taken back (those ids are the indexed capture's)
      SolrFlowIndex.sending = n -> {
        if (n == 2) throw new java.io.UncheckedIOException(new IOException("connection reset (test)"));
      };
      assertThrows(java.io.UncheckedIOException.class, () -> writer.addCapture(third, thirdDocs));
      SolrFlowIndex.sending = n -> {};
      writer.addCapture(other, withCapture(other, List.of()));
      assertEquals(third, writer.capture(third.hash()));
      all = writer.search(FlowQueryParser.parse("capture_path:\"/caps/big.pcapng\""), FlowSort.DEFAULT, 10_000);
      assertEquals(3_500, all.total());
      for (FlowDocument f : all.flows()) assertEquals(byId.get(f.id()), f);

      // (e) a capture of a path never indexed again, cut midway: its documents go with the expiry of their time
      IndexedCapture gone = capture("/caps/gone.pcapng", '6', T0 - 100, T0 - 50);
      List<FlowDocument> goneDocs = withFlows(gone, 3_500);
      try (SolrFlowIndex cut = SolrFlowIndex.open(target, 0, 0)) {
        SolrFlowIndex.sending = closingAt(cut, 1);
        assertThrows(Exception.class, () -> cut.addCapture(gone, goneDocs));
      }
      // the same of an old capture indexed just now (as by a writer still sending it): not taken by the expiry
      long now = java.time.Instant.now().getEpochSecond() * 1_000_000_000L;
      IndexedCapture fresh = new IndexedCapture("/caps/fresh.pcapng", 1234, "5".repeat(64), "pcapng", "mirror", T0 - 100, T0 - 50, now);
      List<FlowDocument> freshDocs = withFlows(fresh, 3_500);
      try (SolrFlowIndex cut = SolrFlowIndex.open(target, 0, 0)) {
        SolrFlowIndex.sending = closingAt(cut, 1);
        assertThrows(Exception.class, () -> cut.addCapture(fresh, freshDocs));
      }
      SolrFlowIndex.sending = n -> {};
      writer.addCapture(other, withCapture(other, List.of()));
      assertEquals(1_000, raw(target, "capture_hash:" + gone.hash()));
      assertEquals(1_000, raw(target, "capture_hash:" + fresh.hash()));
      assertEquals(List.of(), writer.expireBefore(T0), "no capture document expired");
      assertEquals(0, raw(target, "capture_hash:" + gone.hash()), "the documents without one, indexed a day ago or more, did");
      assertEquals(1_000, raw(target, "capture_hash:" + fresh.hash()), "those indexed less than a day ago stay");
      assertEquals(List.of(third, other), writer.captures());
      assertEquals(3_500, total(writer, "*:*"), "nor does it show those of a capture without its capture document");
    } finally {
      SolrFlowIndex.sending = n -> {};
      SolrFlowIndex.spoolDir = was;
    }
  }

  /** Every read of the tool, by a reader opened for it (as a CLI run opens one): what a user sees of the collection. */
  record Reads(List<FlowDocument> all, long total, List<FlowDocument> naks, long byPath, List<FacetBucket> top,
      List<FacetBucket> topBySrc, List<FlowDocument> parts, List<FlowDocument> changedParts) {}

  static Reads reads(SolrTarget target, IndexedCapture earlier, IndexedCapture changed) throws IOException {
    try (SolrFlowIndex r = SolrFlowIndex.open(target, 0, 0)) {
      return new Reads(r.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 10_000).flows(), total(r, "*:*"),
          r.search(FlowQueryParser.parse("naks:[5 TO *]"), FlowSort.parse("packets"), 10_000).flows(),
          total(r, "capture_path:\"/caps/big.pcapng\""),
          r.top(FlowSchema.field("dest_qp"), FlowSchema.field("naks"), 10, new FlowQuery.MatchAll()),
          r.top(FlowSchema.field("src"), FlowSchema.field("packets"), 3, FlowQueryParser.parse("transport:RC")),
          r.parts(earlier.hash() + "/f4"), r.parts(changed.hash() + "/f4"));
    }
  }

  /** The same reads: the counts and facets first (a short message), then every document. */
  static void assertSameReads(Reads expected, Reads actual) {
    assertEquals(expected.total(), actual.total(), "count of every flow");
    assertEquals(expected.byPath(), actual.byPath(), "count of the path's flows");
    assertEquals(expected.top(), actual.top(), "top dest_qp by naks");
    assertEquals(expected.topBySrc(), actual.topBySrc(), "top src by packets");
    assertEquals(expected, actual);
  }

  /** Commits the collection, as any other writer's add does (a client of its own). */
  static void commit(SolrTarget target) throws Exception {
    try (var client = SolrCollections.connect(target)) {
      client.commit(true, true);
    }
  }

  /**
   * What a send cut off midway leaves (flow documents without their capture document, exposed by the next commit of
   * any writer) is not read: search of every document, its count, a field query, a path query, two facets and the
   * parts of a flow give, from a reader opened after the cut, exactly what they gave before it, in each case:
   * (1) a changed capture cut before the delete of the earlier documents (the earlier capture whole, the new flows
   * hidden); (2) the same content sent again and cut again, further on (both attempts hidden); then that capture
   * indexed whole: exactly the new capture, no document of an attempt left; (3) a third content cut between the delete
   * and its capture document: nothing of that path (the capture is simply not indexed), until indexed again. No filter
   * is sent when there is no orphan. Fails without the filter ({@code SolrFlowIndex.hidden} giving none): at (1), 5,499
   * flows of the path for 3,500.
   */
  @Test
  void aCutSendIsInvisibleToEveryRead(MiniSolrCloud cloud, @org.junit.jupiter.api.io.TempDir java.nio.file.Path spool) throws Exception {
    java.nio.file.Path was = SolrFlowIndex.spoolDir;
    SolrFlowIndex.spoolDir = spool;
    SolrTarget target = SolrTarget.parse(cloud.allNodeUrls(), "orphans");
    try (SolrFlowIndex writer = SolrFlowIndex.open(target, 2, 2)) {
      IndexedCapture big = capture("/caps/big.pcapng", 'f', T0, T0 + 9_000);
      IndexedCapture changed = capture("/caps/big.pcapng", '9', T0, T0 + 9_500);
      List<FlowDocument> docs = withFlows(big, 3_500), changedDocs = withFlows(changed, 3_500);
      writer.addCapture(big, docs);
      Reads before = reads(target, big, changed);
      assertEquals(3_500, before.total());
      assertEquals(flow(big, 4), before.parts());
      assertEquals(List.of(), before.changedParts());
      assertEquals(List.of(), writer.hidden(), "no orphan: no filter added to a read");

      // (1) cut at the third batch, before the delete
      try (SolrFlowIndex cut = SolrFlowIndex.open(target, 0, 0)) {
        SolrFlowIndex.sending = closingAt(cut, 2);
        assertThrows(Exception.class, () -> cut.addCapture(changed, changedDocs));
      }
      SolrFlowIndex.sending = n -> {};
      commit(target);
      assertEquals(2_000, raw(target, "capture_hash:" + changed.hash()), "the cut send's documents are in the collection");
      assertSameReads(before, reads(target, big, changed));
      try (SolrFlowIndex r = SolrFlowIndex.open(target, 0, 0)) {
        assertEquals(List.of(changed.hash()), r.orphans());
        assertEquals(1, r.hidden().size());
        assertEquals(List.of(big), r.captures());
      }

      // (2) the same content sent again, cut at the fourth batch: both attempts hidden
      try (SolrFlowIndex cut = SolrFlowIndex.open(target, 0, 0)) {
        SolrFlowIndex.sending = closingAt(cut, 3);
        assertThrows(Exception.class, () -> cut.addCapture(changed, changedDocs));
      }
      SolrFlowIndex.sending = n -> {};
      commit(target);
      assertEquals(3_000, raw(target, "capture_hash:" + changed.hash()));
      assertSameReads(before, reads(target, big, changed));
      // then indexed whole: exactly the new capture
      writer.addCapture(changed, changedDocs);
      Reads after = reads(target, big, changed);
      assertEquals(List.of(changed), writer.captures());
      assertEquals(3_500, after.total());
      assertEquals(3_500, after.byPath());
      java.util.Map<String, FlowDocument> sent = new java.util.HashMap<>();
      for (FlowDocument d : changedDocs) sent.put(d.id(), d);
      assertEquals(3_500, after.all().size());
      for (FlowDocument f : after.all()) assertEquals(sent.get(f.id()), f);
      assertEquals(List.of(), after.parts());
      assertEquals(flow(changed, 4), after.changedParts());
      assertEquals(before.top(), after.top(), "the same counters in the new capture's flows");
      assertEquals(3_502, raw(target, "capture_hash:" + changed.hash()), "no document of the cut attempts left");
      assertEquals(0, raw(target, "capture_hash:" + big.hash()));

      // (3) a third content cut between the delete and its capture document: nothing of that path is read
      IndexedCapture third = capture("/caps/big.pcapng", '7', T0, T0 + 9_700);
      List<FlowDocument> thirdDocs = withFlows(third, 3_500);
      try (SolrFlowIndex cut = SolrFlowIndex.open(target, 0, 0)) {
        SolrFlowIndex.sendingCapture = () -> {
          try {
            cut.close();
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        };
        assertThrows(Exception.class, () -> cut.addCapture(third, thirdDocs));
      } finally {
        SolrFlowIndex.sendingCapture = () -> {};
      }
      commit(target);
      assertEquals(3_501, raw(target, "capture_hash:" + third.hash()), "its flows and part, without a capture document");
      assertEquals(0, raw(target, "capture_hash:" + changed.hash()), "the earlier capture deleted");
      assertSameReads(new Reads(List.of(), 0, List.of(), 0, List.of(), List.of(), List.of(), List.of()), reads(target, changed, third));
      assertEquals(List.of(), writer.captures());
      writer.addCapture(third, thirdDocs);
      Reads thirdReads = reads(target, changed, third);
      assertEquals(3_500, thirdReads.total());
      assertEquals(flow(third, 4), thirdReads.changedParts());
      assertEquals(before.top(), thirdReads.top());
    } finally {
      SolrFlowIndex.sending = n -> {};
      SolrFlowIndex.spoolDir = was;
    }
  }

  /**
   * Orphans of many captures are hidden too: 1,100 flow documents of 1,100 captures, none with its capture document,
   * beside one whole capture; the hashes go in filters of at most 256 (as the expiry's deletes), sent in a POST. Fails
   * with the GET of before (SolrJ: "Could not hpack encode", the filters in the URL overflow HTTP/2's header encoder).
   */
  @Test
  void orphansOfManyCapturesAreHiddenInFiltersSolrTakes(MiniSolrCloud cloud) throws Exception {
    SolrTarget target = SolrTarget.parse(cloud.allNodeUrls(), "manyorphans");
    try (SolrFlowIndex writer = SolrFlowIndex.open(target, 2, 1)) {
      IndexedCapture c = capture("/caps/c.pcapng", 'c', T0, T0 + 9_000);
      writer.addCapture(c, withFlows(c, 10));
      try (var client = SolrCollections.connect(target)) {
        List<org.apache.solr.common.SolrInputDocument> orphans = new ArrayList<>();
        for (int i = 0; i < 1_100; i++) {
          String hash = String.format("%032x", i);
          IndexedCapture o = new IndexedCapture("/caps/o" + i + ".pcapng", 1234, hash, "pcapng", "mirror", T0, T0 + 1, T0);
          orphans.add(SolrDocuments.toSolr(identity(FlowDocument.builder(), o, hash + "/f0", 0)
              .put(FlowSchema.KIND, FlowSchema.KIND_FLOW).put(FlowSchema.FLOW, "f0").put("naks", 1L).build()));
        }
        client.add(orphans);
        client.commit(true, true);
      }
      assertEquals(1_110, raw(target, "kind:flow"));
      try (SolrFlowIndex r = SolrFlowIndex.open(target, 0, 0)) {
        assertEquals(1_100, r.orphans().size());
        assertEquals(5, r.hidden().size(), "1,100 hashes in filters of 256");
        assertEquals(where(i -> i < 10), r.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 10_000).flows().stream()
            .map(d -> Integer.parseInt(d.getString(FlowSchema.FLOW).substring(1))).toList());
        assertEquals(10, total(r, "*:*"));
        assertEquals(10, r.top(FlowSchema.field("dest_qp"), FlowSchema.field("naks"), 10, new FlowQuery.MatchAll())
            .stream().mapToLong(FacetBucket::flows).sum());
        assertEquals(List.of(), r.parts(String.format("%032x", 7) + "/f0"));
      }
    }
  }

  /**
   * A collection made by the tool before the attempt field (configset metaroce-flows-v1, the shipped one without that
   * field) opens, is searched and replaces captures as before (the earlier documents deleted first): Solr would refuse
   * a tagged document there ("unknown field").
   */
  @Test
  void aCollectionOfSchemaVersion1KeepsWorkingInItsOrder(MiniSolrCloud cloud) throws Exception {
    assertTrue(index.tagged());
    SolrTarget target = SolrTarget.parse(cloud.allNodeUrls(), "legacy");
    try (var client = SolrCollections.connect(target)) {
      var zip = new java.io.ByteArrayOutputStream();
      try (var out = new java.util.zip.ZipOutputStream(zip)) {
        for (String f : FlowConfigset.FILES) {
          out.putNextEntry(new java.util.zip.ZipEntry(f));
          String text = FlowConfigset.file(f);
          if (f.equals("managed-schema.xml")) {
            String line = text.lines().filter(l -> l.contains("name=\"" + SolrFlowIndex.ATTEMPT + "\"")).findFirst().orElseThrow();
            text = text.replace(line + "\n", "");
          }
          out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
          out.closeEntry();
        }
      }
      var stream = new org.apache.solr.common.util.ContentStreamBase.ByteArrayStream(zip.toByteArray(), "v1.zip", "application/zip");
      new org.apache.solr.client.solrj.request.ConfigSetAdminRequest.Upload().setConfigSetName(FlowConfigset.OLDER).setUploadStream(stream).process(client);
      var create = org.apache.solr.client.solrj.request.CollectionAdminRequest.createCollection("legacy", FlowConfigset.OLDER, 1, 1);
      create.setWaitForFinalState(true);
      create.process(client);
    }
    try (SolrFlowIndex legacy = SolrFlowIndex.open(target, 2, 2)) {
      assertFalse(legacy.tagged(), "no attempt field in a version 1 schema");
      IndexedCapture c = capture("/caps/c.pcapng", 'c', T0 + 5, T0 + 6);
      legacy.addCapture(c, withCapture(c, flow(c, 100)));
      IndexedCapture c2 = capture("/caps/c.pcapng", 'd', T0 + 5, T0 + 7);
      legacy.addCapture(c2, withCapture(c2, flow(c2, 101)));
      assertEquals(List.of(c2), legacy.captures());
      FlowDocument f = legacy.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 10).flows().getFirst();
      assertEquals(flow(c2, 101).getFirst(), f);
      assertEquals(2, raw(target, "*:*"), "the flow and its capture: the earlier capture deleted");
    }
  }

  @Test
  void capturesAreKnownByHashReplacedDeletedAndExpired() throws IOException {
    assertEquals(List.of(a, b), index.captures());
    assertEquals(b, index.capture(b.hash()));
    assertNull(index.capture("c".repeat(64)));

    // the same path with new content replaces the old capture's documents; re-adding by hash replaces too
    IndexedCapture c = capture("/caps/c.pcapng", 'c', T0 + 5, T0 + 6);
    index.addCapture(c, withCapture(c, flow(c, 100)));
    IndexedCapture c2 = capture("/caps/c.pcapng", 'd', T0 + 5, T0 + 7);
    index.addCapture(c2, withCapture(c2, flow(c2, 101)));
    assertNull(index.capture(c.hash()));
    assertEquals(List.of(101), flows("capture_path:\"/caps/c.pcapng\""));
    assertTrue(index.deleteCapture(c2.hash()));
    assertFalse(index.deleteCapture(c2.hash()));
    assertEquals(List.of(), flows("capture_path:\"/caps/c.pcapng\""));

    IndexedCapture old = capture("/caps/old.pcapng", 'e', T0 - 100, T0 - 50);
    index.addCapture(old, withCapture(old, flow(old, 102)));
    assertEquals(List.of(old), index.expireBefore(T0));
    assertNull(index.capture(old.hash()));
    assertEquals(List.of(a, b), index.captures());
  }
}

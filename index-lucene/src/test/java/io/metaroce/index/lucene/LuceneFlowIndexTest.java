package io.metaroce.index.lucene;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.index.FacetBucket;
import io.metaroce.index.FieldDef;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowQueryMatcher;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.IndexFormatException;
import io.metaroce.index.SearchResult;
import io.metaroce.index.SyntheticFlows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded index on disk against the in-memory meaning of each query ({@link FlowQueryMatcher}). */
class LuceneFlowIndexTest {
    static final List<String> QUERIES = List.of("naks:[5 TO *]", "dest_qp:0x000201", "src:10.0.0.0/24", "src:10.0.1.0/24 OR dst:fd00::/112",
            "first:[2026-11-30T00:55 TO 2026-11-30T00:57]", "last:<2026-11-30T00:55:30", "rule:MR-RTX-*", "rule:MR-RTX-00? AND NOT events:nak",
            "ce_without_cnp:*", "NOT ce_without_cnp:*", "transport:metaroce AND paths.2.loss_rate:>0", "ce_paths:1",
            "src_qps:[100 TO 150]", "10.1.0.3", "(naks:>3 || cnps:4) && -service:ud", "credit_mode:true cnps:{1 TO 4}",
            "*:*", "retransmissions_by_cause.nak:3", "dst:[10.1.0.2 TO 10.1.0.5]", "flow:*-1?", "capture:\"/captures/host3.pcapng\"");
    @TempDir static Path tmp;
    static Path dir;
    static List<FlowDocument> flows = new ArrayList<>();

    @BeforeAll
    static void build() throws Exception {
        dir = tmp.resolve("flows.idx");
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForWriting(dir)) {
            for (int c = 0; c < 6; c++) {
                SyntheticFlows.Capture cap = SyntheticFlows.capture(c, 400, 42);
                idx.addCapture(cap.capture(), cap.documents());
                flows.addAll(cap.flows());
            }
        }
    }

    @Test
    void everyQueryKindMatchesExactlyItsMeaning() throws Exception {
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForReading(dir)) {
            for (String text : QUERIES) {
                FlowQuery q = FlowQueryParser.parse(text);
                List<String> want = flows.stream().filter(d -> FlowQueryMatcher.matches(q, d)).map(FlowDocument::id).sorted().toList();
                SearchResult r = idx.search(q, FlowSort.DEFAULT, 100_000);
                assertEquals(want.size(), r.total(), text);
                assertEquals(want, r.flows().stream().map(FlowDocument::id).sorted().toList(), text);
                assertFalse(want.isEmpty() && !text.startsWith("NOT"), "the fixture exercises " + text);
            }
        }
    }

    @Test
    void documentsComeBackWholeAndPartsInOrder() throws Exception {
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForReading(dir)) {
            FlowDocument longest = flows.stream().max(Comparator.comparingLong(d -> d.getLong("packets"))).orElseThrow();
            FlowDocument back = idx.search(new FlowQuery.Term(FlowSchema.field(FlowSchema.ID), longest.id()), FlowSort.DEFAULT, 1).flows().get(0);
            assertEquals(longest, back);
            List<FlowDocument> parts = idx.parts(longest.getString(FlowSchema.ROOT_ID));
            assertEquals(longest.getLong(FlowSchema.PARTS).intValue(), parts.size());
            assertTrue(parts.size() > 1);
            long[] offsets = parts.stream().flatMapToLong(p -> java.util.Arrays.stream(p.offsets())).toArray();
            assertEquals(longest.getLong("packets"), offsets.length);
            assertArrayEquals(longest.offsets(), java.util.Arrays.copyOf(offsets, longest.offsets().length));
        }
    }

    @Test
    void sortsByAnyNumericFieldWithTiesById() throws Exception {
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForReading(dir)) {
            for (String spec : List.of("naks", "ce_without_cnp:desc", "first:asc", "dest_qp:asc")) {
                FlowSort s = FlowSort.parse(spec);
                Comparator<FlowDocument> byField = Comparator.comparing((FlowDocument d) -> d.getLong(s.field().name()),
                        s.descending() ? Comparator.nullsLast(Comparator.<Long>reverseOrder()) : Comparator.nullsLast(Comparator.<Long>naturalOrder()));
                List<String> want = flows.stream().sorted(byField.thenComparing(FlowDocument::id)).limit(50).map(FlowDocument::id).toList();
                assertEquals(want, idx.search(new FlowQuery.MatchAll(), s, 50).flows().stream().map(FlowDocument::id).toList(), spec);
            }
        }
    }

    @Test
    void topFacetsAreExact() throws Exception {
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForReading(dir)) {
            String[][] cases = {{"dest_qp", "naks", "*:*"}, {"src", "ce_marks", "*:*"}, {"dst", "retransmitted_packets", "transport:rocev2"},
                    {"rules", "naks", "*:*"}, {"ce_paths", "ce_marks", "*:*"}, {"capture_path", "cnps", "naks:>0"}, {"src_qps", "packets", "*:*"}};
            for (String[] c : cases) {
                FieldDef g = FlowSchema.field(c[0]), by = FlowSchema.field(c[1]);
                FlowQuery f = FlowQueryParser.parse(c[2]);
                List<FacetBucket> want = SyntheticFlows.top(flows, g, by, 10, f);
                assertEquals(want, idx.top(g, by, 10, f), String.join(" ", c));
                assertFalse(want.isEmpty());
            }
            assertThrows(IllegalArgumentException.class, () -> idx.top(FlowSchema.field("first_ns"), FlowSchema.field("naks"), 10, new FlowQuery.MatchAll()));
            assertThrows(IllegalArgumentException.class, () -> idx.top(FlowSchema.field("dest_qp"), FlowSchema.field("credit_mode"), 10, new FlowQuery.MatchAll()));
        }
    }

    @Test
    void captureIdentityReplaceDeleteAndExpire(@TempDir Path t) throws Exception {
        Path d = t.resolve("i");
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForWriting(d)) {
            SyntheticFlows.Capture a = SyntheticFlows.capture(1, 20, 1), b = SyntheticFlows.capture(2, 30, 1);
            idx.addCapture(a.capture(), a.documents());
            idx.addCapture(b.capture(), b.documents());
            assertTrue(idx.hasCapture(a.capture().hash()));
            assertEquals(a.capture(), idx.capture(a.capture().hash()));
            assertEquals(50, idx.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
            // the same path with new content replaces the old documents
            SyntheticFlows.Capture a2 = SyntheticFlows.capture(7, 5, 1);
            var moved = new io.metaroce.index.IndexedCapture(a.capture().path(), 9, a2.capture().hash(), "pcap", "mirror", a2.capture().firstNs(),
                    a2.capture().lastNs(), 1);
            List<FlowDocument> redone = new ArrayList<>();
            for (FlowDocument x : a2.documents()) {
                FlowDocument.Builder nb = FlowDocument.builder();
                x.fields().forEach((k, v) -> {
                    if (v instanceof List<?> l) l.forEach(e -> nb.add(k, e));
                    else nb.put(k, k.equals(FlowSchema.CAPTURE_PATH) ? moved.path() : v);
                });
                redone.add(nb.build());
            }
            idx.addCapture(moved, redone);
            assertFalse(idx.hasCapture(a.capture().hash()));
            assertEquals(35, idx.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
            assertEquals(2, idx.captures().size());
            assertTrue(idx.deleteCapture(b.capture().hash()));
            assertFalse(idx.deleteCapture(b.capture().hash()));
            assertEquals(5, idx.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
            assertEquals(List.of(), idx.expireBefore(a2.capture().lastNs()));
            assertEquals(1, idx.expireBefore(a2.capture().lastNs() + 1).size());
            assertEquals(0, idx.captures().size());
            assertEquals(0, idx.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 10).total());
        }
    }

    @Test
    void aReaderSeesWholeCapturesWhileAWriterAdds(@TempDir Path t) throws Exception {
        Path d = t.resolve("live");
        try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(d); LuceneFlowIndex r = LuceneFlowIndex.openForReading(d)) {
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread reader = Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < 200; i++) {
                        for (var c : r.captures()) {
                            long n = r.search(FlowQueryParser.parse("hash:" + c.hash()), FlowSort.DEFAULT, 0).total();
                            long want = SyntheticFlows.capture(Integer.parseInt(c.path().replaceAll("\\D", "")), 0, 5).capture().hash().equals(c.hash()) ? 100 : -1;
                            if (n != want) throw new AssertionError(c.path() + ": " + n + " flows of 100");
                        }
                    }
                } catch (Throwable x) {
                    failed.set(x);
                }
            });
            for (int c = 0; c < 15; c++) {
                SyntheticFlows.Capture cap = SyntheticFlows.capture(c, 100, 5);
                w.addCapture(cap.capture(), cap.documents());
            }
            reader.join();
            if (failed.get() != null) throw new AssertionError(failed.get());
            assertEquals(15, r.captures().size());
        }
    }

    @Test
    void aDirectoryThatIsNoIndexGetsOneLine(@TempDir Path t) throws Exception {
        Path other = Files.createDirectories(t.resolve("photos"));
        Files.writeString(other.resolve("a.jpg"), "x");
        String m = assertThrows(IndexFormatException.class, () -> LuceneFlowIndex.openForWriting(other)).getMessage();
        assertTrue(m.contains("not a metaroce flow index") && !m.contains("\n"), m);
        assertTrue(assertThrows(IndexFormatException.class, () -> LuceneFlowIndex.openForReading(other)).getMessage().contains("not a metaroce flow index"));
        assertTrue(assertThrows(IndexFormatException.class, () -> LuceneFlowIndex.openForReading(t.resolve("none"))).getMessage().contains("no flow index there"));
        assertTrue(assertThrows(IndexFormatException.class, () -> LuceneFlowIndex.openForReading(other.resolve("a.jpg"))).getMessage().contains("is a file"));

        Path old = t.resolve("old");
        try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(old)) {
            assertNull(w.capture(SyntheticFlows.hash(1)));
            assertTrue(assertThrows(IndexFormatException.class, () -> LuceneFlowIndex.openForWriting(old)).getMessage().contains("another metaroce index is writing"));
        }
        Files.writeString(old.resolve(IndexMarker.FILE), "schema=0\n");
        String v = assertThrows(IndexFormatException.class, () -> LuceneFlowIndex.openForReading(old)).getMessage();
        assertTrue(v.contains("schema version 0; this metaroce reads version " + FlowSchema.VERSION), v);
    }
}

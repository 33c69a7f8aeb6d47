package io.metaroce.index.lucene;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.index.CommitGroups;
import io.metaroce.index.FlowIndex;
import io.metaroce.index.FlowIndexContract;
import java.io.IOException;
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

/**
 * The embedded index on disk: the backend contract ({@link FlowIndexContract}: every query kind against its
 * meaning, sorts, exact facets, documents whole), queried through an index reopened for reading as
 * {@code metaroce search} opens it; then what only the directory backend has (capture identity, concurrent
 * reader and writer, directories that are not an index).
 */
class LuceneFlowIndexTest extends FlowIndexContract {
    @TempDir static Path tmp;

    @Override
    protected FlowIndex newIndex() throws IOException { return LuceneFlowIndex.openForWriting(tmp.resolve("flows.idx")); }

    @Override
    protected FlowIndex forQueries(FlowIndex filled) throws IOException {
        filled.close();
        return LuceneFlowIndex.openForReading(tmp.resolve("flows.idx"));
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
            Thread reader = running(failed, () -> {
                for (int i = 0; i < 200; i++) {
                    for (var c : r.captures()) {
                        long n = r.search(FlowQueryParser.parse("hash:" + c.hash()), FlowSort.DEFAULT, 0).total();
                        long want = SyntheticFlows.capture(Integer.parseInt(c.path().replaceAll("\\D", "")), 0, 5).capture().hash().equals(c.hash()) ? 100 : -1;
                        if (n != want) throw new AssertionError(c.path() + ": " + n + " flows of 100");
                    }
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

    /**
     * A capture new to the index is a plain add (no delete query for Lucene to apply); one whose path or content the
     * index may hold still replaces it: indexed by an earlier writer (the last commit holds it), or being added by
     * another thread of this one (the later add waits for the earlier, so its delete comes after those documents).
     */
    @Test
    void aCaptureIndexedBeforeOrMeanwhileIsReplacedNotDoubled(@TempDir Path t) throws Exception {
        Path d = t.resolve("i");
        try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(d)) {
            SyntheticFlows.Capture a = SyntheticFlows.capture(8, 30, 1);
            w.addCapture(a.capture(), a.documents());
        }
        try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(d)) {
            SyntheticFlows.Capture again = SyntheticFlows.capture(8, 12, 2); // same path and hash, other documents
            w.addCapture(again.capture(), again.documents());
            assertEquals(12, w.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());

            // Thread one adds capture 6 and stops after its first document; thread two adds capture 6 again meanwhile.
            SyntheticFlows.Capture first = SyntheticFlows.capture(6, 40, 1), second = SyntheticFlows.capture(6, 25, 2);
            java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1), go = new java.util.concurrent.CountDownLatch(1);
            Iterable<FlowDocument> slow = watched(first.documents(), n -> {
                if (n == 2) holdAt(started, go);
            });
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread one = running(failed, () -> w.addCapture(first.capture(), slow));
            assertTrue(started.await(10, java.util.concurrent.TimeUnit.SECONDS));
            Thread two = running(failed, () -> w.addCapture(second.capture(), second.documents()));
            // Two waits for one (or, if it did not, has finished: its delete then came before one's documents).
            while (two.getState() != Thread.State.WAITING && two.isAlive()) Thread.sleep(5);
            go.countDown();
            one.join();
            two.join();
            if (failed.get() != null) throw new AssertionError(failed.get());
            assertEquals(12 + 25, w.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
            assertEquals(25, w.search(FlowQueryParser.parse("capture_hash:" + second.capture().hash()), FlowSort.DEFAULT, 0).total());
            assertEquals(2, w.captures().size());
        }
    }

    /**
     * A writer that created the index answers its capture listings and checks from what it knows (nothing committed)
     * and opens no reader until a commit may hold documents; from then on it reads the index, so that a capture added
     * again replaces its documents instead of doubling them. A writer of an existing index reads it from the start.
     */
    @Test
    void aNewIndexIsAnsweredWithoutAReaderUntilItsFirstCommit(@TempDir Path t) throws Exception {
        Path d = t.resolve("new");
        SyntheticFlows.Capture a = SyntheticFlows.capture(3, 20, 1), again = SyntheticFlows.capture(3, 7, 2);
        try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(d)) {
            assertEquals(List.of(), w.captures());
            assertNull(w.capture(a.capture().hash()));
            w.addUncommitted(a.capture(), a.documents());
            assertNull(w.capture(a.capture().hash()), "not committed yet: no reader sees it");
            assertFalse(w.readerOpen());
            w.commit();
            assertEquals(a.capture(), w.capture(a.capture().hash()));
            assertTrue(w.readerOpen());
            w.addCapture(again.capture(), again.documents()); // same path and content: replaced
            assertEquals(7, w.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
        }
        try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(d)) {
            assertTrue(w.readerOpen());
            assertEquals(List.of(again.capture()), w.captures());
            w.addCapture(a.capture(), a.documents());
            assertEquals(20, w.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
        }
    }

    /**
     * metaroce index's commits in groups: a capture added is neither seen by a reader nor reported until the commit
     * of its group (by documents, by its age on the timer, or the run's end), then all of the group is, in order;
     * a writer that ends without that commit leaves the index as of the last one; a copy of a waiting capture is
     * known by its hash meanwhile.
     */
    @Test
    void capturesCommitInGroupsAndAreReportedOnlyOnceCommitted(@TempDir Path t) throws Exception {
        Path d = t.resolve("groups");
        List<String> reported = java.util.Collections.synchronizedList(new ArrayList<>());
        try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(d); LuceneFlowIndex r = LuceneFlowIndex.openForReading(d)) {
            List<SyntheticFlows.Capture> caps = new ArrayList<>();
            for (int c = 0; c < 6; c++) caps.add(SyntheticFlows.capture(c, c < 3 ? 100 : 10, 5)); // with part documents
            assertTrue(caps.get(0).documents().size() + caps.get(1).documents().size() < 250 && caps.get(2).documents().size() > 101);
            CommitGroups g = new CommitGroups(w, 250, 600);
            for (int c = 0; c < 2; c++) {
                SyntheticFlows.Capture cap = caps.get(c);
                int k = c;
                g.add(cap.capture(), cap.documents(), n -> reported.add(k + ":" + n));
                assertEquals(List.of(), reported);
                assertEquals(0, r.captures().size(), "not committed yet");
                assertEquals(cap.capture(), g.uncommitted(cap.capture().hash()));
            }
            g.whenCommitted(SyntheticFlows.hash(1), () -> reported.add("copy of 1"));
            g.whenCommitted(SyntheticFlows.hash(9), () -> reported.add("not of this run"));
            assertEquals(List.of("not of this run"), reported);
            SyntheticFlows.Capture third = caps.get(2);
            g.add(third.capture(), third.documents(), n -> reported.add("2:" + n)); // over 250 documents: the group commits
            assertEquals(List.of("not of this run", "0:" + caps.get(0).documents().size(), "1:" + caps.get(1).documents().size(), "copy of 1",
                    "2:" + third.documents().size()), reported);
            assertEquals(1, g.commits());
            assertEquals(3, r.captures().size());
            assertNull(g.uncommitted(third.capture().hash()));
            // The run's end commits what waits, and only then reports it.
            SyntheticFlows.Capture fourth = caps.get(3);
            g.add(fourth.capture(), fourth.documents(), n -> reported.add("3:" + n));
            assertEquals(5, reported.size());
            g.commit();
            assertEquals("3:" + fourth.documents().size(), reported.get(5));
            g.commit(); // nothing waits: no commit
            assertEquals(2, g.commits());
            g.close();
            // A capture that waits longer than the time given is committed by the timer, no other capture ending.
            CommitGroups timed = new CommitGroups(w, 1_000_000, 0.2);
            SyntheticFlows.Capture fifth = caps.get(4);
            timed.add(fifth.capture(), fifth.documents(), n -> reported.add("4:" + n));
            for (int i = 0; i < 200 && reported.size() < 7; i++) Thread.sleep(25);
            assertEquals("4:" + fifth.documents().size(), reported.get(6));
            assertEquals(1, timed.commits());
            assertEquals(5, r.captures().size());
            timed.close();
            // Added, never committed: gone with the writer (commitOnClose is off), never reported.
            CommitGroups cut = new CommitGroups(w, 1_000_000, 600);
            SyntheticFlows.Capture sixth = caps.get(5);
            cut.add(sixth.capture(), sixth.documents(), n -> reported.add("5:" + n));
            cut.close();
        }
        assertEquals(7, reported.size());
        try (LuceneFlowIndex again = LuceneFlowIndex.openForReading(d)) {
            assertEquals(5, again.captures().size());
            assertEquals(3 * 100 + 2 * 10, again.search(FlowQueryParser.parse("*:*"), FlowSort.DEFAULT, 0).total());
        }
    }

    /**
     * Documents made while Lucene takes them (metaroce index streams a capture's documents): the same documents
     * come back as from a list, and an iteration that fails midway leaves the capture's earlier documents, and
     * none of the new ones, also after a commit of the writer and a reopen.
     */
    @Test
    void aStreamedCaptureIsAddedWholeOrNotAtAll(@TempDir Path t) throws Exception {
        Path d = t.resolve("i");
        SyntheticFlows.Capture a = SyntheticFlows.capture(4, 300, 9);
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForWriting(d)) {
            idx.addCapture(a.capture(), (Iterable<FlowDocument>) () -> a.documents().iterator());
            SearchResult all = idx.search(new FlowQuery.MatchAll(), FlowSort.parse("naks"), 1000);
            assertEquals(a.flows().size(), all.total());
            for (FlowDocument f : all.flows()) assertEquals(a.documents().stream().filter(x -> x.id().equals(f.id())).findFirst().orElseThrow(), f);

            // The same path again, with other content whose iteration breaks after half of its documents.
            SyntheticFlows.Capture b = SyntheticFlows.capture(4, 300, 10);
            Iterable<FlowDocument> broken = watched(b.documents(), n -> {
                if (n > b.documents().size() / 2) throw new IllegalStateException("analysis failed");
            });
            assertThrows(IllegalStateException.class, () -> idx.addCapture(b.capture(), broken));
            idx.addCapture(SyntheticFlows.capture(5, 10, 9).capture(), SyntheticFlows.capture(5, 10, 9).documents()); // commits
        }
        try (LuceneFlowIndex r = LuceneFlowIndex.openForReading(d)) {
            assertEquals(a.flows().size() + 10, r.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
            assertEquals(a.flows().size(), r.search(FlowQueryParser.parse("capture_hash:" + a.capture().hash()), FlowSort.DEFAULT, 0).total());
        }
    }

    /**
     * A capture of more documents than a block ({@code LuceneFlowIndex.blockDocuments}: Lucene cannot flush a block
     * before its end, so a capture of 10^6 QP flows is added in several) is still whole or absent in every commit:
     * a commit by another thread waits for the add's last block, and an iteration that fails after some blocks
     * leaves none of the capture's documents in the next commit.
     */
    @Test
    void aCaptureOfManyBlocksIsCommittedWholeOrNotAtAll(@TempDir Path t) throws Exception {
        int was = LuceneFlowIndex.blockDocuments;
        LuceneFlowIndex.blockDocuments = 7;
        Path d = t.resolve("i");
        try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(d)) {
            SyntheticFlows.Capture a = SyntheticFlows.capture(1, 100, 3);
            java.util.concurrent.CountDownLatch midway = new java.util.concurrent.CountDownLatch(1), go = new java.util.concurrent.CountDownLatch(1);
            Iterable<FlowDocument> paused = watched(a.documents(), n -> {
                if (n == 30) holdAt(midway, go);
            });
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread adder = running(failed, () -> w.addUncommitted(a.capture(), paused));
            midway.await();
            // Four blocks are in the writer and a fifth is being added: a commit made now would hold them without the
            // rest (Lucene itself waits only for the block in progress). What the committer's commit holds is read
            // back at once; no other commit comes before the test's own, after both threads end.
            java.util.concurrent.atomic.AtomicLong committed = new java.util.concurrent.atomic.AtomicLong(-1);
            Thread committer = running(failed, () -> {
                w.commit();
                try (LuceneFlowIndex r = LuceneFlowIndex.openForReading(d)) {
                    committed.set(r.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
                }
            });
            committer.join(200);
            go.countDown();
            adder.join();
            committer.join();
            if (failed.get() != null) throw new AssertionError(failed.get());
            assertTrue(committed.get() == 0 || committed.get() == 100, committed.get() + " flows of 100 in a commit made during the add");
            w.commit();

            // A new capture whose iteration breaks after four blocks: none of it in the next commit.
            SyntheticFlows.Capture b = SyntheticFlows.capture(2, 100, 4);
            Iterable<FlowDocument> broken = watched(b.documents(), n -> {
                if (n > 30) throw new IllegalStateException("analysis failed");
            });
            assertThrows(IllegalStateException.class, () -> w.addUncommitted(b.capture(), broken));
            w.commit();
        } finally {
            LuceneFlowIndex.blockDocuments = was;
        }
        try (LuceneFlowIndex r = LuceneFlowIndex.openForReading(d)) {
            assertEquals(100, r.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
            assertEquals(1, r.captures().size());
        }
    }

    /** The capture found at path instead of its own. */
    private static io.metaroce.index.IndexedCapture atPath(io.metaroce.index.IndexedCapture c, String path) {
        return new io.metaroce.index.IndexedCapture(path, c.size(), c.hash(), c.format(), c.tap(), c.firstNs(), c.lastNs(),
                c.indexedAtNs());
    }

    /** The documents with their capture path replaced by path: another content found at a path indexed before. */
    private static List<FlowDocument> atPath(List<FlowDocument> docs, String path) {
        List<FlowDocument> moved = new ArrayList<>();
        for (FlowDocument x : docs) {
            FlowDocument.Builder nb = FlowDocument.builder();
            x.fields().forEach((k, v) -> {
                if (v instanceof List<?> l) l.forEach(e -> nb.add(k, e));
                else nb.put(k, k.equals(FlowSchema.CAPTURE_PATH) ? path : v);
            });
            moved.add(nb.build());
        }
        return moved;
    }

    /**
     * A capture that replaces earlier documents (a changed file indexed again: the same path, another hash) and whose
     * iteration fails in a later block leaves the earlier documents whole, in the writer and after the next commit
     * and a reopen; the same replacement that succeeds leaves only the new ones, also when the earlier documents have
     * the same path and hash (the same file indexed again), and a commit by another thread while its blocks go in
     * holds the earlier capture whole. Before, the first block's {@code updateDocuments} deleted the earlier
     * documents: a failure after it lost both.
     */
    @Test
    void aReplacingCaptureThatFailsInALaterBlockLeavesTheEarlierDocuments(@TempDir Path t) throws Exception {
        int was = LuceneFlowIndex.blockDocuments;
        LuceneFlowIndex.blockDocuments = 7;
        Path d = t.resolve("i");
        SyntheticFlows.Capture old = SyntheticFlows.capture(1, 60, 3);
        SyntheticFlows.Capture changedContent = SyntheticFlows.capture(2, 100, 4);
        // Capture 2's documents under capture 1's path: the file at that path changed.
        io.metaroce.index.IndexedCapture changed = atPath(changedContent.capture(), old.capture().path());
        List<FlowDocument> changedDocs = atPath(changedContent.documents(), changed.path());
        try {
            try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(d)) {
                w.addCapture(old.capture(), old.documents());
            }
            try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(d)) {
                // Fails in its sixth block: five blocks (35 documents) of the new content are in the writer.
                Iterable<FlowDocument> broken = watched(changedDocs, n -> {
                    if (n == 40) throw new IllegalStateException("analysis failed");
                });
                assertThrows(IllegalStateException.class, () -> w.addUncommitted(changed, broken));
                w.commit();
                assertEquals(old.flows().size(), w.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
                assertEquals(old.capture(), w.capture(old.capture().hash()));
                assertNull(w.capture(changed.hash()));
            }
            try (LuceneFlowIndex r = LuceneFlowIndex.openForReading(d)) {
                assertEquals(old.flows().size(), r.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
                assertEquals(old.flows().size(), r.search(FlowQueryParser.parse("capture_hash:" + old.capture().hash()), FlowSort.DEFAULT, 0).total());
                assertEquals(List.of(old.capture()), r.captures());
            }
            try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(d)) {
                // The same replacement, held after four blocks while another thread commits: that commit holds the
                // earlier capture whole, and the end of the add replaces it whole.
                java.util.concurrent.CountDownLatch midway = new java.util.concurrent.CountDownLatch(1), go = new java.util.concurrent.CountDownLatch(1);
                Iterable<FlowDocument> paused = watched(changedDocs, n -> {
                    if (n == 30) holdAt(midway, go);
                });
                AtomicReference<Throwable> failed = new AtomicReference<>();
                Thread adder = running(failed, () -> w.addUncommitted(changed, paused));
                midway.await();
                java.util.concurrent.atomic.AtomicReference<List<Long>> committed = new AtomicReference<>();
                Thread committer = running(failed, () -> {
                    w.commit();
                    try (LuceneFlowIndex r = LuceneFlowIndex.openForReading(d)) {
                        committed.set(List.of(r.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total(),
                                r.search(FlowQueryParser.parse("capture_hash:" + changed.hash()), FlowSort.DEFAULT, 0).total()));
                    }
                });
                committer.join(200);
                go.countDown();
                adder.join();
                committer.join();
                if (failed.get() != null) throw new AssertionError(failed.get());
                assertTrue(committed.get().equals(List.of((long) old.flows().size(), 0L)) || committed.get().equals(List.of(100L, 100L)),
                        "a commit during the replacement held " + committed.get() + " (all flows, new flows)");
                w.commit();
                assertEquals(100, w.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
                assertEquals(List.of(changed), w.captures());

                // The same path and content again (its documents cannot be told from the earlier ones but by the add's
                // tag): replaced, not doubled, in many blocks; and again failing in a later block: left as it was.
                w.addCapture(changed, changedDocs);
                assertEquals(100, w.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
                Iterable<FlowDocument> brokenAgain = watched(changedDocs, n -> {
                    if (n == 90) throw new IllegalStateException("analysis failed");
                });
                assertThrows(IllegalStateException.class, () -> w.addUncommitted(changed, brokenAgain));
                w.commit();
                assertEquals(100, w.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
                assertEquals(List.of(changed), w.captures());
            }
        } finally {
            LuceneFlowIndex.blockDocuments = was;
        }
        try (LuceneFlowIndex r = LuceneFlowIndex.openForReading(d)) {
            SearchResult all = r.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 1000);
            assertEquals(100, all.total());
            for (FlowDocument f : all.flows()) assertEquals(changedDocs.stream().filter(x -> x.id().equals(f.id())).findFirst().orElseThrow(), f);
        }
    }

    /**
     * While a capture of many blocks is held inside its iteration (its add told it has that many documents, as {@code
     * metaroce index} tells it), a small capture added on another thread is committed and reported, a reader sees it
     * and nothing of the held one, and the same thread's next add and commit complete too; then the held capture ends
     * and is committed whole, brought in from its scratch directory, which is gone. Before (every capture's blocks
     * under the commit lock), the small capture's commit waited for the held add's last block: here for ever, so the
     * wait below fails after a minute instead (the huge capture of CommitWaitBench: 58-59 s of waiting).
     */
    @Test
    void aSmallCapturesCommitDoesNotWaitForACaptureOfManyBlocks(@TempDir Path t) throws Exception {
        int was = LuceneFlowIndex.blockDocuments;
        LuceneFlowIndex.blockDocuments = 7;
        Path d = t.resolve("i");
        long linked = LuceneFlowIndex.linkedFiles.get();
        try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(d); CommitGroups groups = new CommitGroups(w, 1, 3600)) {
            SyntheticFlows.Capture huge = SyntheticFlows.capture(1, 100, 3);
            java.util.concurrent.CountDownLatch midway = new java.util.concurrent.CountDownLatch(1), go = new java.util.concurrent.CountDownLatch(1);
            Iterable<FlowDocument> paused = watched(huge.documents(), n -> {
                if (n == 50) holdAt(midway, go);
            });
            AtomicReference<Throwable> failed = new AtomicReference<>();
            java.util.concurrent.atomic.AtomicLong hugeReported = new java.util.concurrent.atomic.AtomicLong(-1);
            Thread adder = running(failed, () -> groups.add(huge.capture(), paused, huge.documents().size(), hugeReported::set));
            try {
                midway.await();
                assertEquals(1, scratchDirectories(d).size(), "the capture of many blocks is added in a scratch directory of its own");
                java.util.concurrent.CompletableFuture<List<Long>> small = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                    try {
                        List<Long> reported = java.util.Collections.synchronizedList(new ArrayList<>());
                        for (int c = 2; c <= 3; c++) {
                            SyntheticFlows.Capture s = SyntheticFlows.capture(c, 3, c);
                            groups.add(s.capture(), s.documents(), s.documents().size(), reported::add);
                        }
                        return reported;
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                // Not a measure of time: the minute is only there so that the old code fails instead of hanging.
                List<Long> expected = List.of((long) SyntheticFlows.capture(2, 3, 2).documents().size(), (long) SyntheticFlows.capture(3, 3, 3).documents().size());
                assertEquals(expected, small.get(60, java.util.concurrent.TimeUnit.SECONDS), "both small captures committed and reported");
                assertEquals(-1, hugeReported.get());
                try (LuceneFlowIndex r = LuceneFlowIndex.openForReading(d)) {
                    assertEquals(6, r.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
                    assertEquals(List.of(SyntheticFlows.identity(2), SyntheticFlows.identity(3)), r.captures());
                }
            } finally {
                go.countDown();
                adder.join();
            }
            if (failed.get() != null) throw new AssertionError(failed.get());
            groups.commit();
            assertEquals(huge.documents().size(), hugeReported.get());
            assertEquals(1, w.apartAdded.get());
            assertEquals(List.of(), scratchDirectories(d));
            assertTrue(LuceneFlowIndex.linkedFiles.get() > linked, "the scratch segments' files were linked into the index");
        } finally {
            LuceneFlowIndex.blockDocuments = was;
        }
        try (LuceneFlowIndex r = LuceneFlowIndex.openForReading(d)) {
            SearchResult all = r.search(FlowQueryParser.parse("capture_hash:" + SyntheticFlows.hash(1)), FlowSort.DEFAULT, 1000);
            assertEquals(100, all.total());
            List<FlowDocument> expected = SyntheticFlows.capture(1, 100, 3).flows();
            for (FlowDocument f : all.flows()) assertEquals(expected.stream().filter(x -> x.id().equals(f.id())).findFirst().orElseThrow(), f);
            assertEquals(3, r.captures().size());
        }
    }

    /**
     * A capture of many blocks added apart that replaces an earlier one (same path, other content): a failure in a
     * later block leaves the earlier capture whole and no scratch directory; the whole add replaces it, with links
     * and, when links are off, with copies; the same path and content again is replaced, not doubled; and a scratch
     * directory left by a killed writer is removed by the next one.
     */
    @Test
    void aCaptureAddedApartReplacesWholeOrLeavesTheEarlier(@TempDir Path t) throws Exception {
        int was = LuceneFlowIndex.blockDocuments;
        LuceneFlowIndex.blockDocuments = 7;
        Path d = t.resolve("i");
        SyntheticFlows.Capture old = SyntheticFlows.capture(1, 60, 3);
        SyntheticFlows.Capture changedContent = SyntheticFlows.capture(2, 100, 4);
        io.metaroce.index.IndexedCapture changed = atPath(changedContent.capture(), old.capture().path());
        List<FlowDocument> changedDocs = atPath(changedContent.documents(), changed.path());
        try {
            try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(d)) {
                w.addUncommitted(old.capture(), old.documents(), old.documents().size());
                w.commit();
                assertEquals(1, w.apartAdded.get());
                Iterable<FlowDocument> broken = watched(changedDocs, n -> {
                    if (n == 40) throw new IllegalStateException("analysis failed");
                });
                assertThrows(IllegalStateException.class, () -> w.addUncommitted(changed, broken, changedDocs.size()));
                w.commit();
                assertEquals(List.of(), scratchDirectories(d));
                assertEquals(old.flows().size(), w.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
                assertEquals(List.of(old.capture()), w.captures());
            }
            // A killed writer's scratch directory, with a segment's file in it: removed when the index is opened.
            Path left = Files.createDirectories(d.resolve(LuceneFlowIndex.SCRATCH + "killed"));
            Files.writeString(left.resolve("_0.si"), "half");
            for (boolean links : new boolean[] {false, true}) {
                LuceneFlowIndex.linkFiles = links;
                long copied = LuceneFlowIndex.copiedFiles.get(), linked = LuceneFlowIndex.linkedFiles.get();
                try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(d)) {
                    assertEquals(List.of(), scratchDirectories(d));
                    w.addUncommitted(changed, changedDocs, changedDocs.size());
                    w.commit();
                    assertEquals(100, w.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
                    assertEquals(List.of(changed), w.captures());
                }
                assertEquals(links, LuceneFlowIndex.linkedFiles.get() > linked);
                assertEquals(!links, LuceneFlowIndex.copiedFiles.get() > copied);
            }
        } finally {
            LuceneFlowIndex.blockDocuments = was;
            LuceneFlowIndex.linkFiles = true;
        }
        try (LuceneFlowIndex r = LuceneFlowIndex.openForReading(d)) {
            SearchResult all = r.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 1000);
            assertEquals(100, all.total());
            for (FlowDocument f : all.flows()) assertEquals(changedDocs.stream().filter(x -> x.id().equals(f.id())).findFirst().orElseThrow(), f);
            assertEquals(List.of(changed), r.captures());
        }
    }

    /** The scratch directories of captures added apart in the index directory. */
    private static List<Path> scratchDirectories(Path index) throws IOException {
        try (var s = Files.list(index)) {
            return s.filter(p -> p.getFileName().toString().startsWith(LuceneFlowIndex.SCRATCH)).toList();
        }
    }

    /** The indexing buffer is a sixth of the heap at most, and the configured 128 MB from a heap of 768 MiB. */
    @Test
    void theBufferFitsTheHeap() {
        assertEquals(128, LuceneFlowIndex.ramBufferMb(6L << 30));
        assertEquals(128, LuceneFlowIndex.ramBufferMb(768L << 20));
        assertEquals(128.0 / 6, LuceneFlowIndex.ramBufferMb(128L << 20), 1e-9);
        assertEquals(4, LuceneFlowIndex.ramBufferMb(8L << 20));
    }

    /**
     * A commit with no add running flushes the buffers of the threads that added, one per thread at once
     * ({@code LuceneFlowIndex.flushInParallel}); the captures are all in the commit. Below the threshold (a small
     * capture: {@code metaroce index} of one sample) no thread is started.
     */
    @Test
    void aCommitAfterTheAddsFlushesTheirBuffersOnSeveralThreads(@TempDir Path t) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two cores");
        long threshold = LuceneFlowIndex.parallelFlushBytes;
        SyntheticFlows.Capture a = SyntheticFlows.capture(1, 300, 3), b = SyntheticFlows.capture(2, 300, 4), c = SyntheticFlows.capture(3, 20, 5);
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForWriting(t.resolve("i"))) {
            // Two adds at once, so that each fills a buffer of its own: each waits in its iteration for the other.
            java.util.concurrent.CountDownLatch both = new java.util.concurrent.CountDownLatch(2);
            List<Thread> adds = new ArrayList<>();
            List<Throwable> failed = java.util.Collections.synchronizedList(new ArrayList<>());
            for (SyntheticFlows.Capture x : List.of(a, b)) {
                Iterable<FlowDocument> gated = watched(x.documents(), n -> {
                    if (n != 1) return;
                    both.countDown();
                    try {
                        assertTrue(both.await(30, java.util.concurrent.TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                adds.add(Thread.ofPlatform().start(() -> {
                    try {
                        idx.addUncommitted(x.capture(), gated);
                    } catch (Throwable e) {
                        failed.add(e);
                    }
                }));
            }
            for (Thread th : adds) th.join();
            assertEquals(List.of(), failed);
            LuceneFlowIndex.parallelFlushBytes = 0;
            idx.commit();
            assertEquals(2, idx.flushedAhead.get(), "each adding thread's buffer flushed on a thread of its own");
            assertEquals(a.flows().size() + b.flows().size(), idx.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());

            LuceneFlowIndex.parallelFlushBytes = threshold;
            idx.addCapture(c.capture(), c.documents());
            assertEquals(2, idx.flushedAhead.get(), "a small capture's commit flushes on its own thread");
        } finally {
            LuceneFlowIndex.parallelFlushBytes = threshold;
        }
        try (LuceneFlowIndex r = LuceneFlowIndex.openForReading(t.resolve("i"))) {
            assertEquals(a.flows().size() + b.flows().size() + c.flows().size(), r.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
            for (SyntheticFlows.Capture x : List.of(a, b, c)) {
                SearchResult got = r.search(FlowQueryParser.parse("capture_hash:" + x.capture().hash()), FlowSort.parse("naks"), 1000);
                assertEquals(x.flows().size(), got.total());
                for (FlowDocument f : got.flows()) assertEquals(x.documents().stream().filter(y -> y.id().equals(f.id())).findFirst().orElseThrow(), f);
            }
        }
    }

    /**
     * The index holds a usual counter's doc value only where it is not 0, and names the counters a flow document
     * lacks (what the contract's answers rest on: 0 read back from no doc value, absence from the marker).
     */
    @Test
    void zeroCountersGetNoDocValueAndAbsentOnesAMarker(@TempDir Path t) throws Exception {
        Path d = t.resolve("i");
        SyntheticFlows.Capture a = SyntheticFlows.capture(3, 400, 4);
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForWriting(d)) {
            idx.addCapture(a.capture(), a.documents());
        }
        long nonZero = a.flows().stream().filter(f -> f.getLong("naks") != 0).count();
        long withoutAcks = a.flows().stream().filter(f -> f.get("acks") == null).count();
        assertTrue(nonZero > 0 && nonZero < a.flows().size() && withoutAcks > 0, nonZero + " " + withoutAcks);
        try (var dir = org.apache.lucene.store.FSDirectory.open(d); var r = org.apache.lucene.index.DirectoryReader.open(dir)) {
            long withValue = 0;
            for (var leaf : r.leaves()) {
                var dv = leaf.reader().getNumericDocValues("naks");
                if (dv != null) while (dv.nextDoc() != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS) withValue++;
            }
            assertEquals(nonZero, withValue);
            assertEquals(withoutAcks, r.docFreq(new org.apache.lucene.index.Term(LuceneDocuments.ABSENT, "acks")));
            assertEquals(0, r.docFreq(new org.apache.lucene.index.Term(LuceneDocuments.ABSENT, "naks")));
        }
    }

    /**
     * A part document is indexed only by the fields that reach it ({@link LuceneDocuments#ON_PART}: its flow, its
     * capture, the expiry), each as a flow document indexes it; its flow's identity (keywords, IPs, QPs, times) is in
     * its stored value alone. It still reads back whole, in order, and goes with its capture.
     */
    @Test
    void partDocumentsAreIndexedOnlyByTheFieldsThatReachThem(@TempDir Path t) throws Exception {
        Path d = t.resolve("i");
        SyntheticFlows.Capture a = SyntheticFlows.capture(4, 60, 7);
        List<FlowDocument> parts = a.documents().stream().filter(x -> FlowSchema.KIND_PART.equals(x.kind())).toList();
        FlowDocument split = a.flows().stream().filter(f -> f.getLong(FlowSchema.PARTS) > 2).findFirst().orElseThrow();
        int all = a.documents().size(), flows = a.flows().size();
        assertTrue(parts.size() > 10 && all == flows + parts.size() + 1, parts.size() + " " + all);
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForWriting(d)) {
            idx.addCapture(a.capture(), a.documents());
        }
        try (var dir = org.apache.lucene.store.FSDirectory.open(d); var r = org.apache.lucene.index.DirectoryReader.open(dir)) {
            String root = split.getString(FlowSchema.ROOT_ID);
            int ofFlow = split.getLong(FlowSchema.PARTS).intValue();
            // the fields of ON_PART: on every document of the flow or capture
            assertEquals(ofFlow, r.docFreq(new org.apache.lucene.index.Term(FlowSchema.ROOT_ID, root)));
            assertEquals(all, r.docFreq(new org.apache.lucene.index.Term(FlowSchema.CAPTURE_HASH, a.capture().hash())));
            assertEquals(all, r.docFreq(new org.apache.lucene.index.Term(FlowSchema.CAPTURE_PATH, a.capture().path())));
            assertEquals(parts.size(), r.docFreq(new org.apache.lucene.index.Term(FlowSchema.KIND, FlowSchema.KIND_PART)));
            assertEquals(all, count(r, FlowSchema.CAPTURE_LAST, true));
            assertEquals(all, count(r, FlowSchema.CAPTURE_LAST, false));
            assertEquals(all, count(r, FlowSchema.INDEXED_AT, true));
            assertEquals(all, count(r, FlowSchema.INDEXED_AT, false));
            assertEquals(flows + parts.size(), count(r, FlowSchema.PART, false));
            assertEquals(all, sortedSetDocs(r, FlowSchema.ID));
            // the flow's identity: on the flow document only
            assertEquals(1, r.docFreq(new org.apache.lucene.index.Term(FlowSchema.FLOW, split.getString(FlowSchema.FLOW))));
            assertEquals(flows, count(r, FlowSchema.DEST_QP, false));
            assertEquals(flows, count(r, FlowSchema.DEST_QP, true));
            assertEquals(flows, count(r, FlowSchema.SRC, true));
            assertEquals(flows, count(r, FlowSchema.FIRST, true));
            assertEquals(flows + 1, count(r, FlowSchema.CAPTURE_FIRST, true), "the flows and the capture document");
            assertEquals(flows + 1, sortedSetDocs(r, FlowSchema.CAPTURE_FORMAT));
        }
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForWriting(d)) {
            List<FlowDocument> back = idx.parts(split.getString(FlowSchema.ROOT_ID));
            List<FlowDocument> want = a.documents().stream().filter(x -> split.getString(FlowSchema.ROOT_ID).equals(x.getString(FlowSchema.ROOT_ID))).toList();
            assertEquals(want.size(), back.size());
            for (int i = 0; i < want.size(); i++) {
                assertEquals(List.copyOf(want.get(i).fields().keySet()), List.copyOf(back.get(i).fields().keySet()));
                for (String k : want.get(i).fields().keySet()) {
                    Object w = want.get(i).get(k), b = back.get(i).get(k);
                    if (w instanceof byte[] wb) assertArrayEquals(wb, (byte[]) b, k);
                    else assertEquals(w, b, k);
                }
            }
            // found by the query of a flow's own field: the flow, never its parts
            assertEquals(1, idx.search(new FlowQuery.Term(FlowSchema.field(FlowSchema.FLOW), split.getString(FlowSchema.FLOW)), FlowSort.DEFAULT, 10).total());
            assertEquals(1, idx.expireBefore(a.capture().lastNs() + 1).size());
        }
        try (var dir = org.apache.lucene.store.FSDirectory.open(d); var r = org.apache.lucene.index.DirectoryReader.open(dir)) {
            assertEquals(0, r.numDocs(), "the expiry takes the parts too");
        }
    }

    /** Documents with a point ({@code points}) or a numeric or sorted-set doc value of the field. */
    private static int count(org.apache.lucene.index.IndexReader r, String field, boolean points) throws IOException {
        int n = 0;
        for (var leaf : r.leaves()) {
            if (points) {
                var p = leaf.reader().getPointValues(field);
                if (p != null) n += p.getDocCount();
                continue;
            }
            var dv = leaf.reader().getNumericDocValues(field);
            if (dv != null) while (dv.nextDoc() != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS) n++;
        }
        return n;
    }

    private static int sortedSetDocs(org.apache.lucene.index.IndexReader r, String field) throws IOException {
        int n = 0;
        for (var leaf : r.leaves()) {
            var dv = leaf.reader().getSortedSetDocValues(field);
            if (dv != null) while (dv.nextDoc() != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS) n++;
        }
        return n;
    }

    /**
     * A long flow's packed frame numbers and offsets are binary doc values (stored as they are), not in the stored
     * value (which Lucene compresses); short ones stay in the stored value. Every document still reads back whole,
     * also when the hits come in another order than the documents (each value is read with an iterator of its own).
     */
    @Test
    void longPacketListsAreBinaryDocValuesAndReadBackInAnyHitOrder(@TempDir Path t) throws Exception {
        Path d = t.resolve("i");
        SyntheticFlows.Capture a = SyntheticFlows.capture(5, 300, 3);
        // every third flow document gets offsets of the length from which they are kept apart, or one byte longer
        List<FlowDocument> docs = new ArrayList<>();
        long longOnes = 0;
        for (FlowDocument x : a.documents()) {
            if (x.get(FlowSchema.OFFSETS) == null || docs.size() % 3 != 0) {
                docs.add(x);
                continue;
            }
            FlowDocument.Builder b = FlowDocument.builder();
            byte[] offsets = new byte[StoredFlows.APART_BYTES + (int) (longOnes++ % 2)];
            for (int i = 0; i < offsets.length; i++) offsets[i] = (byte) (i * 31 + docs.size());
            x.fields().forEach((k, v) -> {
                if (v instanceof List<?> l) for (Object e : l) b.add(k, e);
                else b.put(k, k.equals(FlowSchema.OFFSETS) ? offsets : v);
            });
            docs.add(b.build());
        }
        assertTrue(longOnes > 50, "" + longOnes);
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForWriting(d)) {
            idx.addCapture(a.capture(), docs);
        }
        try (var dir = org.apache.lucene.store.FSDirectory.open(d); var r = org.apache.lucene.index.DirectoryReader.open(dir)) {
            long values = 0;
            for (var leaf : r.leaves()) {
                var dv = leaf.reader().getBinaryDocValues(FlowSchema.OFFSETS);
                var stored = leaf.reader().storedFields();
                while (dv != null && dv.nextDoc() != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS) {
                    values++;
                    var blob = stored.document(dv.docID()).getBinaryValue(StoredFlows.FIELD);
                    // the stored value holds the field's code and length 0, not the list
                    assertTrue(blob.length < StoredFlows.APART_BYTES && dv.binaryValue().length >= StoredFlows.APART_BYTES, blob.length + "");
                }
            }
            assertEquals(longOnes, values);
            assertNull(r.leaves().get(0).reader().getBinaryDocValues(FlowSchema.FRAMES), "short frame lists stay in the stored value");
        }
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForReading(d)) {
            java.util.Map<String, FlowDocument> byId = new java.util.HashMap<>();
            for (FlowDocument x : docs) byId.put(x.id(), x);
            for (boolean descending : new boolean[] {false, true}) {
                SearchResult res = idx.search(new FlowQuery.MatchAll(), new FlowSort(FlowSchema.field("packets"), descending), 100000);
                assertEquals(a.flows().size(), res.flows().size());
                for (FlowDocument h : res.flows()) {
                    FlowDocument want = byId.get(h.id());
                    assertArrayEquals((byte[]) want.get(FlowSchema.OFFSETS), (byte[]) h.get(FlowSchema.OFFSETS), h.id());
                    assertArrayEquals((byte[]) want.get(FlowSchema.FRAMES), (byte[]) h.get(FlowSchema.FRAMES), h.id());
                    assertEquals(List.copyOf(want.fields().keySet()), List.copyOf(h.fields().keySet()), h.id());
                }
            }
        }
    }

    /**
     * The stored value names fields by their schema position (and a per-path field by its key's position and the
     * path id), not by name; every field comes back, per-path ones and one spelled with a zero-padded path id
     * (another field name, through the API) included.
     */
    @Test
    void storedFlowsCodeFieldNamesAndReadThemBack() {
        FlowDocument d = FlowDocument.builder().put(FlowSchema.ID, "r#0").put(FlowSchema.KIND, FlowSchema.KIND_FLOW)
                .put("unique_payload_bytes", 7L).put("acks", -3L).put(FlowSchema.SRC, "10.0.0.1").add(FlowSchema.PATH_IDS, 3L)
                .add(FlowSchema.PATH_IDS, 70000L).put(FlowSchema.pathField(3, "packets"), 11L).put(FlowSchema.pathField(70000, "loss_rate"), 0.25)
                .put(FlowSchema.pathField(70000, "rtt_ns.p99"), 9L).put("paths.007.down", "yes").put(FlowSchema.OFFSETS, new byte[] {1, 2, 3})
                .build();
        byte[] b = StoredFlows.encode(d);
        assertEquals(d, StoredFlows.decode(b, 0, b.length));
        assertEquals(List.copyOf(d.fields().keySet()), List.copyOf(StoredFlows.decode(b, 0, b.length).fields().keySet()), "field order");
        String text = new String(b, java.nio.charset.StandardCharsets.ISO_8859_1);
        for (String name : List.of("unique_payload_bytes", "acks", "path_ids", "paths.3", "loss_rate", "offsets")) assertFalse(text.contains(name), name);
        assertTrue(text.contains("paths.007.down"), "a per-path field in another spelling is written by name");
        byte[] bad = {(byte) 0xFF, 0x7F, 0x01}; // code 16383: no field
        assertThrows(IllegalArgumentException.class, () -> StoredFlows.decode(bad, 0, bad.length));
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
        Files.writeString(old.resolve(IndexMarker.FILE), "schema=" + FlowSchema.VERSION + "\nlayout=2\n");
        String l = assertThrows(IndexFormatException.class, () -> LuceneFlowIndex.openForReading(old)).getMessage();
        assertTrue(l.contains("Lucene layout 2, this one writes " + IndexMarker.LAYOUT), l);
        Files.writeString(old.resolve(IndexMarker.FILE), "schema=" + FlowSchema.VERSION + "\nlayout=" + IndexMarker.LAYOUT + "\nfields=0\n");
        String o = assertThrows(IndexFormatException.class, () -> LuceneFlowIndex.openForReading(old)).getMessage();
        assertTrue(o.contains("another field order (fields 0, this one " + StoredFlows.SCHEMA_FINGERPRINT + ")"), o);
        Files.writeString(old.resolve(IndexMarker.FILE), "schema=0\n");
        String v = assertThrows(IndexFormatException.class, () -> LuceneFlowIndex.openForReading(old)).getMessage();
        assertTrue(v.contains("schema version 0; this metaroce reads version " + FlowSchema.VERSION), v);
    }

    /**
     * The documents as an add iterates them, {@code beforeEach} told the number (from 1) of each before it is given:
     * to hold an add at a chosen document, or fail it there.
     */
    private static Iterable<FlowDocument> watched(List<FlowDocument> documents, java.util.function.IntConsumer beforeEach) {
        return () -> new java.util.Iterator<>() {
            final java.util.Iterator<FlowDocument> in = documents.iterator();
            int given;

            public boolean hasNext() { return in.hasNext(); }

            public FlowDocument next() {
                beforeEach.accept(++given);
                return in.next();
            }
        };
    }

    /** Tells {@code reached} and waits for {@code go}: the adding thread held inside its add. */
    private static void holdAt(java.util.concurrent.CountDownLatch reached, java.util.concurrent.CountDownLatch go) {
        reached.countDown();
        try {
            go.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A step of a test thread, which may throw. */
    private interface Step {
        void run() throws Throwable;
    }

    /** A platform thread running {@code step}; what it throws is kept in {@code failed}, for the test to rethrow. */
    private static Thread running(AtomicReference<Throwable> failed, Step step) {
        return Thread.ofPlatform().start(() -> {
            try {
                step.run();
            } catch (Throwable x) {
                failed.set(x);
            }
        });
    }
}

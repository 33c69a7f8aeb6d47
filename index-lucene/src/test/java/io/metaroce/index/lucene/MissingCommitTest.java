package io.metaroce.index.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowSort;
import io.metaroce.index.IndexFormatException;
import io.metaroce.index.SyntheticFlows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index directory whose commit file ({@code segments_N}) is gone. Lucene takes such a directory for no index at
 * all: before, a search found no flow and a writer started a new index and deleted the old segments. Now it is
 * damage, said in one line, and nothing is deleted; a new index (only the marker, no commit yet) stays empty.
 */
class MissingCommitTest {

    @Test
    void anIndexWithoutItsCommitFileIsDamagedForReadingAndWriting(@TempDir Path t) throws Exception {
        Path d = t.resolve("i");
        try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(d)) {
            SyntheticFlows.Capture a = SyntheticFlows.capture(1, 20, 1);
            w.addCapture(a.capture(), a.documents());
        }
        try (Stream<Path> s = Files.list(d)) {
            for (Path f : s.toList()) if (f.getFileName().toString().startsWith("segments_")) Files.delete(f);
        }
        List<Path> before = files(d);
        for (var open : List.<Opener>of(LuceneFlowIndex::openForReading, LuceneFlowIndex::openForWriting)) {
            IndexFormatException e = assertThrows(IndexFormatException.class, () -> open.at(d).close());
            assertTrue(e.getMessage().startsWith(d + ": the flow index is damaged (its commit file segments_N is missing, and "), e.getMessage());
            assertTrue(e.getMessage().endsWith("); index the captures again into a new directory"), e.getMessage());
        }
        assertEquals(before, files(d), "the writer deleted nothing");
    }

    @Test
    void aStrayFileBesideTheMarkerIsDamageToo(@TempDir Path t) throws Exception {
        Path d = t.resolve("i");
        LuceneFlowIndex.openForWriting(d).close();
        try (Stream<Path> s = Files.list(d)) {
            for (Path f : s.toList()) if (f.getFileName().toString().startsWith("segments_")) Files.delete(f);
        }
        Files.writeString(d.resolve("notes.txt"), "x\n");
        IndexFormatException e = assertThrows(IndexFormatException.class, () -> LuceneFlowIndex.openForReading(d).close());
        assertTrue(e.getMessage().contains("(its commit file segments_N is missing, and notes.txt is there)"), e.getMessage());
    }

    @Test
    void aDirectoryWithOnlyTheMarkerIsANewEmptyIndex(@TempDir Path t) throws Exception {
        Path d = t.resolve("i");
        LuceneFlowIndex.openForWriting(d).close();
        try (Stream<Path> s = Files.list(d)) {
            for (Path f : s.toList()) if (f.getFileName().toString().startsWith("segments_")) Files.delete(f);
        }
        // a writer killed between the marker and its first, empty commit: still an index, with no flow
        try (LuceneFlowIndex r = LuceneFlowIndex.openForReading(d)) {
            assertEquals(0, r.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
        }
        try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(d)) {
            SyntheticFlows.Capture a = SyntheticFlows.capture(2, 5, 1);
            w.addCapture(a.capture(), a.documents());
            assertEquals(5, w.search(new FlowQuery.MatchAll(), FlowSort.DEFAULT, 0).total());
        }
    }

    private interface Opener {
        LuceneFlowIndex at(Path dir) throws Exception;
    }

    private static List<Path> files(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.filter(f -> !f.getFileName().toString().equals("write.lock")).sorted().toList();
        }
    }
}

package io.metaroce.index.lucene;

import io.metaroce.index.Connection;
import io.metaroce.index.FacetBucket;
import io.metaroce.index.FieldDef;
import io.metaroce.index.FieldType;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowIndex;
import io.metaroce.index.FlowIndexQueries;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.IndexFormatException;
import io.metaroce.index.IndexedCapture;
import io.metaroce.index.QuerySyntaxException;
import io.metaroce.index.SearchResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexNotFoundException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ReferenceManager;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.SortedSetSortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopFieldCollectorManager;
import org.apache.lucene.search.TopFieldDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.store.NIOFSDirectory;

/**
 * The flow index in a directory, on embedded Lucene 10. Opened for writing ({@link #openForWriting}: one
 * process at a time, Lucene's write lock) or for reading ({@link #openForReading}: any number, also while a
 * writer runs). Each {@link #addCapture} is one Lucene commit; {@link #addUncommitted} leaves the commit to a later
 * {@link #commit} that takes every capture added meanwhile (metaroce index commits in groups, {@link
 * io.metaroce.index.CommitGroups}). Either way a crash at any point leaves the index as of the last commit, whose
 * captures are the ones reported, and readers only ever see whole captures (they open commit points).
 */
public final class LuceneFlowIndex implements FlowIndex {
    /** Lucene's JDK-25 notices (vector module not readable) are not the user's concern: kept off stderr. */
    private static final Logger LUCENE_LOG = Logger.getLogger("org.apache.lucene");
    static {
        LUCENE_LOG.setLevel(Level.SEVERE);
    }

    private static final String SCHEMA_KEY = "metaroce.schema";
    /**
     * The indexing buffer: a capture's documents are flushed in a few large segments instead of many small ones
     * (fewer merges later). Commits flush it anyway, once per capture. Not final: FlowIndexBench compares settings.
     */
    static volatile double ramBufferMb = 128;

    /**
     * The buffer for a heap of this many bytes: {@link #ramBufferMb}, but at most a sixth of the heap. WHY: the
     * buffer is heap, beside the analysis' flows (a third: FlowBudget) and the diagnosis' (a sixth); a 128 MB buffer
     * in a 123 MiB heap (index of 10^5 QPs under -Xmx128m) was only ever flushed by a full heap: 31 full collections,
     * up to 82 % full after them. From a heap of 768 MiB up (the launcher's default is a quarter of the RAM) it is
     * the 128 MB as before.
     */
    static double ramBufferMb(long heapBytes) {
        return Math.max(4, Math.min(ramBufferMb, heapBytes / 6.0 / (1 << 20)));
    }
    /**
     * Flushed segments stay as separate files instead of being copied into one compound file: every capture's
     * commit flushes a segment, and the copy was pure overhead for a bulk load (merges still decide by size).
     */
    static volatile boolean compoundFiles = false;
    /** TieredMergePolicy's segments per tier (Lucene 10.6's default 8). Not final: FlowIndexBench compares settings. */
    static volatile double segmentsPerTier = 8;
    /** TieredMergePolicy's floor segment size in MB (Lucene's default 16). Not final: FlowIndexBench compares settings. */
    static volatile double floorSegmentMb = 16;
    /** TieredMergePolicy's segments merged at once (Lucene's default 10). Not final: FlowIndexBench compares settings. */
    static volatile double maxMergeAtOnce = 10;
    private final Path path;
    private final Directory dir;
    private final IndexWriter writer;
    /**
     * The reader of the last commit. A writer that created the index opens it at its first search after a commit
     * with documents ({@link #acquire}); until then {@link #empty} answers, and it stays null.
     */
    private volatile ReferenceManager<IndexSearcher> searchers;
    /**
     * Whether the last commit is the empty first one this writer made when it created the index: only this process
     * writes (Lucene's write lock), so the index then holds no document, and its listings and checks are answered
     * without a reader. {@code metaroce index} of one capture into a new index opened one on the empty commit, and
     * built and ran a capture listing, a known-hash check and a fresh-add check on it: Lucene's searching code,
     * cold, for answers known beforehand (docs/benchmarks.md, "helper ixcpu, thirteenth session"). Cleared before
     * any commit that may hold documents.
     */
    private volatile boolean empty;
    private final Object readerOpening = new Object();
    /**
     * The captures' paths and content hashes ("path:..." and "hash:...") this writer is adding, or added without a
     * successful commit, each with the completion of the last add that had it (guarded by itself).
     */
    private final Map<String, CompletableFuture<Void>> adds = new HashMap<>();
    /** The commit generation the reader last refreshed at (reading only; -1: not yet checked). */
    private volatile long seenGeneration = -1;

    private LuceneFlowIndex(Path path, Directory dir, IndexWriter writer, ReferenceManager<IndexSearcher> searchers) {
        this.path = path;
        this.dir = dir;
        this.writer = writer;
        this.searchers = searchers;
    }

    /**
     * Opens or creates the index in {@code dir} for adding captures.
     *
     * @throws IndexFormatException one line: not an index, another schema version, or written by another process
     */
    public static LuceneFlowIndex openForWriting(Path dir) throws IOException {
        IndexMarker.createOrCheck(dir);
        // Positional reads, not FSDirectory.open's memory maps: a writing process reads back little (its own
        // capture listings and known-hash checks, the segments it merges, sequentially), and MMapDirectory's class
        // initialisation links Lucene's native madvise and getpagesize (FFM downcall stubs spun at every start, not
        // held by the AOT cache): `metaroce index` of one capture spent 0.04 instead of 0.066 s of CPU on its
        // open thread, and its compiler less (docs/benchmarks.md, "helper ixcpu, twelfth session"). Searching
        // processes (openForReading) keep the maps.
        Directory d = new LinkingDirectory(new NIOFSDirectory(dir));
        IndexWriter w;
        try {
            // Before the writer opens: on a directory without a commit it starts a new index, and deletes the old
            // segments no commit names. A lost segments_N must keep the data and say so.
            if (!DirectoryReader.indexExists(d)) checkNoCommit(dir);
            w = new IndexWriter(d, config());
        } catch (LockObtainFailedException e) {
            d.close();
            throw new IndexFormatException(dir + ": another metaroce index is writing to this index (its write.lock is held)");
        } catch (IOException e) {
            d.close();
            throw damaged(dir, e);
        } catch (RuntimeException e) {
            d.close();
            throw e;
        }
        try {
            // The write lock is held: no other writer adds a capture apart now, so a scratch directory is a killed one's.
            removeScratch(dir);
            checkCommitData(dir, w.getLiveCommitData());
            // A first, empty commit, so readers can open the index before the first capture is in.
            w.setLiveCommitData(Map.of(SCHEMA_KEY, Integer.toString(FlowSchema.VERSION)).entrySet());
            boolean created = !DirectoryReader.indexExists(d);
            if (created) w.commit();
            // Searches of a writing process (the known-hash check before each capture) read commit points, as any
            // reader does, not the writer's near-real-time view: opening one of those flushes every thread's
            // buffered documents into a segment of its own, so each capture's commit was followed by a second
            // flush of the other adding thread's half-done capture (small segments, more merges).
            LuceneFlowIndex index = new LuceneFlowIndex(dir, d, w, created ? null : new SearcherManager(d, new SearcherFactory()));
            index.empty = created;
            return index;
        } catch (IOException | RuntimeException e) {
            w.rollback();
            d.close();
            if (e instanceof IOException i) throw damaged(dir, i);
            throw e;
        }
    }

    /** A writer's configuration (the index's writer and a capture's own: {@link #addApart}). */
    private static IndexWriterConfig config() {
        return new IndexWriterConfig().setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                .setRAMBufferSizeMB(ramBufferMb(Runtime.getRuntime().maxMemory())).setUseCompoundFile(compoundFiles).setCommitOnClose(false)
                .setMergePolicy(new TieredMergePolicy().setSegmentsPerTier(segmentsPerTier).setFloorSegmentMB(floorSegmentMb)
                        .setMaxMergeAtOnce((int) maxMergeAtOnce));
    }

    /** Files brought into the index as hard links, and as copies (a link failed), so far (tests). */
    static final java.util.concurrent.atomic.AtomicLong linkedFiles = new java.util.concurrent.atomic.AtomicLong(),
            copiedFiles = new java.util.concurrent.atomic.AtomicLong();
    /** Whether {@link LinkingDirectory} tries links (tests turn it off to take the copy). */
    static volatile boolean linkFiles = true;

    /**
     * The index's directory, whose {@code copyFrom} (what {@code IndexWriter.addIndexes} copies each file of a
     * capture added apart with) makes a hard link when both directories are on the file system, and copies when the
     * link fails (another file system, no links). WHY: Lucene never changes a file once written, so a link is the
     * file; a copy of a 10^6-flow capture's segments (some 320 MB) would be read and written again under the
     * commit lock.
     */
    static final class LinkingDirectory extends org.apache.lucene.store.FilterDirectory {
        LinkingDirectory(Directory in) { super(in); }

        @Override
        public void copyFrom(Directory from, String src, String dest, org.apache.lucene.store.IOContext context) throws IOException {
            if (linkFiles && FilterDirectory.unwrap(from) instanceof FSDirectory f && FilterDirectory.unwrap(in) instanceof FSDirectory t) {
                try {
                    Files.createLink(t.getDirectory().resolve(dest), f.getDirectory().resolve(src));
                    linkedFiles.incrementAndGet();
                    return;
                } catch (IOException | UnsupportedOperationException e) {
                    // Not linked (another file system, or none of links): copied below. A link half made does not
                    // exist (link(2) is atomic), so the copy's new file is not in the way.
                }
            }
            super.copyFrom(from, src, dest, context);
            copiedFiles.incrementAndGet();
        }
    }

    /** Opens an existing index for searching; sees the captures committed so far (call again to see more). */
    public static LuceneFlowIndex openForReading(Path dir) throws IOException {
        IndexMarker.check(dir);
        Directory d = FSDirectory.open(dir);
        try {
            if (!DirectoryReader.indexExists(d)) {
                checkNoCommit(dir);
                return new LuceneFlowIndex(dir, d, null, null);
            }
            DirectoryReader r = DirectoryReader.open(d);
            checkCommitData(dir, r.getIndexCommit().getUserData().entrySet());
            return new LuceneFlowIndex(dir, d, null, new SearcherManager(r, new SearcherFactory()));
        } catch (IndexNotFoundException e) {
            checkNoCommit(dir);
            return new LuceneFlowIndex(dir, d, null, null);
        } catch (IOException | RuntimeException e) {
            d.close();
            if (e instanceof IOException i) throw damaged(dir, i);
            throw e;
        }
    }

    /**
     * An index directory without a commit point ({@code segments_N}) is a new index only while it holds nothing but
     * the marker, the write lock and a first commit being written ({@code pending_segments_N}): the writer that
     * creates an index commits once, empty, right after it opens. Anything more means the commit file was lost
     * (deleted, or the directory copied without it), and is damage. WHY: Lucene takes such a directory for no index
     * at all: {@code search} and {@code extract} answered "0 flows match", and {@code index} started a new index
     * whose writer deleted the old segments.
     */
    static void checkNoCommit(Path dir) throws IOException {
        int others = 0;
        String example = null;
        try (var files = Files.newDirectoryStream(dir)) {
            for (Path p : files) {
                String n = p.getFileName().toString();
                if (n.equals(IndexMarker.FILE) || n.equals(IndexMarker.FILE + ".tmp") || n.equals(IndexWriter.WRITE_LOCK_NAME)
                        || n.startsWith("pending_segments_") || n.startsWith(SCRATCH)) continue;
                others++;
                if (example == null || n.compareTo(example) < 0) example = n;
            }
        }
        if (others > 0) {
            throw new IndexFormatException(dir + ": the flow index is damaged (its commit file segments_N is missing, "
                    + (others == 1 ? "and " + example + " is there" : "and " + others + " other files are there")
                    + "); index the captures again into a new directory");
        }
    }

    /**
     * A read of the index's own files that failed on their content is one line naming the index and what to do,
     * not Lucene's exception as an internal error of search, extract or index: a file cut short (a full disk, a copy
     * interrupted), a footer or checksum that does not match (a file edited or overwritten), a file of a commit
     * missing, data that does not decompress (Lucene then throws a plain IOException). Other failures (permission
     * denied, an interrupted channel) are left as they are.
     */
    static IOException damaged(Path dir, IOException e) {
        boolean damage = e instanceof CorruptIndexException || e instanceof java.io.EOFException
                || e instanceof IndexFormatTooOldException || e instanceof IndexFormatTooNewException
                || e instanceof java.nio.file.NoSuchFileException || e instanceof java.io.FileNotFoundException
                || e.getClass() == IOException.class;
        if (!damage) return e;
        // The innermost cause says what is wrong ("Problem reading index" wraps it), with its file's name only.
        Throwable c = e;
        while (c.getCause() instanceof IOException inner && inner != c) c = inner;
        String why = c instanceof java.nio.file.NoSuchFileException || c instanceof java.io.FileNotFoundException
                ? "a file is missing: " + Path.of(String.valueOf(c.getMessage())).getFileName() : String.valueOf(c.getMessage());
        int resource = why.indexOf(" (resource=");
        if (resource > 0) why = why.substring(0, resource);
        why = why.replaceAll("\\w*IndexInput\\(path=\"(?:[^\"]*/)?([^\"/]*)\"\\)", "$1");
        why = why.lines().findFirst().orElse("").strip();
        if (why.length() > 200) why = why.substring(0, 200) + "...";
        return new IndexFormatException(dir + ": the flow index is damaged (" + why + "); index the captures again into a new directory");
    }

    /**
     * A query that Lucene refuses for its size (more than {@link IndexSearcher#getMaxClauseCount} clauses: a long
     * OR list, or a bare value searched in five fields) is the user's query to change, not an internal error.
     */
    private static QuerySyntaxException tooManyClauses() {
        return new QuerySyntaxException("the query has more than " + IndexSearcher.getMaxClauseCount()
                + " terms for one search; split it into several searches", 1);
    }

    private static void checkCommitData(Path dir, Iterable<Map.Entry<String, String>> data) throws IndexFormatException {
        if (data == null) return;
        for (var e : data) {
            if (e.getKey().equals(SCHEMA_KEY) && !e.getValue().equals(Integer.toString(FlowSchema.VERSION))) {
                throw new IndexFormatException(dir + ": flow index of schema version " + e.getValue() + "; this metaroce reads version "
                        + FlowSchema.VERSION + " (index the captures again into a new directory)");
            }
        }
    }

    public Path path() { return path; }

    /** Whether this index has its reader open (tests: a writer that created the index opens none while it is empty). */
    boolean readerOpen() { return searchers != null; }

    private void requireWriter() {
        if (writer == null) throw new IllegalStateException("index opened for reading only");
    }

    @Override
    public void addCapture(IndexedCapture capture, List<FlowDocument> documents) throws IOException {
        addCapture(capture, (Iterable<FlowDocument>) documents);
    }

    /** {@link #addUncommitted}, then a commit. */
    @Override
    public void addCapture(IndexedCapture capture, Iterable<FlowDocument> documents) throws IOException {
        addUncommitted(capture, documents);
        commit();
    }

    /**
     * Not synchronized: two captures are converted and indexed on two threads at once. A capture's documents go in
     * blocks of {@link #blockDocuments}: each an {@code addDocuments} call, then, when the index may hold documents of
     * its path or content, a delete of those earlier documents. A {@link #commit} waits for the adds in progress ({@link #committing}), so that a commit holds all of a
     * capture or none of it; the next commit after this returns makes it durable, before the caller reports it.
     * Lucene takes the documents one at a time from the iteration and converts each as it comes
     * ({@link LuceneDocuments.Converter}): a capture's documents are never all in memory at once, and an iteration
     * that fails leaves none of this capture's documents in the writer (those of its blocks already in are deleted)
     * and the earlier documents it was to replace where they were: a replacing add tags its documents with an id of
     * its own ({@link #ATTEMPT}) and deletes the earlier ones (of the path or content, without its tag) only after
     * its last block, or, when it fails, its own by the tag. WHY: the seventeenth session's replacing add deleted
     * them with its first block ({@code updateDocuments}), so a failure in a later block and the next commit lost
     * both the old and the new documents of the capture; Lucene offers no undo of a delete short of {@code
     * rollback()}, which would throw away the other threads' adds too.
     */
    @Override
    public void addUncommitted(IndexedCapture capture, Iterable<FlowDocument> documents) throws IOException {
        addUncommitted(capture, documents, 0);
    }

    /**
     * As {@link #addUncommitted(IndexedCapture, Iterable)}; a capture of at least {@code atLeast} documents, more than
     * one block ({@link #blockDocuments}), is added apart ({@link #addApart}): to a writer of its own, then brought in
     * whole, so that commits (other captures' reports) do not wait for its blocks.
     */
    @Override
    public void addUncommitted(IndexedCapture capture, Iterable<FlowDocument> documents, long atLeast) throws IOException {
        requireWriter();
        LuceneDocuments.Converter converter = new LuceneDocuments.Converter();
        java.util.Iterator<FlowDocument> in = documents.iterator();
        CompletableFuture<Void> mine = new CompletableFuture<>();
        List<CompletableFuture<Void>> before = new ArrayList<>(2);
        String[] keys = {"path:" + capture.path(), "hash:" + capture.hash()};
        synchronized (adds) {
            for (String key : keys) {
                CompletableFuture<Void> b = adds.put(key, mine);
                if (b != null) before.add(b);
            }
        }
        try {
            // Nothing of this path or content in the index, nor added by this process: a plain add. Replacing
            // costs Lucene a reader of the new segment to apply the delete query to after the flush (cold code:
            // 0.05 s of CPU on the adding thread and as much in the compiler for a 1 M-frame capture). Read from the
            // last commit, without the commit lock: an add of this process with the same path or content either is in
            // {@link #adds} (before) or was removed from it by a commit that holds it, which the check then reads.
            boolean replace = !(before.isEmpty() && (empty || !holds(earlier(capture))));
            // Replace what was indexed from this path or with this content before, after the last block. An add of
            // the same path or content begun earlier by another thread is waited for, so that this delete comes
            // after its documents (a plain add after the delete would leave both). Waited for without the commit
            // lock: an add apart takes the lock only at its end, and a reader of a ReentrantReadWriteLock queues
            // behind a waiting commit, so waiting for it inside the lock with a commit waiting would never end.
            if (replace) for (CompletableFuture<Void> b : before) b.exceptionally(e -> null).join();
            // A replacing add's own documents, told apart from the earlier ones of the same path or content (which
            // may have the same path and hash: the same file indexed again) only by this tag.
            StringField tag = replace ? new StringField(ATTEMPT, attempt(), org.apache.lucene.document.Field.Store.NO) : null;
            if (atLeast > blockDocuments) addApart(capture, in, converter, tag);
            else addInBlocks(capture, in, converter, tag);
        } finally {
            // Its entries stay until a commit that began after this completes (commit()): until then the last
            // commit does not answer for this capture, and a later add of the same path or content must see it.
            mine.complete(null);
        }
    }

    /**
     * The capture's blocks into the index's writer, all under the commit lock ({@link #committing}, shared): a commit
     * waits for the last block, so that it holds all of the capture or none of it.
     */
    private void addInBlocks(IndexedCapture capture, java.util.Iterator<FlowDocument> in, LuceneDocuments.Converter converter, StringField tag)
            throws IOException {
        committing.readLock().lock();
        try {
            boolean first = true;
            try {
                do {
                    writer.addDocuments(block(capture, in, converter, tag));
                    first = false;
                } while (in.hasNext());
                // After the last block and before any commit (this add holds the commit lock shared): a commit
                // holds the earlier documents or the new ones, never both nor neither. Lucene applies a delete
                // to the documents added before it, this add's blocks too: those are kept by their tag.
                if (tag != null) replaceEarlier(capture, tag);
            } catch (IOException | RuntimeException | Error e) {
                // The blocks already in go too: no commit may hold part of a capture. A plain add's capture has no
                // other documents of its content (nothing in the index, nothing added by this process), a replacing
                // add's are the ones with its tag; a failed block is undone by Lucene itself (its documents are
                // marked deleted), and the earlier documents stay.
                if (!first) undo(capture, tag, e);
                throw e;
            }
        } finally {
            committing.readLock().unlock();
        }
    }

    /**
     * A capture of many blocks: its blocks into a writer of its own, in a scratch directory inside the index
     * directory ({@link #SCRATCH}), committed there; then, under the commit lock, {@code addIndexes} brings its
     * segments into the index (all of them or none: Lucene adds them to the writer's segments at once, and a commit
     * holds them only from then on) as hard links ({@link LinkingDirectory}), and a replacing add deletes the earlier
     * documents. WHY: in blocks under the commit lock, a capture of 10^6 flows kept every commit, and so every other
     * capture's report, waiting for all its blocks (58-59 s in CommitWaitBench), and the other adding thread
     * stalled as long in its next add (a reader of the lock queues behind the waiting commit): one core idle for a
     * minute (docs/benchmarks.md, "helper guard, eighteenth session"; this session's figures in "helper commit").
     * The lock is now held for a flush of the index's buffer, links and a delete. A kill at any point leaves the
     * index as of its last commit: the scratch directory is removed by the next writer ({@link #openForWriting}),
     * links that no commit names by Lucene's own clean-up of unreferenced files when it opens. The scratch writer
     * merges nothing ({@link NoMergePolicy}): its segments are merged in the index, as they were when flushed there.
     */
    private void addApart(IndexedCapture capture, java.util.Iterator<FlowDocument> in, LuceneDocuments.Converter converter, StringField tag)
            throws IOException {
        Path scratch = path.resolve(SCRATCH + java.util.UUID.randomUUID());
        try (Directory sd = new NIOFSDirectory(Files.createDirectory(scratch))) {
            IndexWriter own = new IndexWriter(sd, config().setMergePolicy(NoMergePolicy.INSTANCE));
            share(own, true);
            try {
                do {
                    own.addDocuments(block(capture, in, converter, tag));
                } while (in.hasNext());
                own.commit();
            } finally {
                share(own, false);
                own.close(); // commitOnClose is off: after a failure nothing of it is committed, and nothing reaches the index
            }
            apartAdded.incrementAndGet();
            committing.readLock().lock();
            try {
                boolean added = false;
                try {
                    writer.addIndexes(sd);
                    added = true;
                    if (tag != null) replaceEarlier(capture, tag);
                } catch (IOException | RuntimeException | Error e) {
                    if (added) undo(capture, tag, e);
                    throw e;
                }
            } finally {
                committing.readLock().unlock();
            }
        } finally {
            deleteScratch(scratch);
        }
    }

    /** The earlier documents of the capture's path or content deleted, those of this add (its tag) kept. */
    private void replaceEarlier(IndexedCapture capture, StringField tag) throws IOException {
        writer.deleteDocuments(new BooleanQuery.Builder().add(earlier(capture), BooleanClause.Occur.FILTER)
                .add(new TermQuery(new Term(ATTEMPT, tag.stringValue())), BooleanClause.Occur.MUST_NOT).build());
    }

    /** This add's documents in the writer deleted after a failure: by its tag, or (a plain add) by its content. */
    private void undo(IndexedCapture capture, StringField tag, Throwable failure) {
        try {
            if (tag != null) writer.deleteDocuments(new Term(ATTEMPT, tag.stringValue()));
            else writer.deleteDocuments(LuceneQueries.of(FlowIndexQueries.captureHash(capture.hash())));
        } catch (IOException | RuntimeException x) {
            failure.addSuppressed(x);
        }
    }

    /**
     * The prefix of a capture's scratch directory inside the index directory ({@link #addApart}). Not a name Lucene
     * writes or reads (its files start with {@code _} or {@code segments}), so the index's writer and readers pass
     * over it; in the index directory so that its files can be hard-linked into the index (same file system).
     */
    public static final String SCRATCH = "metaroce-scratch-";
    /** Captures added apart so far (tests). */
    final java.util.concurrent.atomic.AtomicInteger apartAdded = new java.util.concurrent.atomic.AtomicInteger();

    /** Removes a scratch directory and what is in it; what cannot be removed is left for the next writer. */
    private static void deleteScratch(Path scratch) {
        try (var all = Files.walk(scratch)) {
            for (Path f : all.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(f);
        } catch (IOException | java.io.UncheckedIOException e) {
            // Left behind: the next openForWriting removes it.
        }
    }

    /** Removes the scratch directories of an earlier writer (killed or failed while adding a capture apart). */
    private static void removeScratch(Path dir) throws IOException {
        try (var s = Files.newDirectoryStream(dir, SCRATCH + "*")) {
            for (Path p : s) deleteScratch(p);
        }
    }

    /**
     * The writers adding to this index now, the index's own first: each capture added apart has one of its own for
     * the time of its blocks. They share the buffer ({@link #ramBufferMb(long)}), each an equal part of it. WHY: the
     * buffer is heap; a second full buffer beside the index's would take another sixth of the heap under -Xmx1g.
     */
    private final List<IndexWriter> buffers = new ArrayList<>();
    private final double bufferMb = ramBufferMb(Runtime.getRuntime().maxMemory());

    private void share(IndexWriter w, boolean open) {
        synchronized (buffers) {
            if (buffers.isEmpty()) buffers.add(writer);
            if (open) buffers.add(w);
            else buffers.remove(w);
            double each = Math.max(4, bufferMb / buffers.size());
            for (IndexWriter x : buffers) x.getConfig().setRAMBufferSizeMB(each);
        }
    }

    /**
     * Documents per {@code addDocuments} call. WHY: Lucene buffers a block's documents in one segment and cannot
     * flush it before the block ends, whatever its RAM buffer: a capture of 10^6 single-packet QPs (10^6 documents)
     * was one block and its buffer grew past a 1 GB heap (about 750 bytes per document). In blocks of 10,000 the
     * writer flushes at its RAM buffer ({@link #ramBufferMb}) between blocks; an ordinary capture (a document per QP
     * flow) is one block as before. Not final: tests set it low.
     */
    static volatile int blockDocuments = 10_000;

    /**
     * Held (shared) by each add for all its blocks, and alone by a commit, so that a commit never holds part of a
     * capture. Lucene's commit waits for the blocks being added and then takes the rest; the blocks of one capture
     * are several adds, and a commit between two of them would make half a capture durable.
     */
    private final java.util.concurrent.locks.ReentrantReadWriteLock committing = new java.util.concurrent.locks.ReentrantReadWriteLock();

    /**
     * The field that tags a replacing add's documents with the add's id ({@link #attempt}): indexed, not stored, no doc
     * values, not a name of the schema (so no query, listing or document shows it). Documents added with no earlier
     * ones to replace have none. The id stays in the index: the next replacement of the same capture tells its own
     * documents from these by it, so it must differ from every earlier add's, of any process.
     */
    static final String ATTEMPT = "_attempt";
    /** This writer's prefix of attempt ids: random, so that no add of another process had the same id. */
    private final String attemptPrefix = java.util.UUID.randomUUID() + ":";
    private final java.util.concurrent.atomic.AtomicLong attempts = new java.util.concurrent.atomic.AtomicLong();

    /** A new id for a replacing add, unique to this writer and, by its random prefix, to every other. */
    private String attempt() { return attemptPrefix + attempts.incrementAndGet(); }

    /**
     * The next block: at most {@link #blockDocuments} documents of the iteration, converted as Lucene takes them, each
     * with {@code tag} when not null.
     */
    private static Iterable<Iterable<org.apache.lucene.index.IndexableField>> block(IndexedCapture capture,
            java.util.Iterator<FlowDocument> in, LuceneDocuments.Converter converter, StringField tag) {
        int max = blockDocuments;
        return () -> new java.util.Iterator<>() {
            int taken;

            @Override
            public boolean hasNext() { return taken < max && in.hasNext(); }

            @Override
            public Iterable<org.apache.lucene.index.IndexableField> next() {
                if (taken >= max) throw new java.util.NoSuchElementException();
                taken++;
                FlowDocument d = in.next();
                if (!capture.hash().equals(d.getString(FlowSchema.CAPTURE_HASH)))
                    throw new IllegalArgumentException("document " + d.id() + " is not of capture " + capture.hash());
                Document doc = converter.toLucene(d);
                if (tag != null) doc.add(tag);
                return doc;
            }
        };
    }

    /** The documents of the capture's path or content. */
    private static Query earlier(IndexedCapture capture) {
        return LuceneQueries.of(new FlowQuery.Or(List.of(
                FlowIndexQueries.capturePath(capture.path()), FlowIndexQueries.captureHash(capture.hash()))));
    }

    /**
     * Whether the last commit holds a document matching the query. Only this process writes (the write lock), and
     * every add it has begun and not committed is in {@link #adds}: with neither, the index holds no such document,
     * committed or not.
     */
    private boolean holds(Query q) throws IOException {
        IndexSearcher s = acquire();
        try {
            return s.getIndexReader().maxDoc() > 0 && s.count(q) > 0;
        } finally {
            searchers.release(s);
        }
    }

    /**
     * A commit of every capture added so far; concurrent adds are in it whole or not at all (see
     * {@link #addUncommitted}). Then the commit answers for the adds that had completed before it began
     * ({@link #holds}), so their entries leave {@link #adds} and a long run keeps no entry per capture; an add whose
     * commit failed stays, since its documents may still be in the writer, for a later commit.
     */
    @Override
    public void commit() throws IOException {
        requireWriter();
        empty = false;
        List<Map.Entry<String, CompletableFuture<Void>>> done = new ArrayList<>();
        boolean adding = false;
        synchronized (adds) {
            for (var e : adds.entrySet()) {
                if (e.getValue().isDone()) done.add(Map.entry(e.getKey(), e.getValue()));
                else adding = true;
            }
        }
        committing.writeLock().lock();
        try {
            if (!adding && writer.ramBytesUsed() >= parallelFlushBytes) flushInParallel();
            writer.commit();
        } finally {
            committing.writeLock().unlock();
        }
        synchronized (adds) {
            for (var e : done) adds.remove(e.getKey(), e.getValue());
        }
    }

    /** A commit with no add in progress ({@link #committing}): it holds whole captures only. */
    private void commitAlone() throws IOException {
        committing.writeLock().lock();
        try {
            writer.commit();
        } finally {
            committing.writeLock().unlock();
        }
    }

    /**
     * The buffered documents from which a commit with no add running flushes them on several threads
     * ({@link #flushInParallel}); below it (one small capture), a commit flushes on its own thread, as Lucene does,
     * without starting a thread. Not final: tests set it to 0.
     */
    static volatile long parallelFlushBytes = 16L << 20;
    /** Buffers flushed by {@link #flushInParallel} so far (tests). */
    final java.util.concurrent.atomic.AtomicInteger flushedAhead = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * Flushes the writer's buffers, one per thread that added documents, on as many threads at once (at most one per
     * core), before the commit that would flush them one after the other on its own thread. WHY: Lucene's commit
     * flushes every buffer on the committing thread; at the end of a run (CommitGroups' last commit, when no add
     * is running) that is up to the whole 128 MB buffer of two adding threads, sorted, encoded and written on one
     * core while the other waits: a flush is most of a flow document's CPU (doc values, sorts, terms, LZ4:
     * docs/benchmarks.md, "helper docs, fifteenth session"). Each thread here takes a buffer of its own
     * ({@code IndexWriter.flushNextBuffer}: a pending one, else the largest), so the segments are the same ones the
     * commit would have written. Only when no add runs: an add holds its buffer for a whole capture, and a flush
     * thread waiting for it would flush half a capture's buffer early (a smaller segment).
     */
    private void flushInParallel() throws IOException {
        int helpers = Math.min(Runtime.getRuntime().availableProcessors(), 8) - 1;
        if (helpers <= 0) return;
        List<Thread> threads = new ArrayList<>(helpers);
        List<Throwable> failed = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < helpers; i++) {
            threads.add(Thread.ofPlatform().name("metaroce-flush").start(() -> {
                try {
                    if (writer.flushNextBuffer()) flushedAhead.incrementAndGet();
                } catch (IOException | RuntimeException | Error e) {
                    failed.add(e);
                }
            }));
        }
        try {
            if (writer.flushNextBuffer()) flushedAhead.incrementAndGet();
        } finally {
            boolean interrupted = false;
            for (Thread t : threads) {
                while (true) {
                    try {
                        t.join();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
            if (interrupted) Thread.currentThread().interrupt();
        }
        if (!failed.isEmpty()) {
            Throwable e = failed.get(0);
            if (e instanceof IOException io) throw io;
            if (e instanceof RuntimeException r) throw r;
            throw (Error) e;
        }
    }

    @Override
    public IndexedCapture capture(String hash) throws IOException {
        List<IndexedCapture> l = captureDocs(new FlowQuery.And(List.of(FlowIndexQueries.captures(), FlowIndexQueries.captureHash(hash))));
        return l.isEmpty() ? null : l.get(0);
    }

    @Override
    public List<IndexedCapture> captures() throws IOException { return captureDocs(FlowIndexQueries.captures()); }

    private List<IndexedCapture> captureDocs(FlowQuery q) throws IOException {
        if (empty) return List.of();
        List<IndexedCapture> out = new ArrayList<>();
        for (FlowDocument d : all(q, new Sort(new SortedSetSortField(FlowSchema.CAPTURE_PATH, false)))) {
            out.add(new IndexedCapture(d.getString(FlowSchema.CAPTURE_PATH), d.getLong(FlowSchema.CAPTURE_SIZE),
                    d.getString(FlowSchema.CAPTURE_HASH), d.getString(FlowSchema.CAPTURE_FORMAT), d.getString(FlowSchema.TAP),
                    d.getLong(FlowSchema.CAPTURE_FIRST), d.getLong(FlowSchema.CAPTURE_LAST), d.getLong(FlowSchema.INDEXED_AT)));
        }
        return out;
    }

    @Override
    public synchronized boolean deleteCapture(String hash) throws IOException {
        requireWriter();
        if (capture(hash) == null) return false;
        empty = false;
        writer.deleteDocuments(LuceneQueries.of(FlowIndexQueries.captureHash(hash)));
        commitAlone();
        return true;
    }

    @Override
    public synchronized List<IndexedCapture> expireBefore(long epochNs) throws IOException {
        requireWriter();
        FlowQuery expired = FlowIndexQueries.expiredBefore(epochNs);
        List<IndexedCapture> gone = captureDocs(new FlowQuery.And(List.of(FlowIndexQueries.captures(), expired)));
        empty = false;
        writer.deleteDocuments(LuceneQueries.of(expired));
        commitAlone();
        return gone;
    }

    @Override
    public SearchResult search(FlowQuery query, FlowSort sort, int limit) throws IOException {
        if (writer == null && searchers == null) return new SearchResult(0, List.of());
        return searching(s -> {
            // Inside: building the query is where Lucene counts its clauses.
            Query q = LuceneQueries.of(FlowIndexQueries.flows(query));
            if (limit <= 0) return new SearchResult(s.count(q), List.of());
            // One pass: the top documents and the exact total together (no hit-count threshold).
            int n = Math.max(1, Math.min(limit, s.getIndexReader().maxDoc()));
            TopFieldDocs top = s.search(q, new TopFieldCollectorManager(luceneSort(sort), n, null, Integer.MAX_VALUE));
            return new SearchResult(top.totalHits.value(), load(s, top));
        });
    }

    /** What a search does with a searcher of the latest commit. */
    @FunctionalInterface
    private interface SearcherWork<T> {
        T run(IndexSearcher s) throws IOException;
    }

    /**
     * Runs work with a searcher of the latest commit ({@link #acquire}), released after it; a query too large for
     * Lucene and a damaged index come out as the user's one-line errors ({@link #tooManyClauses}, {@link #damaged}).
     */
    private <T> T searching(SearcherWork<T> work) throws IOException {
        try {
            IndexSearcher s = acquire();
            try {
                return work.run(s);
            } finally {
                searchers.release(s);
            }
        } catch (IndexSearcher.TooManyClauses e) {
            throw tooManyClauses();
        } catch (IOException e) {
            throw damaged(path, e);
        }
    }

    @Override
    public List<FlowDocument> parts(String rootId) throws IOException {
        return all(FlowIndexQueries.root(rootId), new Sort(new SortField(FlowSchema.PART, SortField.Type.LONG)));
    }

    @Override
    public List<FacetBucket> top(FieldDef groupField, FieldDef counter, int n, FlowQuery filter) throws IOException {
        ExactFacet facet = new ExactFacet(groupField, counter, n);
        if (writer == null && searchers == null) return List.of();
        return searching(s -> s.search(LuceneQueries.of(FlowIndexQueries.flows(filter)), facet));
    }

    @Override
    public List<Connection> connections(FieldDef from, FieldDef to, List<FieldDef> counters, int n, FlowQuery filter) throws IOException {
        PairFacet facet = new PairFacet(from, to, counters, n);
        if (writer == null && searchers == null) return List.of();
        return searching(s -> s.search(LuceneQueries.of(FlowIndexQueries.flows(filter)), facet));
    }

    /** Every document matching a query (capture listings, a flow's parts: small sets). */
    private List<FlowDocument> all(FlowQuery query, Sort sort) throws IOException {
        if (empty || writer == null && searchers == null) return List.of();
        Query q = LuceneQueries.of(query);
        return searching(s -> {
            int n = s.count(q);
            return n == 0 ? List.of() : load(s, s.search(q, n, sort));
        });
    }

    /**
     * A reader sees the captures committed since it opened. Each commit writes the next {@code segments_N}, so a
     * listing of the directory tells whether there is a newer one; reopening is asked for only then, because the
     * check inside {@code maybeRefresh} reads and verifies the latest commit file, a fifth of the CPU of a
     * selective query on the 1 M-flow index when done before every search (the GUI's flow search reuses one reader).
     * A writing process reopens here too, lazily (not after each commit), and waits for a reopen another thread
     * has started, so that a thread's search after its own {@link #addCapture} sees that capture.
     */
    private IndexSearcher acquire() throws IOException {
        ReferenceManager<IndexSearcher> searchers = this.searchers;
        if (searchers == null) {
            synchronized (readerOpening) {
                if (this.searchers == null) {
                    // The generation first: the reader opens that commit or a later one (then refreshed once more).
                    long seen = SegmentInfos.getLastCommitGeneration(dir);
                    this.searchers = new SearcherManager(dir, new SearcherFactory());
                    seenGeneration = seen;
                }
                searchers = this.searchers;
            }
        }
        long generation = SegmentInfos.getLastCommitGeneration(dir);
        if (generation != seenGeneration) {
            if (writer != null) {
                searchers.maybeRefreshBlocking();
                seenGeneration = generation;
            } else if (searchers.maybeRefresh()) {
                seenGeneration = generation;
            }
        }
        return searchers.acquire();
    }

    private static List<FlowDocument> load(IndexSearcher s, TopDocs top) throws IOException {
        List<FlowDocument> out = new ArrayList<>(top.scoreDocs.length);
        var stored = s.storedFields();
        List<org.apache.lucene.index.LeafReaderContext> leaves = s.getIndexReader().leaves();
        for (ScoreDoc sd : top.scoreDocs) {
            var leaf = leaves.get(org.apache.lucene.index.ReaderUtil.subIndex(sd.doc, leaves));
            out.add(LuceneDocuments.fromLucene(stored.document(sd.doc), leaf.reader(), sd.doc - leaf.docBase));
        }
        return out;
    }

    /** The sort field, then the id, so ties come out the same everywhere; missing values last either way. */
    private static Sort luceneSort(FlowSort sort) {
        FieldDef f = sort.field();
        SortField primary;
        if (f.type() == FieldType.DOUBLE) {
            primary = new SortField(f.name(), SortField.Type.DOUBLE, sort.descending());
            primary.setMissingValue(sort.descending() ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
        } else {
            // A sparse counter's flow documents without a doc value sort as the 0 they hold.
            primary = LuceneDocuments.sparse(f) ? new SparseCounter(f.name()).getSortField(sort.descending())
                    : new SortField(f.name(), SortField.Type.LONG, sort.descending());
            primary.setMissingValue(sort.descending() ? Long.MIN_VALUE : Long.MAX_VALUE);
        }
        return new Sort(primary, new SortedSetSortField(FlowSchema.ID, false));
    }

    @Override
    public void close() throws IOException {
        try {
            if (searchers != null) searchers.close();
            if (writer != null) writer.close(); // commitOnClose is off: everything reported was committed already
        } finally {
            dir.close();
        }
    }
}

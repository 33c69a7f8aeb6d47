package io.metaroce.cli;

import io.metaroce.analysis.AnalysisEngine;
import io.metaroce.analysis.AnalysisResult;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.EventType;
import io.metaroce.analysis.FlowSummary;
import io.metaroce.analysis.FrameList;
import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.index.CaptureIdentity;
import io.metaroce.index.CommitGroups;
import io.metaroce.index.EvictedFlowSpill;
import io.metaroce.index.FlowOccurrences;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowDocuments;
import io.metaroce.index.FlowIndex;
import io.metaroce.index.IndexFormatException;
import io.metaroce.index.IndexedCapture;
import io.metaroce.index.QueryTimes;
import io.metaroce.validate.FileResult;
import io.metaroce.validate.FileValidator;
import io.metaroce.validate.Finding;
import io.metaroce.validate.ValidateSettings;
import io.metaroce.validate.Validation;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce index PATH... --index DIR}: analyzes each capture (files and directories, walked) with the
 * engine and adds one document per QP flow to the flow index, committing captures in groups ({@link CommitGroups}:
 * every 500,000 documents or 30 seconds, and at the end). Captures run in parallel, one per core; a capture whose
 * content is indexed already is skipped, a changed file replaces its documents. Each capture is reported on stdout
 * once its commit is done, so what was reported survives a crash.
 *
 * <p>The options' defaults are the fields' initial values, not picocli's {@code defaultValue}: {@code index PATH...
 * --index DIR} alone runs on a new instance without picocli ({@link FrontDoor#plainCommand}), as analyze's and
 * validate's plain forms do.
 */
@Command(name = "index", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = "Index captures for postmortems: one document per QP flow per capture (counters, latencies, "
                + "paths, events, packet offsets), searchable with 'metaroce search' and extractable with 'metaroce extract'.",
        footer = {"", "Examples:", "  metaroce index samples/captures --index flows.idx",
                "  metaroce index /data/job42/*.pcapng --index flows.idx --rules",
                "  metaroce index --index flows.idx --expire-before 2026-11-01"})
public final class IndexCommand implements Callable<Integer> {
    @Spec(Spec.Target.SELF)
    CommandSpec spec;

    @Mixin
    StandardOptions standard;

    @Mixin
    StandardOptions.NoVerbose noVerbose;

    @Mixin
    IndexBackend backend;

    @Parameters(paramLabel = "PATH", arity = "0..*", description = "capture files and directories (walked; files that are not pcap or pcapng are skipped)")
    List<Path> paths = new ArrayList<>();

    @Option(names = "--expire-before", paramLabel = "DATE", description = "first remove the captures whose last packet is before DATE (2026-11-01, 2026-11-30T02:00, UTC)")
    String expireBefore;

    @Option(names = "--rules", description = "also validate each capture, in the same pass, so that flows carry the conformance rules they broke (rule:...)")
    boolean rules;

    @Option(names = "--threads", paramLabel = "N", description = "captures indexed at once (default: one per core)")
    Integer threads;

    @Option(names = "--split", paramLabel = "N",
            description = "packets per document; longer flows continue in part documents (default ${DEFAULT-VALUE})")
    int split = FlowDocuments.DEFAULT_SPLIT;

    @Option(names = "--tap", paramLabel = "auto|host:IP|mirror", description = "where the captures were taken (default auto, per capture)")
    String tap = "auto";

    @Option(names = {"-d", "--decode-as"}, paramLabel = DecodeAs.LABEL, description = DecodeAs.HELP)
    List<String> ports;

    @Option(names = "--progress", negatable = true, description = "progress bar on stderr (default: only when stderr is a terminal)")
    Boolean progress;

    /** Documents per commit group (hidden: for tests, and to compare settings; 1 commits each capture alone). */
    @Option(names = "--commit-documents", hidden = true, paramLabel = "N")
    long commitDocuments = CommitGroups.DEFAULT_DOCUMENTS;

    /** Seconds a capture waits for its group's commit, at most (hidden, as --commit-documents). */
    @Option(names = "--commit-seconds", hidden = true, paramLabel = "S")
    double commitSeconds = CommitGroups.DEFAULT_SECONDS;

    /** Hashes the captures beside their analysis; daemon threads, so an interrupted run does not wait for them. */
    private static final ExecutorService HASHING = Executors.newCachedThreadPool(r -> Thread.ofPlatform().daemon().name("metaroce-hash").unstarted(r));

    private PrintStream out, err;
    private ProgressBar bar;
    /** Captures of this index that carry an older content hash (XXH3-128 or SHA-256, indexed before the CRC pair), by path. */
    private final Map<String, IndexedCapture> indexedWithOlderHash = new java.util.concurrent.ConcurrentHashMap<>();
    /** The passes running, cancelled when the index does not open. */
    private final Set<AnalysisSession> passes = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** This run's commits, once the index is open. */
    private CompletableFuture<CommitGroups> grouping;

    @Override
    public Integer call() throws IOException {
        out = System.out;
        err = System.err;
        if (paths.isEmpty() && expireBefore == null) throw new ParameterException(spec.commandLine(), "no captures given (PATH...), and no --expire-before");
        if (split < 1) throw new ParameterException(spec.commandLine(), "--split must be at least 1");
        // Not the default in disguise: 0 or a negative count of threads is a typo.
        if (threads != null && threads < 1) throw new ParameterException(spec.commandLine(), "--threads must be at least 1, not " + threads);
        if (commitDocuments < 1 || !(commitSeconds > 0)) throw new ParameterException(spec.commandLine(), "--commit-documents and --commit-seconds must be above 0");
        long expireNs = 0;
        if (expireBefore != null) {
            try {
                expireNs = QueryTimes.span(expireBefore)[0];
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--expire-before: " + e.getMessage());
            }
        }
        AnalysisSettings settings;
        try {
            settings = AnalysisSettings.DEFAULT.withPorts(DecodeAs.ports(ports)).withTap(TapCheck.parse(tap));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        int status = 0;
        List<Path> files = new ArrayList<>();
        for (Path p : paths) status |= expand(p, files);
        // Nothing to index and nothing to expire: each path has said why; no index is created for nothing.
        if (files.isEmpty() && expireBefore == null && status != 0) return status;
        // Lucene's open (the marker, the directory, the writer, the first reader: 0.06-0.2 s, much of it cold
        // code) runs beside the first captures' passes instead of before them (docs/benchmarks.md, "helper ixa,
        // ninth session"). Nothing is reported before the index is open, so a directory that is not an index
        // still gets its one line and exit status 2 alone; the passes begun meanwhile are cancelled. With
        // --expire-before the index is opened first, as the expiry comes before any capture.
        CompletableFuture<FlowIndex> opening;
        if (expireBefore != null) {
            FlowIndex index;
            try {
                index = backend.open(true);
            } catch (IndexFormatException e) {
                err.println("metaroce index: " + e.getMessage());
                return 2;
            }
            opening = CompletableFuture.completedFuture(index);
            try {
                List<IndexedCapture> gone = index.expireBefore(expireNs);
                for (IndexedCapture c : gone) out.println("expired " + c.path());
                out.println("expired " + gone.size() + " capture" + (gone.size() == 1 ? "" : "s") + " before " + expireBefore);
            } catch (IOException | RuntimeException e) {
                index.close();
                if (e instanceof IndexFormatException f) {
                    err.println("metaroce index: " + f.getMessage());
                    return 2;
                }
                throw e;
            }
        } else {
            opening = new CompletableFuture<>();
            Thread.ofPlatform().daemon().name("metaroce-open").start(() -> {
                try {
                    opening.complete(backend.open(true));
                } catch (Throwable e) {
                    opening.completeExceptionally(e);
                }
            });
        }
        try {
            status |= indexAll(opening, files, settings);
            await(opening);
        } catch (IndexFormatException e) {
            err.println("metaroce index: " + e.getMessage());
            return 2;
        } finally {
            FlowIndex index = opening.isDone() && !opening.isCompletedExceptionally() ? opening.join() : null;
            if (index != null) index.close();
        }
        return status;
    }

    /** The value of a future of this command, with the failure it was completed with (not wrapped). */
    private static <T> T await(CompletableFuture<T> f) throws IOException {
        try {
            return f.join();
        } catch (CompletionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException i) throw i;
            if (c instanceof UncheckedIOException u) throw u.getCause();
            if (c instanceof RuntimeException r) throw r;
            if (c instanceof Error r) throw r;
            throw new IOException(c);
        }
    }

    /**
     * Adds the capture files under a path (sorted): every file that starts like a capture, whatever its name. A missing
     * path is an error, and so is a file that is not a capture (empty, a text file) named on the command line or named
     * like one (*.pcap, *.pcapng, *.cap, or those .gz: see notACapture) in a directory, in the words of analyze and validate, with their exit status 2
     * (README, exit codes); the other files of a directory are skipped with one line each (a capture's notes, sidecar
     * files), as they are not errors.
     */
    private int expand(Path p, List<Path> files) throws IOException {
        if (p.toString().isEmpty()) {
            // The path of the working directory: index '' indexed every capture under it.
            err.println("metaroce index: '': the file name is empty");
            return 2;
        }
        if (!Files.exists(p)) {
            err.println("metaroce index: " + p + ": no such file or directory");
            return 2;
        }
        if (!Files.isDirectory(p)) {
            // Not a regular file (a pipe, a device): its first bytes are not even read, a read of a pipe would wait
            // for a writer forever.
            if (Files.isRegularFile(p) && CaptureIdentity.looksLikeCapture(p)) {
                files.add(p);
                return 0;
            }
            err.println("metaroce index: " + notACapture(p));
            return 2;
        }
        List<Path> found;
        try (Stream<Path> s = Files.walk(p)) {
            found = s.filter(Files::isRegularFile).sorted().toList();
        }
        int status = 0, before = files.size();
        for (Path f : found) {
            if (CaptureIdentity.looksLikeCapture(f)) {
                files.add(f);
            } else if (Validation.isCapture(f)) {
                // Named as a capture but not one (cut to nothing, overwritten): an error, as analyze and validate of
                // the same directory say.
                err.println("metaroce index: " + notACapture(f));
                status = 2;
            } else {
                err.println("metaroce index: skipped " + f + ": not a pcap or pcapng capture");
            }
        }
        // A directory without a capture indexed nothing and exited 0 in silence (a wrong path in a cron job looked
        // like a night without traffic): an error, as validate says of it, and the other paths are still indexed.
        if (files.size() == before && status == 0) {
            err.println("metaroce index: " + p + ": no pcap or pcapng capture in this directory");
            status = 2;
        }
        return status;
    }

    /** Why a file is not a capture, as the capture reader says it ({@code analyze -r FILE} prints the same). */
    private static String notACapture(Path f) {
        // The readers decompress a gzip capture into a copy; the index points into the file itself (extract reads each
        // flow's packets back by their offsets, CaptureIdentity hashes the file's bytes).
        if (CaptureFiles.isGzip(f)) {
            return f + ": gzip-compressed: the index points at packets by their offsets in the capture file, so it takes"
                    + " uncompressed captures; decompress it first (gunzip)";
        }
        try (PacketSource s = CaptureFiles.open(f)) {
            return f + ": not a pcap or pcapng capture";
        } catch (CaptureException e) {
            return e.getMessage();
        }
    }

    private int indexAll(CompletableFuture<FlowIndex> opening, List<Path> files, AnalysisSettings settings) throws IOException {
        if (files.isEmpty()) return 0;
        grouping = opening.thenApply(index -> new CommitGroups(index, commitDocuments, commitSeconds));
        // The sizes of the captures in the index when this run began (a capture of another size is not indexed yet),
        // read as soon as the index is open.
        CompletableFuture<Set<Long>> indexedSizes = opening.thenApply(index -> {
            Set<Long> sizes = new java.util.HashSet<>();
            try {
                for (IndexedCapture c : index.captures()) {
                    if (!CaptureIdentity.isCurrent(c.hash())) indexedWithOlderHash.put(c.path(), c);
                    sizes.add(c.size());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return sizes;
        });
        long[] sizes = new long[files.size()];
        long total = 0;
        for (int i = 0; i < sizes.length; i++) {
            try {
                sizes[i] = Files.size(files.get(i));
            } catch (IOException e) {
                sizes[i] = 0;
            }
            total += sizes[i];
        }
        AtomicLongArray done = new AtomicLongArray(files.size());
        AtomicInteger finished = new AtomicInteger();
        int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        // The passes at once share the heap (beside Lucene's buffers): each holds that part of the flows it would hold alone.
        io.metaroce.analysis.FlowBudget.passesAtOnce(Math.min(n, files.size()));
        bar = ProgressBar.open("index", progress);
        long all = total;
        Runnable redraw = () -> {
            ProgressBar b = bar;
            if (b == null) return;
            long sum = 0;
            for (int i = 0; i < done.length(); i++) sum += done.get(i);
            b.update(Math.min(sum, all - 1), all, finished.get(), files.size());
        };
        int status = 0;
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(n, files.size()), r -> Thread.ofPlatform().daemon().name("metaroce-index").unstarted(r));
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < files.size(); i++) {
                int k = i;
                results.add(pool.submit(() -> {
                    try {
                        return indexOne(opening, indexedSizes, files.get(k), settings, pos -> {
                            done.set(k, pos);
                            redraw.run();
                        });
                    } finally {
                        done.set(k, sizes[k]);
                        finished.incrementAndGet();
                        redraw.run();
                    }
                }));
            }
            try {
                await(indexedSizes);
            } catch (IOException | RuntimeException e) {
                // No index: the passes begun meanwhile stop (each returns quietly), and the caller reports why.
                for (AnalysisSession s : passes) s.cancel();
                for (Future<Integer> f : results) {
                    try {
                        f.get();
                    } catch (java.util.concurrent.ExecutionException x) {
                        // the index's failure is the one reported
                    } catch (InterruptedException x) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                throw e;
            }
            for (Future<Integer> f : results) {
                try {
                    status |= f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    Throwable c = e.getCause();
                    // The one line every command ends a failure with (out of memory names the heap and the option).
                    report(err, FailureLine.of("metaroce index", c));
                    if (System.getenv("METAROCE_DEBUG") != null) c.printStackTrace();
                    status |= 2;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return 2;
                }
            }
            // The last group: the captures added since the last commit, reported once it is done.
            try {
                await(grouping).commit();
            } catch (IOException | RuntimeException e) {
                report(err, "metaroce index: internal error: " + e);
                if (System.getenv("METAROCE_DEBUG") != null) e.printStackTrace();
                status |= 2;
            }
        } finally {
            pool.shutdownNow();
            // Its timer stops before the index closes (a commit of a closed writer would fail).
            if (grouping.isDone() && !grouping.isCompletedExceptionally()) grouping.join().close();
            if (bar != null) bar.close();
        }
        return status;
    }

    /** Analyzes one capture and commits its documents; 0, or 2 when it could not be read (or is damaged). */
    private int indexOne(CompletableFuture<FlowIndex> opening, CompletableFuture<Set<Long>> indexedSizes, Path file, AnalysisSettings settings,
            java.util.function.LongConsumer progressAt) throws IOException {
        try (EvictedFlowSpill evicted = new EvictedFlowSpill()) {
            return indexOne(opening, indexedSizes, file, settings, progressAt, evicted, new FlowOccurrences());
        }
    }

    private int indexOne(CompletableFuture<FlowIndex> opening, CompletableFuture<Set<Long>> indexedSizes, Path file, AnalysisSettings settings,
            java.util.function.LongConsumer progressAt, EvictedFlowSpill evicted, FlowOccurrences occurrences) throws IOException {
        Path abs = file.toAbsolutePath().normalize();
        long size = CaptureIdentity.size(abs);
        // Each flow's event types as a mask of EventType ordinals (eventLabels gives a document its labels): held
        // for every flow with an event until its documents are made. A TreeSet of labels per flow held 150 bytes per
        // flow with one type and 192 with two, the mask 48 (the map's entry and table included, the keys not; 2x10^5
        // flows, heap after GC; docs/benchmarks.md, end of the eighteenth session).
        Map<String, Integer> events = new HashMap<>();
        AnalysisEngine.EventListener eventTypes = e -> {
            if (e.flow() != null) events.merge(e.flow(), eventBit(e.type()), (a, b) -> a | b);
        };
        AnalysisSession.Options keep = new AnalysisSession.Options(false, false, true);
        // --rules: the conformance rules ride on the same pass (as validate runs them), not a second one.
        FileValidator.InSession validation = null;
        AnalysisSession session;
        if (rules) {
            ValidateSettings vs = new ValidateSettings.Builder().tap(settings.tap()).ports(settings.rocePorts()).build();
            validation = FileValidator.inSession(abs, vs, keep, eventTypes);
            session = validation.session();
        } else {
            session = new AnalysisSession(settings, keep).onEvent(eventTypes);
        }
        session.onProgress((pos, total, frames) -> progressAt.accept(pos));
        // Flows the analysis evicts (more QPs than its flow bound) are documented too: each is written to a scratch
        // file as it is evicted and read back when the documents are made (EvictedFlowSpill). Kept on the heap until
        // the commit, they cost 2.3 KB each: index of 10^6 single-packet QPs ran out of memory under -Xmx1g.
        session.onEviction((f, frames) -> {
            occurrences.note(f.id());
            evicted.add(f, frames);
        });
        // A capture of a size no indexed capture has cannot be indexed already (nor be the same file as one indexed
        // under an older hash): its content hash rides on the pass's own read of the file, from the block the reader
        // has just brought into the CPU cache, instead of a second read of the whole file on a third thread
        // (docs/benchmarks.md, "helper ixa"). Any other capture may be known: it is hashed beside the analysis (the
        // other core), so that a capture found indexed already stops the pass early. While the index is still
        // opening, the sizes are not known yet: the pass hashes as for a new size, and the hash beside it starts
        // when the index turns out to hold a capture of this size.
        Set<Long> sizes = indexedSizes.isDone() && !indexedSizes.isCompletedExceptionally() ? indexedSizes.join() : null;
        CaptureIdentity.ContentHasher inPass = sizes != null && sizes.contains(size) ? null : new CaptureIdentity.ContentHasher();
        if (inPass != null) session.onContent(inPass::accept);
        java.util.function.Supplier<Hashed> beside = () -> {
            try {
                String h = CaptureIdentity.contentHash(abs);
                IndexedCapture known = indexed(opening.join(), h);
                if (known == null) known = indexedBeforeWithOlderHash(abs, size);
                if (known != null) session.cancel();
                return new Hashed(h, known);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        CompletableFuture<Hashed> hashing = sizes == null
                ? indexedSizes.thenCompose(s -> s.contains(size) ? CompletableFuture.supplyAsync(beside, HASHING) : CompletableFuture.completedFuture(null))
                : inPass != null ? CompletableFuture.completedFuture(null) : CompletableFuture.supplyAsync(beside, HASHING);
        AnalysisResult result = null;
        CaptureException failed = null;
        passes.add(session);
        if (indexedSizes.isCompletedExceptionally()) session.cancel();
        try {
            result = session.run(abs);
        } catch (CaptureException e) {
            failed = e;
        } catch (CancellationException e) {
            // the capture is indexed already (or the whole run is stopping): the hash says which below
        } finally {
            passes.remove(session);
        }
        FlowIndex index;
        try {
            await(indexedSizes);
            index = await(opening);
        } catch (IOException | RuntimeException e) {
            return 2;   // the index did not open: indexAll reports why, once
        }
        Hashed hashed;
        try {
            hashed = hashing.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof UncheckedIOException u ? u.getCause() : new IOException(e.getCause());
        }
        // A pass that did not read the file to its end (it could not open it) leaves the hash to a read of its own.
        if (hashed == null) hashed = new Hashed(inPass.bytes() == size ? inPass.hash() : CaptureIdentity.contentHash(abs), null);
        String hash = hashed.hash();
        // Asked again: a copy of the same content indexed by another thread meanwhile is skipped too.
        IndexedCapture known = hashed.known() != null ? hashed.known() : indexed(index, hash);
        if (known != null) {
            String line = known.path().equals(abs.toString()) ? "unchanged " + abs + " (indexed already)"
                    : "skipped " + abs + ": same content as the indexed " + known.path();
            // Said once the capture it names is committed, if that one is of this run and still waiting.
            await(grouping).whenCommitted(known.hash(), () -> report(out, line));
            return 0;
        }
        if (failed != null) {
            report(err, "metaroce index: " + failed.getMessage());
            return 2;
        }
        if (result == null) return 2;
        Map<String, Set<String>> broken = new HashMap<>();
        if (validation != null) {
            FileResult fr = validation.finish(result);
            if (fr.error() != null) report(err, "metaroce index: " + fr.error() + " (indexed without rules)");
            else for (Finding f : fr.findings()) if (f.flow() != null) broken.computeIfAbsent(f.flow(), x -> new TreeSet<>()).add(f.rule());
        }
        Map<String, Object> c = result.capture();
        @SuppressWarnings("unchecked")
        Map<String, Object> tapInfo = (Map<String, Object>) c.get("tap");
        IndexedCapture cap = new IndexedCapture(abs.toString(), size, hash, String.valueOf(c.get("format")),
                tapInfo == null ? null : String.valueOf(tapInfo.get("resolved")), (Long) c.get("first_ns"), (Long) c.get("last_ns"),
                IndexedCapture.nowNs());
        // Made as the index takes them: a capture of many flows never holds all its documents at once. The evicted
        // flows first, as they were evicted, then those the pass held at its end.
        long[] made = {0};
        List<FlowSummary> held = result.flows();
        for (FlowSummary f : held) occurrences.note(f.id());
        long flowCount = evicted.size() + held.size();
        Iterable<Map.Entry<FlowSummary, FrameList>> spilled = evicted.flows();
        // An evicted QP that sent again is a second flow of the same id: each gets its own documents.
        Iterable<FlowDocument> docs = () -> Stream.concat(Stream.of(FlowDocuments.capture(cap)),
                Stream.concat(StreamSupport.stream(spilled.spliterator(), false), held.stream().map(f -> Map.entry(f, session.framesOf(f.id()))))
                        .flatMap(e -> {
                            FlowSummary f = e.getKey();
                            return FlowDocuments.of(cap, f, e.getValue(), eventLabels(events.get(f.id())), broken.getOrDefault(f.id(), Set.of()),
                                    split, occurrences.next(f.id())).stream();
                        })).peek(d -> made[0]++).iterator();
        List<?> problems = c.get("capture_problems") instanceof List<?> l ? l : List.of();
        // Reported once its group's commit is done (on the thread that commits), so that a line means durable. Its
        // flows and its capture document are a lower bound of its documents: one of many blocks is added apart
        // (LuceneFlowIndex.addApart), and other captures' commits do not wait for it.
        await(grouping).add(cap, docs, flowCount + 1, n -> {
            report(out, "indexed " + abs + ": " + flowCount + " flows, " + made[0] + " documents");
            for (Object p : problems) report(err, "metaroce index: " + abs + ": " + p + " (indexed what was readable)");
        });
        return problems.isEmpty() ? 0 : 2;
    }

    static {
        // A flow's mask of event types is an int of their ordinals.
        if (EventType.values().length > Integer.SIZE) throw new IllegalStateException("more event types than bits in an int");
    }

    /** The bit of type in a flow's mask of event types. */
    static int eventBit(EventType type) {
        return 1 << type.ordinal();
    }

    /** The labels of the event types in mask (null: none); FlowDocuments sorts them. */
    static List<String> eventLabels(Integer mask) {
        if (mask == null) return List.of();
        List<String> labels = new ArrayList<>(Integer.bitCount(mask));
        for (EventType t : EventType.values()) if ((mask & eventBit(t)) != 0) labels.add(t.label());
        return labels;
    }

    /** The capture of this content in the index, or added in this run and waiting for its commit; or null. */
    private IndexedCapture indexed(FlowIndex index, String hash) throws IOException {
        IndexedCapture waiting = grouping.isDone() && !grouping.isCompletedExceptionally() ? grouping.join().uncommitted(hash) : null;
        return waiting != null ? waiting : index.capture(hash);
    }

    /** A capture's content hash and the indexed capture of the same content, or null. */
    private record Hashed(String hash, IndexedCapture known) {}

    /**
     * The capture an index written before the CRC pair holds for this path, when it still is this file (same size,
     * same XXH3-128 or SHA-256, as it was indexed with): an unchanged capture is then skipped as before, not analyzed
     * and indexed again. Only captures indexed under an older hash at this very path pay the second hash; a copy
     * elsewhere is indexed anew.
     */
    private IndexedCapture indexedBeforeWithOlderHash(Path abs, long size) throws IOException {
        IndexedCapture old = indexedWithOlderHash.get(abs.toString());
        return old != null && old.size() == size && CaptureIdentity.hashLike(abs, old.hash()).equals(old.hash()) ? old : null;
    }

    /** One line, printed whole and at once even with the bar drawn and two captures finishing together. */
    private synchronized void report(PrintStream to, String line) {
        ProgressBar b = bar;
        if (b != null) b.close();
        to.println(line);
        to.flush();
        if (b != null) bar = ProgressBar.open("index", progress);
    }
}

package io.metaroce.index.lucene;

import io.metaroce.index.FacetBucket;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.SyntheticFlows;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Benchmark harness of the embedded index (not a test; run by {@code bench/index-bench.sh}): indexes
 * {@code flows} synthetic flow documents ({@link SyntheticFlows}) in captures of 10,000 flows, committed as
 * {@code metaroce index} commits them (in groups, {@code io.metaroce.index.CommitGroups}, with its settings;
 * {@code -Dbench.commit=each}: one commit per capture, as before the twelfth session and as classes without the
 * groups do), then, with the index open in this process, times a selective query and the exact top-10 facet. Each phase
 * prints wall time and the process's CPU time, so a run on a loaded machine still says what the work costs.
 *
 * <p>Arguments: {@code [flows] [index dir]} (default 1,000,000 and a temporary directory, deleted at the end; a
 * given directory is kept, for whole-process {@code metaroce search} runs against it).
 */
public final class FlowIndexBench {
    private static final int PER_CAPTURE = 10_000;

    public static void main(String[] args) throws Exception {
        int flows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        boolean keep = args.length > 1;
        Path dir = keep ? Path.of(args[1]) : Files.createTempDirectory("idx-bench").resolve("i");
        int captures = Math.max(1, flows / PER_CAPTURE);
        // Writer settings to compare (-Dbench.ram=MB, -Dbench.cfs=true, -Dbench.tier, -Dbench.floor=MB, -Dbench.atonce);
        // the defaults are what metaroce uses.
        LuceneFlowIndex.ramBufferMb = Double.parseDouble(System.getProperty("bench.ram", Double.toString(LuceneFlowIndex.ramBufferMb)));
        LuceneFlowIndex.compoundFiles = Boolean.parseBoolean(System.getProperty("bench.cfs", Boolean.toString(LuceneFlowIndex.compoundFiles)));
        System.out.printf(Locale.ROOT, "writer: RAM buffer %.0f MB, compound files %s, segments per tier %s, floor segment %s MB, merged at once %s%n",
                LuceneFlowIndex.ramBufferMb, LuceneFlowIndex.compoundFiles, knob("segmentsPerTier", "bench.tier"), knob("floorSegmentMb", "bench.floor"),
                knob("maxMergeAtOnce", "bench.atonce"));
        // Documents made as the index takes them (as `metaroce index` streams a capture's documents), unless
        // -Dbench.materialize=true: each capture's documents made into a list first (the earlier sessions' figures),
        // which the collector then copies while the capture is indexed.
        boolean materialize = Boolean.getBoolean("bench.materialize");
        System.out.printf(Locale.ROOT, "documents: %s; GC %s%n", materialize ? "a list per capture" : "streamed",
                ManagementFactory.getGarbageCollectorMXBeans().stream().map(b -> b.getName()).toList());
        // Captures added on this many threads at once, as `metaroce index` does (one per core); -Dbench.threads=1
        // gives the single-thread figure of earlier sections. Generation runs on the same threads, timed apart.
        int threads = Integer.getInteger("bench.threads", Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "adding threads: %d%n", threads);
        AtomicLong docCount = new AtomicLong(), genNs = new AtomicLong(), genCpu = new AtomicLong();
        AtomicInteger next = new AtomicInteger();
        long addNs = 0, addCpu = 0;
        // -Dbench.reuse=true with a kept index directory: the queries only (the index of an earlier run, e.g. to
        // compare query code on the same index).
        boolean reuse = Boolean.getBoolean("bench.reuse") && Files.isDirectory(dir);
        int commits = 0;
        if (!reuse) try (LuceneFlowIndex idx = LuceneFlowIndex.openForWriting(dir)) {
            long t1 = System.nanoTime(), c1 = cpuNs(), gcMs1 = gcMs(), gcN1 = gcCount(), jitMs1 = jitMs(), jit1 = jitThreadsCpuNs(), gc1 = gcThreadsCpuNs();
            Adder adder = adder(idx);
            List<Thread> running = new ArrayList<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < threads; t++) {
                running.add(Thread.ofPlatform().name("bench-add-" + t).start(() -> {
                    try {
                        for (int c; (c = next.getAndIncrement()) < captures; ) {
                            if (materialize) {
                                long g0 = System.nanoTime(), gc0 = threadCpuNs();
                                SyntheticFlows.Capture cap = SyntheticFlows.capture(c, PER_CAPTURE, 1);
                                genNs.addAndGet(System.nanoTime() - g0);
                                genCpu.addAndGet(threadCpuNs() - gc0);
                                adder.add(cap.capture(), cap.documents());
                                docCount.addAndGet(cap.documents().size());
                            } else {
                                TimedDocuments docs = new TimedDocuments(SyntheticFlows.stream(c, PER_CAPTURE, 1));
                                adder.add(SyntheticFlows.identity(c), docs);
                                genNs.addAndGet(docs.ns);
                                genCpu.addAndGet(docs.cpuNs);
                                docCount.addAndGet(docs.count);
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread t : running) t.join();
            if (!failures.isEmpty()) throw new IllegalStateException("adding failed", failures.get(0));
            long e0 = System.nanoTime(), ec0 = cpuNs();
            commits = adder.end();
            // The last commit runs after every add: what it flushes is the run's tail, where a core may wait.
            System.out.printf(Locale.ROOT, "last commit (after the adds): %.2f s wall, %.2f s CPU%n", (System.nanoTime() - e0) / 1e9, (cpuNs() - ec0) / 1e9);
            // Generation ran inside this span on the adding threads: its CPU is taken out, its wall share estimated.
            addCpu = cpuNs() - c1 - genCpu.get();
            addNs = System.nanoTime() - t1 - genNs.get() / threads;
            long jitCpu = jitThreadsCpuNs() - jit1, gcCpu = gcThreadsCpuNs() - gc1;
            System.out.printf(Locale.ROOT, "while adding: collector %.1f s (pauses), JIT compilers %.1f s (compilation time), %.1f s CPU"
                            + " of the compiler threads; CPU per flow doc without the compilers' %.1f us%n",
                    (gcMs() - gcMs1) / 1e3, (jitMs() - jitMs1) / 1e3, jitCpu / 1e9, (addCpu - jitCpu) / 1e3 / ((long) captures * PER_CAPTURE));
            // The collector's own line: under load its pauses (wall) say little, its threads' CPU (the VM thread, which
            // runs the serial collector's pauses, and any GC worker threads) what the heap's sizing costs.
            System.out.printf(Locale.ROOT, "collector while adding: %d collections, %.1f s CPU of the VM and GC threads; CPU per flow doc without"
                            + " the compilers and the collector %.1f us%n",
                    gcCount() - gcN1, gcCpu / 1e9, (addCpu - jitCpu - gcCpu) / 1e3 / ((long) captures * PER_CAPTURE));
        }
        long docs = docCount.get();
        long total = (long) captures * PER_CAPTURE;
        if (!reuse) System.out.printf(Locale.ROOT, "index %d flows (%d documents with capture and part documents), %d captures, %d commits: %.1f s wall, %.1f s CPU"
                        + " => %.0f flow docs/s (%.0f docs/s); CPU per flow doc %.1f us; document generation %.1f s apart%n",
                total, docs, captures, commits, addNs / 1e9, addCpu / 1e9, total / (addNs / 1e9), docs / (addNs / 1e9),
                addCpu / 1e3 / total, genNs.get() / 1e9);
        try (var d = org.apache.lucene.store.FSDirectory.open(dir); var r = org.apache.lucene.index.DirectoryReader.open(d)) {
            System.out.printf(Locale.ROOT, "segments: %d%n", r.leaves().size()); // what the merge settings leave to search
        }
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForReading(dir)) {
            Random r = new Random(3);
            long[] q = new long[300], qThread = new long[300];
            long hits = 0, c0 = cpuNs();
            for (int i = -100; i < q.length; i++) {
                int qp = 0x200 + r.nextInt(40), capture = r.nextInt(captures);
                long from = SyntheticFlows.T0 + capture * 60_000_000_000L;
                String text = "dest_qp:" + qp + " AND naks:[5 TO *] AND first:[" + from + " TO " + (from + 20_000_000_000L) + "]";
                long t0 = System.nanoTime(), tc0 = threadCpuNs();
                FlowQuery fq = FlowQueryParser.parse(text);
                hits += idx.search(fq, FlowSort.parse("naks"), 1000).flows().size();
                if (i >= 0) {
                    q[i] = System.nanoTime() - t0;
                    qThread[i] = threadCpuNs() - tc0;
                }
            }
            long qCpu = cpuNs() - c0;
            System.out.printf(Locale.ROOT, "selective query 'dest_qp:Q AND naks:[5 TO *] AND first:[20 s window]', sorted by naks, documents loaded"
                    + " (%d hits in %d runs): p50 %.2f ms, p99 %.2f ms, max %.2f ms; CPU %.2f ms per query;"
                    + " the querying thread's CPU p50 %.2f ms, p99 %.2f ms%n",
                    hits, q.length, pct(q, 50), pct(q, 99), pct(q, 100), qCpu / 1e6 / (q.length + 100), pct(qThread, 50), pct(qThread, 99));
            long[] f = new long[30], fThread = new long[30];
            List<FacetBucket> top = null;
            c0 = cpuNs();
            for (int i = -5; i < f.length; i++) {
                long t0 = System.nanoTime(), tc0 = threadCpuNs();
                top = idx.top(FlowSchema.field("dest_qp"), FlowSchema.field("naks"), 10, new FlowQuery.MatchAll());
                if (i >= 0) {
                    f[i] = System.nanoTime() - t0;
                    fThread[i] = threadCpuNs() - tc0;
                }
            }
            long fCpu = cpuNs() - c0;
            System.out.printf(Locale.ROOT, "exact top-10 dest_qp by sum(naks) over all %d flows: p50 %.1f ms, p99 %.1f ms; CPU %.1f ms per facet;"
                    + " the thread's CPU p50 %.1f ms; first %s%n", total, pct(f, 50), pct(f, 99), fCpu / 1e6 / (f.length + 5), pct(fThread, 50), top.get(0));
            c0 = cpuNs();
            for (int i = -5; i < f.length; i++) {
                long t0 = System.nanoTime(), tc0 = threadCpuNs();
                top = idx.top(FlowSchema.field("src"), FlowSchema.field("ce_marks"), 10, new FlowQuery.MatchAll());
                if (i >= 0) {
                    f[i] = System.nanoTime() - t0;
                    fThread[i] = threadCpuNs() - tc0;
                }
            }
            fCpu = cpuNs() - c0;
            System.out.printf(Locale.ROOT, "exact top-10 src by sum(ce_marks) over all %d flows: p50 %.1f ms, p99 %.1f ms; CPU %.1f ms per facet;"
                    + " the thread's CPU p50 %.1f ms%n", total, pct(f, 50), pct(f, 99), fCpu / 1e6 / (f.length + 5), pct(fThread, 50));
            // The connections facet (search --connections): pairs of two fields, against the single-field facets above.
            for (String[] c : new String[][] {{"src", "dst", "retransmitted_packets"}, {"src", "dest_qp", "naks"}}) {
                List<io.metaroce.index.Connection> pairs = null;
                c0 = cpuNs();
                for (int i = -5; i < f.length; i++) {
                    long t0 = System.nanoTime(), tc0 = threadCpuNs();
                    pairs = idx.connections(FlowSchema.field(c[0]), FlowSchema.field(c[1]), List.of(FlowSchema.field(c[2])), 10, new FlowQuery.MatchAll());
                    if (i >= 0) {
                        f[i] = System.nanoTime() - t0;
                        fThread[i] = threadCpuNs() - tc0;
                    }
                }
                fCpu = cpuNs() - c0;
                System.out.printf(Locale.ROOT, "exact top-10 connections %s,%s by sum(%s) over all %d flows: p50 %.1f ms, p99 %.1f ms; CPU %.1f ms per facet;"
                        + " the thread's CPU p50 %.1f ms; first %s%n", c[0], c[1], c[2], total, pct(f, 50), pct(f, 99), fCpu / 1e6 / (f.length + 5),
                        pct(fThread, 50), pairs.isEmpty() ? "-" : pairs.get(0));
            }
        }
        try (Stream<Path> s = Files.walk(dir)) {
            long bytes = s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
            System.out.printf(Locale.ROOT, "index on disk: %.1f MiB%n", bytes / 1048576.0);
        }
        if (!keep) {
            try (Stream<Path> s = Files.walk(dir.getParent())) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** How captures are committed: in groups as metaroce index does, or one commit each. */
    private interface Adder {
        void add(io.metaroce.index.IndexedCapture capture, Iterable<io.metaroce.index.FlowDocument> documents) throws java.io.IOException;

        /** The last commit; the number of commits. */
        int end() throws java.io.IOException;
    }

    /**
     * Groups unless {@code -Dbench.commit=each} or the classes measured have no {@code CommitGroups} (an older tree's,
     * compared against): those are only touched inside {@link Grouped}, so that this class loads without them.
     */
    private static Adder adder(LuceneFlowIndex idx) {
        boolean groups = !"each".equals(System.getProperty("bench.commit"));
        try {
            Class.forName("io.metaroce.index.CommitGroups");
        } catch (ClassNotFoundException e) {
            groups = false;
        }
        if (groups) return Grouped.of(idx);
        System.out.println("commits: one per capture");
        AtomicInteger n = new AtomicInteger();
        return new Adder() {
            @Override
            public void add(io.metaroce.index.IndexedCapture capture, Iterable<io.metaroce.index.FlowDocument> documents) throws java.io.IOException {
                idx.addCapture(capture, documents);
                n.incrementAndGet();
            }

            @Override
            public int end() { return n.get(); }
        };
    }

    private static final class Grouped {
        static Adder of(LuceneFlowIndex idx) {
            long docs = Long.getLong("bench.commitDocs", io.metaroce.index.CommitGroups.DEFAULT_DOCUMENTS);
            double seconds = Double.parseDouble(System.getProperty("bench.commitSeconds", Double.toString(io.metaroce.index.CommitGroups.DEFAULT_SECONDS)));
            System.out.printf(Locale.ROOT, "commits: in groups of %d documents or %.1f s, as metaroce index%n", docs, seconds);
            io.metaroce.index.CommitGroups g = new io.metaroce.index.CommitGroups(idx, docs, seconds);
            return new Adder() {
                @Override
                public void add(io.metaroce.index.IndexedCapture capture, Iterable<io.metaroce.index.FlowDocument> documents) throws java.io.IOException {
                    g.add(capture, documents, n -> { });
                }

                @Override
                public int end() throws java.io.IOException {
                    g.commit();
                    g.close();
                    return g.commits();
                }
            };
        }
    }

    /**
     * A capture's streamed documents, timing their making (wall and this thread's CPU, per document: about a
     * microsecond of clock reads each, counted as generation) so that it can be taken out of the indexing figures.
     */
    private static final class TimedDocuments implements Iterable<io.metaroce.index.FlowDocument> {
        private final Iterable<io.metaroce.index.FlowDocument> in;
        long ns, cpuNs, count;

        TimedDocuments(Iterable<io.metaroce.index.FlowDocument> in) { this.in = in; }

        @Override
        public java.util.Iterator<io.metaroce.index.FlowDocument> iterator() {
            java.util.Iterator<io.metaroce.index.FlowDocument> it = in.iterator();
            return new java.util.Iterator<>() {
                @Override
                public boolean hasNext() { return it.hasNext(); }

                @Override
                public io.metaroce.index.FlowDocument next() {
                    long t0 = System.nanoTime(), c0 = threadCpuNs();
                    io.metaroce.index.FlowDocument d = it.next();
                    cpuNs += threadCpuNs() - c0;
                    ns += System.nanoTime() - t0;
                    count++;
                    return d;
                }
            };
        }
    }

    /**
     * A writer setting of LuceneFlowIndex set from a system property when given; its value. By reflection, so that
     * this harness also runs against the classes of a tree that has no such setting (it then says "Lucene's").
     */
    private static String knob(String field, String property) throws ReflectiveOperationException {
        java.lang.reflect.Field f;
        try {
            f = LuceneFlowIndex.class.getDeclaredField(field);
        } catch (NoSuchFieldException e) {
            if (System.getProperty(property) != null) throw new IllegalArgumentException(property + ": not a setting of these classes");
            return "Lucene's";
        }
        if (System.getProperty(property) != null) f.setDouble(null, Double.parseDouble(System.getProperty(property)));
        return Double.toString(f.getDouble(null));
    }

    /**
     * The CPU of the JIT compiler threads so far, from /proc (0 where there is none): under load their share of a run
     * moves with timing (what gets compiled when), so the figure without it compares indexing code more steadily.
     * A compiler thread that ends takes its CPU with it: run with -XX:-UseDynamicNumberOfCompilerThreads.
     */
    private static long jitThreadsCpuNs() { return threadsCpuNs("CompilerThre"); }

    /** The CPU of the threads that collect garbage so far (the VM thread runs the serial collector's pauses). */
    private static long gcThreadsCpuNs() { return threadsCpuNs("VM Thread") + threadsCpuNs("GC Thread"); }

    /** The CPU so far of this process's threads whose name (as /proc has it) contains {@code name}; 0 without /proc. */
    private static long threadsCpuNs(String name) {
        long ticks = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                String st;
                try {
                    st = Files.readString(t.resolve("stat"));
                } catch (java.io.IOException e) {
                    continue; // the thread ended meanwhile
                }
                int open = st.indexOf('('), close = st.lastIndexOf(')');
                if (!st.substring(open + 1, close).contains(name)) continue;
                String[] f = st.substring(close + 2).split(" ");
                ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15)
            }
        } catch (java.io.IOException e) {
            return 0;
        }
        return ticks * 10_000_000L; // USER_HZ 100
    }

    private static long gcCount() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(b -> Math.max(0, b.getCollectionCount())).sum();
    }

    private static long gcMs() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(b -> Math.max(0, b.getCollectionTime())).sum();
    }

    private static long jitMs() { return ManagementFactory.getCompilationMXBean().getTotalCompilationTime(); }

    private static long threadCpuNs() { return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime(); }

    private static long cpuNs() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** The p-th percentile (nearest rank) in milliseconds. */
    private static double pct(long[] ns, int p) {
        long[] s = ns.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, Math.max(0, (int) Math.ceil(p / 100.0 * s.length) - 1))] / 1e6;
    }
}

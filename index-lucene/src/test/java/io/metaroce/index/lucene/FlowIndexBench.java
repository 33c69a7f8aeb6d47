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
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Benchmark harness of the embedded index (not a test; run by {@code bench/index-bench.sh}): indexes
 * {@code flows} synthetic flow documents ({@link SyntheticFlows}) in captures of 10,000 flows, one commit each,
 * then, with the index open in this process, times a selective query and the exact top-10 facet. Each phase
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
        // Writer settings to compare (-Dbench.ram=MB, -Dbench.cfs=true); the defaults are what metaroce uses.
        LuceneFlowIndex.ramBufferMb = Double.parseDouble(System.getProperty("bench.ram", Double.toString(LuceneFlowIndex.ramBufferMb)));
        LuceneFlowIndex.compoundFiles = Boolean.parseBoolean(System.getProperty("bench.cfs", Boolean.toString(LuceneFlowIndex.compoundFiles)));
        System.out.printf(Locale.ROOT, "writer: RAM buffer %.0f MB, compound files %s%n", LuceneFlowIndex.ramBufferMb, LuceneFlowIndex.compoundFiles);
        long docs = 0, genNs = 0, addNs = 0, addCpu = 0;
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForWriting(dir)) {
            for (int c = 0; c < captures; c++) {
                long t0 = System.nanoTime();
                SyntheticFlows.Capture cap = SyntheticFlows.capture(c, PER_CAPTURE, 1);
                long t1 = System.nanoTime(), c1 = cpuNs();
                idx.addCapture(cap.capture(), cap.documents());
                addNs += System.nanoTime() - t1;
                addCpu += cpuNs() - c1;
                genNs += t1 - t0;
                docs += cap.documents().size();
            }
        }
        long total = (long) captures * PER_CAPTURE;
        System.out.printf(Locale.ROOT, "index %d flows (%d documents with capture and part documents), %d commits: %.1f s wall, %.1f s CPU"
                        + " => %.0f flow docs/s (%.0f docs/s); CPU per flow doc %.1f us; document generation %.1f s apart%n",
                total, docs, captures, addNs / 1e9, addCpu / 1e9, total / (addNs / 1e9), docs / (addNs / 1e9),
                addCpu / 1e3 / total, genNs / 1e9);
        try (LuceneFlowIndex idx = LuceneFlowIndex.openForReading(dir)) {
            Random r = new Random(3);
            long[] q = new long[300];
            long hits = 0, c0 = cpuNs();
            for (int i = -100; i < q.length; i++) {
                int qp = 0x200 + r.nextInt(40), capture = r.nextInt(captures);
                long from = SyntheticFlows.T0 + capture * 60_000_000_000L;
                String text = "dest_qp:" + qp + " AND naks:[5 TO *] AND first:[" + from + " TO " + (from + 20_000_000_000L) + "]";
                long t0 = System.nanoTime();
                FlowQuery fq = FlowQueryParser.parse(text);
                hits += idx.search(fq, FlowSort.parse("naks"), 1000).flows().size();
                if (i >= 0) q[i] = System.nanoTime() - t0;
            }
            long qCpu = cpuNs() - c0;
            System.out.printf(Locale.ROOT, "selective query 'dest_qp:Q AND naks:[5 TO *] AND first:[20 s window]', sorted by naks, documents loaded"
                    + " (%d hits in %d runs): p50 %.2f ms, p99 %.2f ms, max %.2f ms; CPU %.2f ms per query%n",
                    hits, q.length, pct(q, 50), pct(q, 99), pct(q, 100), qCpu / 1e6 / (q.length + 100));
            long[] f = new long[30];
            List<FacetBucket> top = null;
            c0 = cpuNs();
            for (int i = -5; i < f.length; i++) {
                long t0 = System.nanoTime();
                top = idx.top(FlowSchema.field("dest_qp"), FlowSchema.field("naks"), 10, new FlowQuery.MatchAll());
                if (i >= 0) f[i] = System.nanoTime() - t0;
            }
            long fCpu = cpuNs() - c0;
            System.out.printf(Locale.ROOT, "exact top-10 dest_qp by sum(naks) over all %d flows: p50 %.1f ms, p99 %.1f ms; CPU %.1f ms per facet; first %s%n",
                    total, pct(f, 50), pct(f, 99), fCpu / 1e6 / (f.length + 5), top.get(0));
            c0 = cpuNs();
            for (int i = -5; i < f.length; i++) {
                long t0 = System.nanoTime();
                top = idx.top(FlowSchema.field("src"), FlowSchema.field("ce_marks"), 10, new FlowQuery.MatchAll());
                if (i >= 0) f[i] = System.nanoTime() - t0;
            }
            fCpu = cpuNs() - c0;
            System.out.printf(Locale.ROOT, "exact top-10 src by sum(ce_marks) over all %d flows: p50 %.1f ms, p99 %.1f ms; CPU %.1f ms per facet%n",
                    total, pct(f, 50), pct(f, 99), fCpu / 1e6 / (f.length + 5));
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

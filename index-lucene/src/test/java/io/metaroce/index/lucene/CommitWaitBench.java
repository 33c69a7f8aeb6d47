package io.metaroce.index.lucene;

import io.metaroce.index.CommitGroups;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSort;
import io.metaroce.index.SyntheticFlows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Benchmark harness (not a test): how long a small capture's commit and a search wait while one huge capture (default
 * 10^6 flow documents, many blocks of {@code LuceneFlowIndex.blockDocuments}) is added, as {@code metaroce index}
 * adds them on two threads ({@link CommitGroups}, a commit at most {@code commitSeconds} after a capture's add).
 * Thread one adds the huge capture; thread two adds a capture of 50 flows every 200 ms and records, for each, how long
 * its add took (it waits behind a commit that waits for the huge add) and how long from its add's end to its report
 * (the commit that holds it); a third thread opens the index for reading, as {@code metaroce search} in another
 * process does, and times a selective query every 100 ms. Each add is told its number of documents, as {@code metaroce
 * index} tells it, so the huge capture is added apart ({@code LuceneFlowIndex.addApart}).
 *
 * <p>{@code java -cp ... io.metaroce.index.lucene.CommitWaitBench [hugeFlows] [commitSeconds]}
 */
public final class CommitWaitBench {
    public static void main(String[] args) throws Exception {
        int huge = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 1;
        Path dir = Files.createTempDirectory("commit-wait").resolve("i");
        long t0 = System.nanoTime();
        AtomicBoolean hugeDone = new AtomicBoolean();
        List<double[]> small = new ArrayList<>(); // {start s, add ms, add end to report ms}
        List<double[]> searches = new ArrayList<>(); // {start s, ms}
        long[] hugeSpan = new long[2];
        try (LuceneFlowIndex w = LuceneFlowIndex.openForWriting(dir); CommitGroups groups = new CommitGroups(w, CommitGroups.DEFAULT_DOCUMENTS, seconds)) {
            // A first capture committed, so that the reader has something to open.
            groups.add(SyntheticFlows.identity(1), SyntheticFlows.stream(1, 50, 1), n -> {});
            groups.commit();
            Thread big = Thread.ofPlatform().name("huge").start(() -> {
                try {
                    hugeSpan[0] = System.nanoTime();
                    // Told its size, as metaroce index tells it (its flows and capture document): added apart.
                    groups.add(SyntheticFlows.identity(2), SyntheticFlows.stream(2, huge, 2), huge + 1, n -> {});
                    hugeSpan[1] = System.nanoTime();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    hugeDone.set(true);
                }
            });
            Thread smalls = Thread.ofPlatform().name("small").start(() -> {
                try {
                    for (int c = 3; !hugeDone.get(); c++) {
                        double[] r = new double[3];
                        long s = System.nanoTime();
                        r[0] = (s - t0) / 1e9;
                        long[] at = new long[2]; // {add end, report}
                        groups.add(SyntheticFlows.identity(c), SyntheticFlows.stream(c, 50, c), 51, n -> {
                            synchronized (at) {
                                at[1] = System.nanoTime();
                                // A report before the add's end (its own commit, due by time, ran inside it): no wait.
                                if (at[0] != 0) r[2] = (at[1] - at[0]) / 1e6;
                            }
                        });
                        synchronized (at) {
                            at[0] = System.nanoTime();
                        }
                        r[1] = (at[0] - s) / 1e6;
                        synchronized (small) {
                            small.add(r);
                        }
                        Thread.sleep(200);
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread search = Thread.ofPlatform().name("search").start(() -> {
                try (LuceneFlowIndex r = LuceneFlowIndex.openForReading(dir)) {
                    FlowQuery q = FlowQueryParser.parse("naks:[5 TO *]");
                    while (!hugeDone.get()) {
                        long s = System.nanoTime();
                        r.search(q, FlowSort.DEFAULT, 10);
                        searches.add(new double[] {(s - t0) / 1e9, (System.nanoTime() - s) / 1e6});
                        Thread.sleep(100);
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            big.join();
            smalls.join();
            search.join();
            groups.commit();
        }
        System.out.printf(Locale.ROOT, "huge capture of %,d flows added from %.1f to %.1f s; commit after at most %.1f s%n", huge,
                (hugeSpan[0] - t0) / 1e9, (hugeSpan[1] - t0) / 1e9, seconds);
        double[] adds = small.stream().mapToDouble(r -> r[1]).sorted().toArray();
        double[] reports = small.stream().mapToDouble(r -> r[2]).sorted().toArray();
        double[] q = searches.stream().mapToDouble(r -> r[1]).sorted().toArray();
        System.out.printf(Locale.ROOT, "small captures: %d; add ms p50 %.1f max %.1f; add end to report ms p50 %.1f max %.1f%n", adds.length,
                pct(adds, 50), pct(adds, 100), pct(reports, 50), pct(reports, 100));
        System.out.printf(Locale.ROOT, "searches from a reader: %d; ms p50 %.1f p95 %.1f max %.1f%n", q.length, pct(q, 50), pct(q, 95), pct(q, 100));
        for (double[] r : small) System.out.printf(Locale.ROOT, "small %.2f s add %.1f ms report %.1f ms%n", r[0], r[1], r[2]);
        // The index of 10^6 documents is some 320 MB: not left behind.
        try (var all = Files.walk(dir.getParent())) {
            for (Path f : all.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(f);
        }
    }

    private static double pct(double[] sorted, int p) {
        if (sorted.length == 0) return Double.NaN;
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    private CommitWaitBench() {}
}

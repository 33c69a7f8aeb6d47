package io.metaroce.cli;

import io.metaroce.analysis.AnalysisResult;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.AnalyzeOutput;
import io.metaroce.analysis.diagnosis.DiagnosisOptions;
import io.metaroce.capture.CaptureException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * {@code analyze} on several captures (files and directories): the files are analyzed in parallel, one per core,
 * and each one's output is exactly what {@code analyze -r} of that file alone prints, written in the order the
 * files were given (a directory's captures sorted by name), never in the order they finish. Each file's output
 * goes to a temporary file until all earlier ones are out, so memory stays that of the analyses. One progress
 * bar counts the bytes of the whole set. Exit code: the worst of the files (2 when a file could not be read or
 * is damaged; the others are still analyzed).
 */
final class AnalyzeMany {
    /** One file's outcome: its output (in a temporary file), its stderr lines before and after it, its exit code. */
    private record Outcome(Path output, List<String> before, List<String> after, int exit) {}

    private AnalyzeMany() {}

    static int run(List<Path> files, AnalysisSettings settings, AnalyzeOutput.Form form, boolean pretty,
                   DiagnosisOptions diagnosis, OutputStream stdout, PrintStream err, ProgressBar bar, int threads) {
        long[] sizes = new long[files.size()];
        long total = 0;
        for (int i = 0; i < files.size(); i++) {
            try {
                sizes[i] = Files.size(files.get(i));
            } catch (IOException e) {
                sizes[i] = 0; // reported by the analysis of that file
            }
            total += sizes[i];
        }
        AtomicLongArray done = new AtomicLongArray(files.size());
        AtomicInteger finished = new AtomicInteger();
        long bytes = total;
        Runnable progress = bar == null ? null : () -> {
            long d = 0;
            for (int i = 0; i < done.length(); i++) d += done.get(i);
            bar.update(d, bytes, finished.get(), files.size());
        };
        int n = Math.max(1, Math.min(threads, files.size()));
        // The passes at once share the heap: each holds that part of the flows it would hold alone.
        io.metaroce.analysis.FlowBudget.passesAtOnce(n);
        ExecutorService pool = Executors.newFixedThreadPool(n, r -> Thread.ofPlatform().name("metaroce-analyze").daemon().unstarted(r));
        List<Future<Outcome>> futures = new ArrayList<>();
        int worst = 0;
        try {
            for (int i = 0; i < files.size(); i++) {
                int k = i;
                futures.add(pool.submit(() -> {
                    try {
                        return analyzeOne(files.get(k), settings, form, pretty, diagnosis, progress == null ? null : position -> {
                            done.set(k, Math.min(position, sizes[k]));
                            progress.run();
                        });
                    } finally {
                        done.set(k, sizes[k]);
                        finished.incrementAndGet();
                        if (progress != null) progress.run();
                    }
                }));
            }
            for (Future<Outcome> f : futures) {
                Outcome o = await(f);
                try {
                    if (bar != null) bar.erase(); // each report starts on a clean line; the bar comes back below it
                    for (String m : o.before()) err.println("metaroce analyze: " + m);
                    err.flush();
                    Files.copy(o.output(), stdout);
                    stdout.flush();
                    for (String m : o.after()) err.println("metaroce analyze: " + m);
                    worst = Math.max(worst, o.exit());
                } finally {
                    Files.deleteIfExists(o.output());
                }
            }
        } catch (ClosedStdout e) {
            return 0; // the reader of our output went away (| head): stop quietly, as for one file
        } catch (IOException e) {
            err.println("metaroce analyze: cannot use a temporary file: " + e.getMessage());
            return 2;
        } finally {
            pool.shutdownNow();
            for (Future<Outcome> f : futures) {
                // The outputs of files not printed (stdout went away, a failure) are removed too.
                if (f.isDone() && !f.isCancelled()) {
                    try {
                        Files.deleteIfExists(f.get().output());
                    } catch (IOException | InterruptedException | ExecutionException e) {
                        // nothing left to remove
                    }
                }
            }
        }
        return worst;
    }

    private static Outcome await(Future<Outcome> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.util.concurrent.CancellationException("analysis interrupted");
        } catch (ExecutionException e) {
            // Out of memory in one file ends the whole run, as it would on one thread.
            if (e.getCause() instanceof Error fatal) throw fatal;
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IOException(e.getCause());
        }
    }

    /** What {@code analyze -r file} prints, into a temporary file, with its messages and exit code. */
    private static Outcome analyzeOne(Path file, AnalysisSettings settings, AnalyzeOutput.Form form, boolean pretty,
                                      DiagnosisOptions diagnosis, java.util.function.LongConsumer progress) throws IOException {
        Path tmp = Files.createTempFile("metaroce-analyze", ".out");
        List<String> before = new ArrayList<>(), messages = new ArrayList<>();
        String warning = TapCheck.warning(file, settings.rocePorts(), settings.tap());
        if (warning != null) before.add(warning);
        int exit = 0;
        try (Writer out = new BufferedWriter(new java.io.OutputStreamWriter(Files.newOutputStream(tmp), StandardCharsets.UTF_8), 1 << 16)) {
            AnalysisResult result = AnalyzeOutput.write(file, settings, form, pretty, out,
                    progress == null ? null : (position, total) -> progress.accept(position), diagnosis);
            Object problems = result.capture().get("capture_problems");
            if (problems instanceof List<?> l && !l.isEmpty()) {
                for (Object p : l) messages.add(file + ": " + p);
                exit = 2;
            }
        } catch (CaptureException e) {
            messages.add(e.getMessage());
            exit = 2;
        } catch (IOException | RuntimeException | Error e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        return new Outcome(tmp, before, messages, exit);
    }
}

package io.metaroce.validate;

import io.metaroce.protocol.Severity;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;

/**
 * A {@code metaroce validate} run: expands directories, validates the captures in parallel on the available
 * cores (reporting progress to a listener: the CLI draws its progress bar), writes the chosen output and the
 * HTML report, and returns the exit code: 0 nothing at or above --fail-on, 1 something was, 2 a file could not
 * be read or is damaged (the others are validated all the same) or the usage was wrong.
 */
public final class Validation {
    public enum Format { text, json, junit, sarif }

    /** What the command line asks for. */
    public static final class Request {
        public List<Path> inputs = new ArrayList<>();
        public Format format = Format.text;
        public Path output;
        public Path report;
        /** null: never fail. */
        public Severity failOn = Severity.ERROR;
        public ValidateSettings settings = ValidateSettings.defaults();
        public int threads;
        /** Receives progress (bytes read of all files, files finished), or null. */
        public ProgressListener progress;
    }

    /** Progress of a run, called from the validating threads (at most every few thousand frames). */
    public interface ProgressListener {
        void progress(long bytesDone, long bytesTotal, int filesDone, int files);

        /** Every file is validated: the output comes next (a progress bar erases itself here). */
        default void done() {}
    }

    private Validation() {}

    /** Capture files: the files given, and under each directory the *.pcap, *.pcapng, *.cap files and their *.gz (sorted). */
    public static List<Path> expand(List<Path> inputs, List<String> problems) {
        List<Path> files = new ArrayList<>();
        for (Path p : inputs) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.walk(p)) {
                    List<Path> found = s.filter(Files::isRegularFile).filter(Validation::isCapture).sorted().toList();
                    if (found.isEmpty()) problems.add(p + ": no capture files (*.pcap, *.pcapng, *.cap, or those .gz) in this directory");
                    files.addAll(found);
                } catch (IOException e) {
                    problems.add(p + ": cannot list: " + e.getMessage());
                }
            } else {
                files.add(p);
            }
        }
        return files;
    }

    /**
     * Whether a file's name says it is a capture (*.pcap, *.pcapng, *.cap, gzip-compressed or not: the readers
     * decompress it): what a directory's walk takes, and what {@code index} (which takes any file that starts like a
     * capture) reports as an error when it is not one.
     */
    public static boolean isCapture(Path p) {
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        if (n.endsWith(".gz")) n = n.substring(0, n.length() - 3);
        return n.endsWith(".pcap") || n.endsWith(".pcapng") || n.endsWith(".cap");
    }

    /** Runs the request; out receives the chosen format unless -o names a file, err the progress and problems. */
    public static int run(Request req, PrintStream out, PrintStream err) {
        List<String> problems = new ArrayList<>();
        List<Path> files = expand(req.inputs, problems);
        for (String p : problems) err.println("metaroce validate: " + p);
        if (files.isEmpty()) {
            err.println("metaroce validate: no capture to validate");
            return 2;
        }
        return report(req, validateAll(files, req, err), !problems.isEmpty(), out, err);
    }

    /**
     * Writes the output and the HTML report of results already made (also those of {@code validate -i}) and
     * returns the exit code.
     */
    public static int report(Request req, List<FileResult> results, boolean inputProblems, PrintStream out, PrintStream err) {
        int code = 0;
        for (FileResult r : results) {
            if (r.error != null) continue;
            if (r.fails(req.failOn)) code = 1;
        }
        boolean unreadable = inputProblems;
        for (FileResult r : results) {
            if (r.error != null) {
                unreadable = true;
                err.println("metaroce validate: " + r.error);
            }
            // A damaged capture was validated only up to the damage: like tshark, that is exit 2, never a pass.
            for (String p : r.problems) {
                unreadable = true;
                err.println("metaroce validate: " + r.path + ": damaged capture: " + p);
            }
        }
        // Each write failure names its file: "cannot write output: No space left on device" was said of -o and of
        // --report alike, so a full disk under the report read as the main output's.
        Path writing = req.output;
        try {
            write(req, results, out);
            writing = req.report;
            if (req.report != null) HtmlReport.write(results, req.settings, req.failOn, req.report);
        } catch (IOException e) {
            String why = e instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
            err.println("metaroce validate: cannot write " + (writing == null ? "output" : writing) + ": " + why);
            return 2;
        }
        return unreadable ? 2 : code;
    }

    private static void write(Request req, List<FileResult> results, PrintStream stdout) throws IOException {
        OutputStream os = req.output == null ? stdout : new BufferedOutputStream(Files.newOutputStream(req.output));
        try {
            switch (req.format) {
                case text -> {
                    PrintStream ps = os instanceof PrintStream p ? p : new PrintStream(os, false, StandardCharsets.UTF_8);
                    Reports.text(results, req.failOn, ps);
                    ps.flush();
                }
                case json -> Reports.json(results, req.settings, os);
                case sarif -> Reports.sarif(results, req.settings, os);
                case junit -> {
                    Writer w = new OutputStreamWriter(os, StandardCharsets.UTF_8);
                    Reports.junit(results, req.settings, req.failOn, w);
                    w.flush();
                }
            }
            os.flush();
        } finally {
            if (req.output != null) os.close();
        }
    }

    /** Validates every file, in parallel, results in the order of the files. */
    public static List<FileResult> validateAll(List<Path> files, Request req, PrintStream err) {
        int threads = req.threads > 0 ? req.threads : Runtime.getRuntime().availableProcessors();
        threads = Math.max(1, Math.min(threads, files.size()));
        // The passes at once share the heap: each holds that part of the flows it would hold alone.
        io.metaroce.analysis.FlowBudget.passesAtOnce(threads);
        boolean plots = req.report != null;
        long[] sizes = new long[files.size()];
        long total = 0;
        for (int i = 0; i < files.size(); i++) {
            try {
                sizes[i] = Files.size(files.get(i));
            } catch (IOException e) {
                sizes[i] = 0;
            }
            total += sizes[i];
        }
        AtomicLongArray done = new AtomicLongArray(files.size());
        AtomicInteger finished = new AtomicInteger();
        long bytesTotal = total;
        ProgressListener listener = req.progress;
        Runnable progress = listener == null ? null : () -> {
            long d = 0;
            for (int i = 0; i < done.length(); i++) d += done.get(i);
            listener.progress(d, bytesTotal, finished.get(), files.size());
        };
        List<FileResult> results = new ArrayList<>();
        if (threads == 1) {
            for (int i = 0; i < files.size(); i++) {
                int k = i;
                results.add(FileValidator.validate(files.get(i), req.settings, plots, b -> {
                    done.set(k, b);
                    if (progress != null) progress.run();
                }));
                finished.incrementAndGet();
            }
        } else {
            ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "metaroce-validate");
                t.setDaemon(true);
                return t;
            });
            try {
                // Results are taken as files finish, so that a failure of one (out of memory) ends the run at once.
                java.util.concurrent.CompletionService<FileResult> cs = new java.util.concurrent.ExecutorCompletionService<>(pool);
                java.util.Map<Future<FileResult>, Integer> index = new java.util.HashMap<>();
                for (int i = 0; i < files.size(); i++) {
                    int k = i;
                    Path f = files.get(i);
                    index.put(cs.submit(() -> {
                        FileResult r = FileValidator.validate(f, req.settings, plots, b -> {
                            done.set(k, b);
                            if (progress != null) progress.run();
                        });
                        finished.incrementAndGet();
                        return r;
                    }), i);
                }
                FileResult[] byFile = new FileResult[files.size()];
                for (int n = 0; n < files.size(); n++) {
                    Future<FileResult> f;
                    try {
                        f = cs.take();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.util.concurrent.CancellationException("validation interrupted");
                    }
                    int i = index.get(f);
                    try {
                        byFile[i] = f.get();
                    } catch (ExecutionException e) {
                        // Out of memory or stack in one file ends the whole run (the finally stops the others), as
                        // on one thread; an exception is that file's error.
                        if (e.getCause() instanceof Error fatal) throw fatal;
                        byFile[i] = new FileResult(files.get(i));
                        byFile[i].error = files.get(i) + ": internal error: " + e.getCause();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.util.concurrent.CancellationException("validation interrupted");
                    }
                }
                results.addAll(List.of(byFile));
            } finally {
                pool.shutdownNow();
            }
        }
        if (progress != null) {
            progress.run();
            listener.done();
        }
        return results;
    }
}

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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;

/**
 * A {@code metaroce validate} run: expands directories, validates the captures in parallel on the available
 * cores (a progress bar on stderr when it is a terminal), writes the chosen output and the HTML report, and
 * returns the exit code: 0 nothing at or above --fail-on, 1 something was, 2 a file could not be read (the
 * others are validated all the same) or the usage was wrong.
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
        /** null: decide from whether stderr is a terminal. */
        public Boolean progress;
    }

    private Validation() {}

    /** Capture files: the files given, and under each directory the *.pcap, *.pcapng, *.cap files (sorted). */
    public static List<Path> expand(List<Path> inputs, List<String> problems) {
        List<Path> files = new ArrayList<>();
        for (Path p : inputs) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.walk(p)) {
                    List<Path> found = s.filter(Files::isRegularFile).filter(Validation::isCapture).sorted().toList();
                    if (found.isEmpty()) problems.add(p + ": no capture files (*.pcap, *.pcapng, *.cap) in this directory");
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

    static boolean isCapture(Path p) {
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return n.endsWith(".pcap") || n.endsWith(".pcapng") || n.endsWith(".cap") || n.endsWith(".pcap.gz") && false;
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
        }
        try {
            write(req, results, out);
            if (req.report != null) HtmlReport.write(results, req.settings, req.failOn, req.report);
        } catch (IOException e) {
            err.println("metaroce validate: cannot write output: " + e.getMessage());
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
        boolean plots = req.report != null;
        boolean bar = req.progress != null ? req.progress : Terminal.stderrIsTerminal();
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
        Progress progress = bar ? new Progress(err, total, files.size(), done, finished) : null;
        List<FileResult> results = new ArrayList<>();
        if (threads == 1) {
            for (int i = 0; i < files.size(); i++) {
                int k = i;
                results.add(FileValidator.validate(files.get(i), req.settings, plots, b -> {
                    done.set(k, b);
                    if (progress != null) progress.tick();
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
                List<Future<FileResult>> fs = new ArrayList<>();
                for (int i = 0; i < files.size(); i++) {
                    int k = i;
                    Path f = files.get(i);
                    fs.add(pool.submit(() -> {
                        FileResult r = FileValidator.validate(f, req.settings, plots, b -> {
                            done.set(k, b);
                            if (progress != null) progress.tick();
                        });
                        finished.incrementAndGet();
                        return r;
                    }));
                }
                for (int i = 0; i < fs.size(); i++) {
                    try {
                        results.add(fs.get(i).get());
                    } catch (Exception e) {
                        FileResult r = new FileResult(files.get(i));
                        r.error = files.get(i) + ": internal error: " + e;
                        results.add(r);
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }
        if (progress != null) progress.end();
        return results;
    }

    /** A one-line progress bar redrawn in place on a terminal (at most 10 times a second). */
    static final class Progress {
        private final PrintStream err;
        private final long total;
        private final int files;
        private final AtomicLongArray done;
        private final AtomicInteger finished;
        private volatile long last;

        Progress(PrintStream err, long total, int files, AtomicLongArray done, AtomicInteger finished) {
            this.err = err;
            this.total = Math.max(1, total);
            this.files = files;
            this.done = done;
            this.finished = finished;
        }

        void tick() {
            long now = System.nanoTime();
            if (now - last < 100_000_000L) return;
            last = now;
            draw();
        }

        synchronized void draw() {
            long d = 0;
            for (int i = 0; i < done.length(); i++) d += done.get(i);
            double frac = Math.min(1, (double) d / total);
            int width = 30, fill = (int) Math.round(frac * width);
            err.print(String.format(Locale.ROOT, "\r[%s%s] %3.0f%%  %d/%d files  %s", "#".repeat(fill), ".".repeat(width - fill),
                    frac * 100, finished.get(), files, size(d)));
            err.flush();
        }

        synchronized void end() {
            draw();
            err.print("\r" + " ".repeat(70) + "\r");
            err.flush();
        }

        private static String size(long b) {
            return b >= 1 << 30 ? String.format(Locale.ROOT, "%.1f GiB", b / (double) (1 << 30))
                    : b >= 1 << 20 ? String.format(Locale.ROOT, "%.1f MiB", b / (double) (1 << 20))
                    : String.format(Locale.ROOT, "%.0f KiB", b / 1024.0);
        }
    }

    /** Whether stderr is a terminal (Linux: /proc/self/fd/2 points to a tty; elsewhere: System.console()). */
    static final class Terminal {
        static boolean stderrIsTerminal() {
            if (System.getenv("CI") != null && System.getenv("METAROCE_PROGRESS") == null) return false;
            try {
                Path fd = Path.of("/proc/self/fd/2");
                if (Files.exists(fd)) {
                    String t = Files.readSymbolicLink(fd).toString();
                    return t.startsWith("/dev/pts/") || t.startsWith("/dev/tty");
                }
            } catch (IOException | UnsupportedOperationException | SecurityException e) {
                // fall through
            }
            java.io.Console c = System.console();
            return c != null && c.isTerminal();
        }
    }
}

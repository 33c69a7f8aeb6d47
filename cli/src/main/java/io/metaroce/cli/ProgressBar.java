package io.metaroce.cli;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The one progress bar of every long command (dissect -q, analyze, validate, simulate): one line on stderr,
 * redrawn in place at most ten times a second, erased at the end, and only when stderr is a terminal (a pipe,
 * a file or CI logs never see it). {@code [#########.....]  45%  469.2 MiB of 1.0 GiB  2/5 files}; without a
 * known total (simulate) it shows what was done so far.
 */
final class ProgressBar implements AutoCloseable {
    private static final int WIDTH = 30;
    private final PrintStream err;
    private final String label;
    private long last;
    private int drawn;
    private boolean finished;

    private ProgressBar(PrintStream err, String label) {
        this.err = err;
        this.label = label;
    }

    /** A bar when stderr is a terminal (or forced on/off with a non-null flag), else null. */
    static ProgressBar open(String label, Boolean force) {
        boolean on = force != null ? force : Terminal.stderrIsTerminal();
        return on ? new ProgressBar(System.err, label) : null;
    }

    /**
     * Bytes done of total (total <= 0: unknown); rate-limited, so it may be called per batch. Reaching the total
     * erases the bar, so that a report printed next starts on a clean line.
     */
    synchronized void update(long done, long total) { update(done, total, -1, -1); }

    /** As {@link #update(long, long)}, with files done of files (validate). */
    synchronized void update(long done, long total, int filesDone, int files) {
        if (finished) return;
        if (total > 0 && done >= total && (files < 0 || filesDone >= files)) {
            close();
            return;
        }
        long now = System.nanoTime();
        if (drawn > 0 && now - last < 100_000_000L) return;
        last = now;
        StringBuilder b = new StringBuilder("\r").append(label).append(' ');
        if (total > 0) {
            double frac = Math.min(1, Math.max(0, (double) done / total));
            int fill = (int) Math.round(frac * WIDTH);
            b.append('[').append("#".repeat(fill)).append(".".repeat(WIDTH - fill)).append(']')
                    .append(String.format(Locale.ROOT, " %3.0f%%  %s of %s", frac * 100, size(done), size(total)));
        } else {
            b.append(size(done));
        }
        if (files > 0) b.append("  ").append(filesDone).append('/').append(files).append(" files");
        int len = b.length() - 1;
        if (len < drawn) b.append(" ".repeat(drawn - len));
        drawn = Math.max(drawn, len);
        err.print(b);
        err.flush();
    }

    /** Erases the bar for output that goes to the same terminal; the next update draws it again below that output. */
    synchronized void erase() {
        if (drawn == 0) return;
        err.print("\r" + " ".repeat(drawn) + "\r");
        err.flush();
        drawn = 0;
    }

    /** Erases the bar, so what follows on the terminal starts on a clean line. */
    @Override
    public synchronized void close() {
        finished = true;
        if (drawn == 0) return;
        err.print("\r" + " ".repeat(drawn) + "\r");
        err.flush();
        drawn = 0;
    }

    static String size(long b) {
        return b >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GiB", b / (double) (1L << 30))
                : b >= 1 << 20 ? String.format(Locale.ROOT, "%.1f MiB", b / (double) (1 << 20))
                : String.format(Locale.ROOT, "%.0f KiB", b / 1024.0);
    }
}

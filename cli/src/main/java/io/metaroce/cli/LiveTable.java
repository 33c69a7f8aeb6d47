package io.metaroce.cli;

import io.metaroce.analysis.LiveAnalyzer;
import io.metaroce.analysis.LiveSnapshot;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The per-QP table {@code analyze -i} redraws in place on a terminal once a second (the full report still comes
 * at the end). The counters come from {@link LiveAnalyzer.Monitor#snapshot()}, copied under the analysis's lock,
 * so this thread never reads the engine while the analysis writes it. The table carries the capture's status
 * line, which {@link LiveSession} then leaves to it. Rendering ({@link #render}) is pure, for tests.
 */
final class LiveTable implements AutoCloseable {
    /** Flows shown, the busiest first: a taller table would scroll and could no longer be redrawn in place. */
    static final int MAX_FLOWS = 20;
    private static final int ID_WIDTH = 40;

    private final PrintStream err;
    private final LiveAnalyzer.Monitor monitor;
    private final Supplier<String> status;
    private final int width;
    private final Thread thread;
    private int drawn; // lines on the screen now; guarded by this
    private boolean closed;

    private LiveTable(PrintStream err, LiveAnalyzer.Monitor monitor, Supplier<String> status, int width) {
        this.err = err;
        this.monitor = monitor;
        this.status = status;
        this.width = width;
        this.thread = Thread.ofPlatform().name("metaroce-table").daemon().start(this::loop);
    }

    /** Starts redrawing every second on {@code err}, fitted to {@code width} columns. */
    static LiveTable start(PrintStream err, LiveAnalyzer.Monitor monitor, Supplier<String> status, int width) {
        return new LiveTable(err, monitor, status, width);
    }

    private void loop() {
        while (true) {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
            LiveSnapshot s = monitor.snapshot();
            draw(render(s, status.get(), width, MAX_FLOWS));
        }
    }

    private synchronized void draw(List<String> lines) {
        if (closed) return;
        StringBuilder b = new StringBuilder();
        if (drawn > 0) b.append("\033[").append(drawn).append('A'); // back to the table's first line
        b.append('\r');
        for (String l : lines) b.append(l).append("\033[K\n");
        b.append("\033[J"); // a shorter table than the last one: clear what was below
        err.print(b);
        err.flush();
        drawn = lines.size();
    }

    /** Stops and erases the table, so that the report and the closing lines start on a clean screen. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        thread.interrupt();
        if (drawn > 0) {
            err.print("\033[" + drawn + "A\r\033[J");
            err.flush();
        }
        drawn = 0;
    }

    /**
     * The table: the status line, what was analyzed, a header, one row per flow (the {@value #MAX_FLOWS} busiest) with packets,
     * retransmissions, NAKs, CNPs, CE marks, network losses and, for MetaRoCE, the loss rate of each path; every
     * line cut to {@code width - 1} columns, ending in '>' when cut (as {@link FitWidth}), so that no line wraps
     * and the redraw stays in place.
     */
    static List<String> render(LiveSnapshot s, String status, int width, int maxFlows) {
        List<String> out = new ArrayList<>();
        out.add(status); // two lines: one would not fit 80 columns
        out.add("analyzed " + s.frames() + " frames, " + s.flows().size() + " QP flow" + (s.flows().size() == 1 ? "" : "s"));
        int idw = 4;
        for (LiveSnapshot.Row r : s.flows()) idw = Math.max(idw, Math.min(ID_WIDTH, r.id().length()));
        String fmt = "%-" + idw + "s %9s %7s %6s %6s %6s %6s  %s";
        out.add(String.format(Locale.ROOT, fmt, "FLOW", "PACKETS", "RETX", "NAKS", "CNPS", "CE", "LOST", "PATH LOSS"));
        List<LiveSnapshot.Row> rows = new ArrayList<>(s.flows());
        rows.sort(Comparator.comparingLong(LiveSnapshot.Row::packets).reversed()); // stable: ties keep their order
        for (LiveSnapshot.Row r : rows.subList(0, Math.min(maxFlows, rows.size()))) {
            String id = r.id().length() > idw ? r.id().substring(0, idw - 1) + "~" : r.id();
            out.add(String.format(Locale.ROOT, fmt, id, r.packets(), r.retransmitted(), r.naks(), r.cnps(), r.ceMarks(),
                    r.networkLosses(), pathLoss(r.paths())).stripTrailing());
        }
        if (rows.size() > maxFlows) out.add("... " + (rows.size() - maxFlows) + " more flows (all of them in the report at the end)");
        if (width > 1) out.replaceAll(l -> l.length() >= width ? l.substring(0, width - 2) + ">" : l);
        return out;
    }

    private static String pathLoss(List<LiveSnapshot.PathLoss> paths) {
        StringBuilder b = new StringBuilder();
        for (LiveSnapshot.PathLoss p : paths) {
            if (b.length() > 0) b.append(' ');
            b.append('p').append(p.path()).append(' ').append(String.format(Locale.ROOT, "%.1f%%", p.rate() * 100));
        }
        return b.toString();
    }
}

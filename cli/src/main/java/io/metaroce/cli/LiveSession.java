package io.metaroce.cli;

import io.metaroce.capture.live.InterfaceCounters;
import io.metaroce.capture.live.LiveCapture;
import io.metaroce.capture.live.LiveCaptureException;
import io.metaroce.capture.live.LiveSettings;
import java.io.PrintStream;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * A running live capture for one command: opens it from {@link LiveOptions} (each start-up failure is one
 * line, exit 2), ends it on Ctrl-C/SIGTERM and at -a duration, and shows the status line on a terminal
 * (captured, kernel drops, interface drops, our drops, all exact). The command itself consumes the frames.
 */
final class LiveSession implements AutoCloseable {
    /** Stop conditions of -a. */
    record Autostop(long durationNanos, long fileKB, int files) {
        /** The checks and words are the capture module's, shared with the GUI's Capture Options. */
        static Autostop parse(List<String> specs) {
            io.metaroce.capture.live.CaptureLimits.Autostop a = io.metaroce.capture.live.CaptureLimits.autostop(specs);
            return new Autostop(a.durationNanos(), a.fileKB(), a.files());
        }
    }

    private final String command;
    private final LiveCapture capture;
    private final PrintStream err;
    private final boolean status;
    private final Thread ticker;
    private volatile boolean closed;
    /** Set when a live table shows the status line itself ({@code analyze -i} on a terminal). */
    private volatile boolean statusInTable;
    private final long startNanos = System.nanoTime();

    private LiveSession(String command, LiveCapture capture, PrintStream err, boolean status, long durationNanos) {
        this.command = command;
        this.capture = capture;
        this.err = err;
        this.status = status;
        Signals.onStop(() -> capture.stop("interrupted"));
        this.ticker = Thread.ofPlatform().name("metaroce-status").daemon().start(() -> tick(durationNanos));
    }

    /**
     * Opens and starts the capture, or prints one line and returns null (the caller exits with 2).
     *
     * @param extraPorts -d ports added to the default filter
     */
    static LiveSession start(String command, LiveOptions o, Collection<Integer> extraPorts, long packetLimit,
                             long durationNanos, PrintStream err) {
        LiveSettings s;
        try {
            String filter = o.captureFilter != null ? o.captureFilter : LiveSettings.roceFilter(extraPorts);
            s = new LiveSettings(o.interfaces, filter, o.snapLength, o.bufferMiB, !o.noPromiscuous, o.immediate, o.queue, packetLimit);
        } catch (IllegalArgumentException e) {
            err.println("metaroce " + command + ": " + e.getMessage());
            return null;
        }
        LiveCapture c;
        try {
            c = LiveCapture.open(s);
        } catch (LiveCaptureException e) {
            err.println("metaroce " + command + ": " + e.getMessage() + hint(e));
            return null;
        }
        c.start();
        // dumpcap's line: scripts and tests wait for it before sending traffic.
        err.println("Capturing on " + String.join(", ", o.interfaces.stream().map(n -> "'" + n + "'").toList()));
        err.flush();
        return new LiveSession(command, c, err, Terminal.stderrIsTerminal(), durationNanos);
    }

    private static String hint(LiveCaptureException e) {
        if (e.kind() != LiveCaptureException.Kind.PERMISSION) return "";
        String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        return "; run as root or grant the capabilities: sudo setcap cap_net_raw,cap_net_admin=eip " + java;
    }

    LiveCapture capture() {
        return capture;
    }

    private void tick(long durationNanos) {
        while (!closed && !capture.ended()) {
            try {
                Thread.sleep(durationNanos > 0 ? Math.min(200, Math.max(1, durationNanos / 1_000_000)) : 200);
            } catch (InterruptedException e) {
                return;
            }
            long elapsed = System.nanoTime() - startNanos;
            if (durationNanos > 0 && elapsed >= durationNanos) capture.stop("duration");
            if (status && elapsed / 1_000_000_000L != (elapsed - 200_000_000L) / 1_000_000_000L) printStatus();
        }
    }

    /** Whether the status line is drawn on stderr (a terminal, or forced with METAROCE_PROGRESS). */
    boolean statusShown() {
        return status;
    }

    /** Leaves the status line to a table that shows it ({@link LiveTable}); the closing line is still ours. */
    void statusInTable() {
        statusInTable = true;
    }

    private synchronized void printStatus() {
        if (closed || statusInTable) return;
        err.print("\r" + statusLine(capture.totals()) + "   ");
        err.flush();
    }

    /** Prints a line as it happens (a finding) without mixing it into the status line drawn on the terminal. */
    synchronized void println(PrintStream to, String line) {
        if (status && !closed) err.print("\r\033[K"); // the next tick draws the status line again
        err.flush();
        to.println(line);
        to.flush();
    }

    static String statusLine(InterfaceCounters t) {
        return String.format(Locale.ROOT, "captured %d, kernel drops %d, interface drops %d, our drops %d",
                t.delivered(), t.osDropped(), t.ifDropped(), t.ourDropped());
    }

    /** The closing lines on stderr: per interface what libpcap and we counted, and why the capture ended. */
    void summary() {
        for (int i = 0; i < capture.interfaceCount(); i++) {
            InterfaceCounters c = capture.counters(i);
            err.println(String.format(Locale.ROOT, "%s: received %d, captured %d, dropped by kernel %d, by interface %d, by metaroce %d",
                    capture.interfaceName(i), c.received(), c.delivered(), c.osDropped(), c.ifDropped(), c.ourDropped()));
        }
        if (capture.ourDropped() > 0) {
            err.println("metaroce " + command + ": " + capture.ourDropped()
                    + " frames dropped because processing fell behind the capture (--queue, or a faster output)");
        }
        if (capture.error() != null) err.println("metaroce " + command + ": " + capture.error());
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        ticker.interrupt();
        capture.close();
        if (status) {
            err.print("\r" + statusLine(capture.totals()) + "\n");
            err.flush();
        }
        Signals.reset();
    }
}

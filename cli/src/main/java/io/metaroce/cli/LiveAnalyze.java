package io.metaroce.cli;

import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.AnalyzeOutput;
import io.metaroce.analysis.LiveAnalyzer;
import io.metaroce.capture.live.LivePacketSource;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * {@code analyze -i}: the analysis of {@code analyze -r} over a live capture (only the frame source differs).
 * Events go out as they are decided with {@code --events jsonl} (one line, flushed, per event); the report
 * comes when the capture ends (Ctrl-C, SIGTERM, -c, -a duration). On a terminal a {@link LiveTable} of the QP
 * flows is redrawn on stderr every second until then (never with -T json, nor with --events jsonl going to the
 * same terminal, where the events would tear it).
 */
final class LiveAnalyze {
    private LiveAnalyze() {}

    static int run(LiveOptions live, AnalysisSettings settings, AnalyzeOutput.Form form, boolean pretty, long count,
                   PrintWriter errWriter) throws IOException {
        java.io.PrintStream err = System.err;
        LiveSession.Autostop stop;
        try {
            stop = LiveSession.Autostop.parse(live.autostop);
        } catch (IllegalArgumentException e) {
            err.println("metaroce analyze: " + e.getMessage());
            return 2;
        }
        if (count < 0) {
            err.println("metaroce analyze: -c must not be negative");
            return 2;
        }
        errWriter.flush();
        LiveWarmup.run(settings, form); // before the capture opens: frames would wait in the kernel ring meanwhile
        LiveSession session = LiveSession.start("analyze", live, settings.rocePorts(), count, stop.durationNanos(), err);
        if (session == null) return 2;
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        Writer target = form == AnalyzeOutput.Form.EVENTS_JSONL ? new LineFlushingWriter(out) : out;
        boolean tabled = session.statusShown() && form != AnalyzeOutput.Form.JSON
                && !(form == AnalyzeOutput.Form.EVENTS_JSONL && Terminal.stdoutIsTerminal());
        LiveAnalyzer.Monitor monitor = tabled ? new LiveAnalyzer.Monitor() : null;
        LiveTable table = null;
        if (tabled) {
            session.statusInTable();
            table = LiveTable.start(err, monitor, () -> LiveSession.statusLine(session.capture().totals()),
                    Terminal.columns() > 0 ? Terminal.columns() : 80);
            if (form == AnalyzeOutput.Form.TEXT) target = new TableFirst(target, table);
        }
        try (LivePacketSource src = new LivePacketSource(session.capture())) {
            AnalyzeOutput.write(src, String.join(",", live.interfaces), settings, form, pretty, target, monitor);
        } finally {
            if (table != null) table.close();
            session.close();
            out.flush();
            session.summary();
        }
        return session.capture().error() != null ? 2 : 0;
    }

    /** Erases the table before the first output of the text report, which comes once the capture has ended. */
    private static final class TableFirst extends Writer {
        private final Writer out;
        private final LiveTable table;

        TableFirst(Writer out, LiveTable table) {
            this.out = out;
            this.table = table;
        }

        @Override
        public void write(char[] cbuf, int off, int len) throws IOException {
            table.close();
            out.write(cbuf, off, len);
        }

        @Override
        public void write(String s, int off, int len) throws IOException {
            table.close();
            out.write(s, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    /** Flushes at every line end, so that each event reaches a pipe as soon as it is decided. */
    private static final class LineFlushingWriter extends Writer {
        private final Writer out;

        LineFlushingWriter(Writer out) {
            this.out = out;
        }

        @Override
        public void write(char[] cbuf, int off, int len) throws IOException {
            out.write(cbuf, off, len);
            if (len > 0 && cbuf[off + len - 1] == '\n') out.flush();
        }

        @Override
        public Writer append(char c) throws IOException {
            out.write(c);
            if (c == '\n') out.flush();
            return this;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}

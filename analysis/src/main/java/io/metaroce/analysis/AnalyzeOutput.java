package io.metaroce.analysis;

import io.metaroce.analysis.diagnosis.Diagnoser;
import io.metaroce.analysis.diagnosis.Diagnosis;
import io.metaroce.analysis.diagnosis.DiagnosisOptions;
import io.metaroce.capture.CaptureException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * What {@code metaroce analyze} prints, so the command stays a thin option parser: the JSON report
 * ({@code -T json}), the tshark-style tables ({@code -T text}) or the event stream ({@code --events jsonl}).
 */
public final class AnalyzeOutput {
    /** Output forms. */
    public enum Form { JSON, TEXT, EVENTS_JSONL }

    private AnalyzeOutput() {}

    /**
     * Analyzes a capture file and writes the chosen form to out (flushed at the end; for the event stream also
     * as events come, through the Appendable's own buffering).
     *
     * @param pretty JSON indented for reading (else one line)
     * @return the analysis result (for callers that want more than the output)
     */
    public static AnalysisResult write(Path file, AnalysisSettings settings, Form form, boolean pretty, Appendable out)
            throws CaptureException, IOException {
        return write(file, settings, form, pretty, out, null);
    }

    /** As {@link #write(Path, AnalysisSettings, Form, boolean, Appendable)}, reporting progress (or null). */
    public static AnalysisResult write(Path file, AnalysisSettings settings, Form form, boolean pretty, Appendable out,
                                       Analyzer.Progress progress) throws CaptureException, IOException {
        return write(file, settings, form, pretty, out, progress, DiagnosisOptions.DEFAULT);
    }

    /**
     * As {@link #write(Path, AnalysisSettings, Form, boolean, Appendable, Analyzer.Progress)}, with the diagnosis
     * asked as given (JSON {@code diagnosis}, text section "Diagnosis"; not in the event stream).
     */
    public static AnalysisResult write(Path file, AnalysisSettings settings, Form form, boolean pretty, Appendable out,
                                       Analyzer.Progress progress, DiagnosisOptions diagnosis) throws CaptureException, IOException {
        return write(file, settings, form, pretty, out, progress, diagnosis, Map.of());
    }

    /**
     * As {@link #write(Path, AnalysisSettings, Form, boolean, Appendable, Analyzer.Progress, DiagnosisOptions)}, with
     * host names (address text to name, analyze -H): a Hosts column in the text's QP Conversations, src_name and
     * dst_name in the JSON flows.
     */
    public static AnalysisResult write(Path file, AnalysisSettings settings, Form form, boolean pretty, Appendable out,
                                       Analyzer.Progress progress, DiagnosisOptions diagnosis, Map<String, String> hostNames)
            throws CaptureException, IOException {
        // The loss timeline sees the frames through the diagnoser (validate's diagnoser has none).
        LossTimeline t = form == Form.EVENTS_JSONL ? null : new LossTimeline();
        Diagnoser d = t == null ? null : new Diagnoser(diagnosis.atNs()).withTimeline(t)
                .withFlowControl(settings.linkSpeedGbps(), diagnosis.pfcWatchdogNs());
        return write(listener -> session(settings, progress).onEvent(listener).onFrame(d).run(file), form, pretty, out,
                d == null ? null : r -> diagnosis.apply(d.congestionLoop(r.congestionLoop()).steps(r.steps()).recovery(r.recovery()).finish()), t,
                hostNames);
    }

    /**
     * {@code analyze --messages}: one line per message of the request streams as it is decided (text: aligned
     * columns under a header; jsonl: one JSON object per line), nothing else. Memory is per open message of the
     * live QPs ({@link MessageTracker}), never per message printed.
     *
     * @param qp only messages of this QP, either direction (-1: all)
     * @param peer only messages of flows to or from this address (null: all)
     */
    public static AnalysisResult messages(Path file, AnalysisSettings settings, boolean jsonl, Appendable out,
                                          Analyzer.Progress progress, int qp, String peer) throws CaptureException, IOException {
        if (!jsonl) out.append(RdmaMessage.TEXT_HEADER).append('\n');
        final StringBuilder line = new StringBuilder(256);
        RdmaMessage.Listener l = new RdmaMessage.Listener() {
            @Override
            public void message(RdmaMessage m) {
                if (!m.matches(qp, peer)) return;
                try {
                    if (jsonl) {
                        out.append(m.toJson()).append('\n');
                    } else {
                        line.setLength(0);
                        m.appendText(line);
                        out.append(line);
                    }
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            }
        };
        try {
            return session(settings, progress).onMessage(l).run(file);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** As {@link #write(Path, AnalysisSettings, Form, boolean, Appendable)}, over a live source ({@link LiveAnalyzer}). */
    public static AnalysisResult write(io.metaroce.capture.PacketSource src, String name, AnalysisSettings settings, Form form,
                                       boolean pretty, Appendable out) throws IOException {
        return write(src, name, settings, form, pretty, out, null);
    }

    /** As {@link #write(io.metaroce.capture.PacketSource, String, AnalysisSettings, Form, boolean, Appendable)}, readable
     * while it runs through {@code monitor} (or null). */
    public static AnalysisResult write(io.metaroce.capture.PacketSource src, String name, AnalysisSettings settings, Form form,
                                       boolean pretty, Appendable out, LiveAnalyzer.Monitor monitor) throws IOException {
        // The same diagnosis as for a file, so analyze -i and analyze -r of what it captured print the same.
        LossTimeline t = form == Form.EVENTS_JSONL ? null : new LossTimeline();
        Diagnoser d = t == null ? null : new Diagnoser(null).withTimeline(t)
                .withFlowControl(settings.linkSpeedGbps(), Diagnoser.DEFAULT_PFC_WATCHDOG_NS);
        try {
            return write(listener -> LiveAnalyzer.analyze(src, name, settings, false, listener, monitor, d), form, pretty, out,
                    d == null ? null : r -> d.congestionLoop(r.congestionLoop()).steps(r.steps()).recovery(r.recovery()).finish(), t, Map.of());
        } catch (CaptureException e) {
            throw new IllegalStateException(e); // a live source throws no CaptureException
        }
    }

    /** One analysis run, given where its events go. */
    private interface Run {
        AnalysisResult run(AnalysisEngine.EventListener listener) throws CaptureException;
    }

    private static AnalysisResult write(Run run, Form form, boolean pretty, Appendable out) throws CaptureException, IOException {
        return write(run, form, pretty, out, null, null, Map.of());
    }

    /**
     * diagnosis: the diagnosis after the run, given its result (the congestion loop's verdicts), or null for none; timeline: the loss timeline the run's frames go to
     * (through the diagnoser, {@link Diagnoser#withTimeline}), fed the events here, or null for none.
     */
    private static AnalysisResult write(Run run, Form form, boolean pretty, Appendable out,
                                        java.util.function.Function<AnalysisResult, Diagnosis> diagnosis, LossTimeline timeline,
                                        Map<String, String> hostNames) throws CaptureException, IOException {
        try {
            if (form == Form.EVENTS_JSONL) {
                return run.run(e -> {
                    try {
                        out.append(e.toJson()).append('\n');
                    } catch (IOException x) {
                        throw new UncheckedIOException(x);
                    }
                });
            }
            // The events are buffered as JSON text (spilled to a file when many), not kept as objects: analyze
            // stays bounded by the QPs, not the events.
            try (Reports.EventBuffer events = new Reports.EventBuffer(form == Form.JSON)) {
                AnalysisResult r = run.run(timeline == null ? events : e -> {
                    events.event(e);
                    timeline.event(e);
                });
                Diagnosis d = diagnosis == null ? null : diagnosis.apply(r);
                if (form == Form.JSON) {
                    // Built in order (Map.of's order changes from JVM to JVM).
                    java.util.Map<String, Object> more = new java.util.LinkedHashMap<>();
                    if (timeline != null) more.put("loss_timeline", timeline.toJsonMap());
                    // Only when the capture held CE marks or CNPs: every other report stays as it was.
                    if (r.congestionLoop() != null) more.put("congestion_loop", r.congestionLoop());
                    // Only when the capture's RC messages come in periodic bursts.
                    if (r.steps() != null) more.put("steps", r.steps());
                    // Only when a RoCEv2 sender got a NAK sequence error or went back on a timeout.
                    if (r.recovery() != null) more.put("recovery", r.recovery());
                    if (d != null) more.put("diagnosis", d.toJsonMap());
                    Reports.json(r, events, more, hostNames, out, pretty);
                } else {
                    Reports.text(r, events, hostNames, out);
                    if (timeline != null) timeline.appendText(out);
                    r.appendCongestionLoop(out);
                    r.appendSteps(out);
                    r.appendRecovery(out);
                    if (d != null) d.appendText(out);
                }
                return r;
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static AnalysisSession session(AnalysisSettings settings, Analyzer.Progress progress) {
        AnalysisSession s = new AnalysisSession(settings, AnalysisSession.Options.RESULTS);
        if (progress != null) s.onProgress((position, total, frames) -> progress.progress(position, total));
        return s;
    }
}

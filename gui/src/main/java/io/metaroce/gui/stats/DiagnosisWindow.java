package io.metaroce.gui.stats;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.diagnosis.Diagnosis;
import io.metaroce.analysis.diagnosis.Diagnoser;
import io.metaroce.analysis.diagnosis.DiagnosisOptions;
import io.metaroce.analysis.diagnosis.Finding;
import io.metaroce.analysis.diagnosis.NcclWarning;
import io.metaroce.analysis.diagnosis.HangSnapshot;
import io.metaroce.capture.CaptureException;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import io.metaroce.gui.OpenCapture;
import io.metaroce.gui.TimeFormat;
import io.metaroce.gui.graph.CongestionLoopWindow;
import io.metaroce.gui.graph.LossTimelineView;
import io.metaroce.protocol.Severity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;
import javafx.scene.shape.Rectangle;
import javafx.stage.Stage;

/**
 * Statistics > Diagnosis: what {@code metaroce analyze} concludes (its "Diagnosis", "Loss timeline", "Congestion loop",
 * "Flow control" and "Recovery behaviour" sections) in seven tabs: the findings (severity, diagnosis id, MR-DIAG rule,
 * subject, start, summary) with the selected one's cause, figures and evidence frames; the hang snapshot; the per-QP
 * split of wire and host-idle time; the loss timeline drawn; the congestion loop per QP direction (double-click: its
 * graph); the PAUSE/PFC frames per sender and class with the storms diagnosed on them; where each RoCEv2 sender's
 * resends start after a NAK ({@link RecoveryTab}; double-click: its first NAK answered wrongly). Double-click a
 * finding, a hang row or an evidence link to select the frame in the packet list;
 * "Filter on this QP" shows the subject's frames. The findings are read generically (id, subject, cause, start,
 * summary, evidence, details), so diagnoses added to the analysis later show with no change here.
 *
 * <p>In the Statistics menu beside Expert Info (this GUI's Wireshark-style home of analysis findings); Graphs > Loss
 * Timeline opens the same window on its timeline tab. The diagnosis is a pass of its own over the file
 * ({@link DiagnosisRun}), started once the GUI's analysis is done: on a live capture the window waits for the
 * capture to end and the saved file's analysis, then diagnoses that file.
 */
public final class DiagnosisWindow implements GuiWindow {
    /** The tab the window opens on. */
    private final boolean timeline;

    public DiagnosisWindow() { this(false); }

    private DiagnosisWindow(boolean timeline) { this.timeline = timeline; }

    /** Graphs > Loss Timeline: the same window, on its timeline tab. */
    public static GuiWindow lossTimeline() { return new DiagnosisWindow(true); }

    @Override
    public Place place() { return timeline ? Place.GRAPHS : Place.STATISTICS; }

    @Override
    public String title() { return timeline ? "Loss Timeline" : "Diagnosis"; }

    @Override
    public void open(GuiContext ctx) { open(ctx, timeline); }

    /** The window's parts, for tests and the screenshots. */
    public record View(Stage stage, TabPane tabs, TableView<Finding> findings, TableView<HangSnapshot.Entry> hang,
                       TableView<Map<String, Object>> split, LossTimelineView chart, Label status, Label pattern,
                       TableView<Map<String, Object>> loop, TableView<Map<String, Object>> pauses,
                       AtomicReference<DiagnosisRun> result, TextField nccl, Label lookup, TableView<Map<String, Object>> recovery) {}

    /** The tabs, in order (the Loss Timeline menu item opens the window on {@link #TIMELINE_TAB}). */
    public static final int TIMELINE_TAB = 3, LOOP_TAB = 4, PAUSE_TAB = 5, RECOVERY_TAB = 6;

    public static View open(GuiContext ctx, boolean onTimeline) {
        AtomicReference<DiagnosisRun> result = new AtomicReference<>();
        Label status = new Label();
        status.setId("diagnosis-status");
        status.setPadding(new Insets(4, 8, 4, 8));

        TableView<Finding> findings = new TableView<>();
        findings.setId("diagnosis-findings");
        Label empty = new Label("Diagnosing ...");
        empty.setId("diagnosis-empty");
        findings.setPlaceholder(empty);
        findings.getColumns().add(column("Severity", f -> label(DiagnosisRun.severity(f.rule())), 75));
        findings.getColumns().add(column("Diagnosis", Finding::rule, 190));
        findings.getColumns().add(column("Rule", f -> DiagnosisRun.ruleId(f.rule()), 100));
        findings.getColumns().add(column("Subject", Finding::subject, 230));
        findings.getColumns().add(column("Started", f -> started(ctx, result.get(), f.startedNs()), 130));
        findings.getColumns().add(column("Summary", Finding::summary, 700));
        ctx.timeFormatProperty().addListener((o, a, b) -> findings.refresh());

        VBox details = new VBox(6);
        details.setId("diagnosis-details");
        details.setPadding(new Insets(8));
        ScrollPane detailScroll = new ScrollPane(details);
        detailScroll.setFitToWidth(true);
        SplitPane findingsPane = new SplitPane(findings, detailScroll);
        findingsPane.setOrientation(Orientation.VERTICAL);
        findingsPane.setDividerPositions(0.45);
        findings.getSelectionModel().selectedItemProperty().addListener((o, a, f) -> details(ctx, result.get(), f, details, status));
        findings.setRowFactory(t -> {
            TableRow<Finding> row = new TableRow<>();
            row.setOnMouseClicked(e -> {
                if (e.getClickCount() == 2 && row.getItem() != null && !row.getItem().evidence().isEmpty()) {
                    Windows.select(ctx, primary(row.getItem()), status);
                }
            });
            row.contextMenuProperty().bind(row.itemProperty().map(f -> menu(ctx, result, f.subject(),
                    f.evidence().isEmpty() ? 0 : primary(f), status)));
            return row;
        });

        Label hangTitle = new Label();
        hangTitle.setId("diagnosis-hang-title");
        TableView<HangSnapshot.Entry> hang = new TableView<>();
        hang.setId("diagnosis-hang");
        hang.setPlaceholder(new Label("No QP with unacknowledged requests"));
        hang.getColumns().add(column("QP (requester)", HangSnapshot.Entry::flow, 220));
        hang.getColumns().add(column("Peer", HangSnapshot.Entry::peer, 220));
        hang.getColumns().add(column("Last PSN sent", HangSnapshot.Entry::lastPsnSent, 100));
        hang.getColumns().add(column("Last PSN acked", e -> e.lastPsnAcked() == null ? "none" : e.lastPsnAcked().toString(), 100));
        hang.getColumns().add(column("Outstanding", HangSnapshot.Entry::outstanding, 90));
        hang.getColumns().add(column("Requester silent (us)", e -> String.format("%.1f", e.requesterSilentNs() / 1e3), 130));
        hang.getColumns().add(column("Responder silent (us)", e -> e.responderSilentNs() == null ? "never answered"
                : String.format("%.1f", e.responderSilentNs() / 1e3), 130));
        hang.getColumns().add(column("Last event", HangSnapshot.Entry::lastEvent, 80));
        hang.getColumns().add(column("Quiet first", HangSnapshot.Entry::quietFirst, 80));
        hang.getColumns().add(column("Last request", HangSnapshot.Entry::lastRequestFrame, 90));
        hang.getColumns().add(column("Last answer", HangSnapshot.Entry::lastAnswerFrame, 90));
        hang.setRowFactory(t -> {
            TableRow<HangSnapshot.Entry> row = new TableRow<>();
            row.setOnMouseClicked(e -> {
                if (e.getClickCount() == 2 && row.getItem() != null) Windows.select(ctx, row.getItem().lastRequestFrame(), status);
            });
            row.contextMenuProperty().bind(row.itemProperty().map(h -> menu(ctx, result, h.flow(), h.lastRequestFrame(), status)));
            return row;
        });
        VBox hangPane = new VBox(6, hangTitle, hang);
        hangPane.setPadding(new Insets(6));
        VBox.setVgrow(hang, Priority.ALWAYS);

        TableView<Map<String, Object>> split = new TableView<>();
        split.setId("diagnosis-time-split");
        split.setPlaceholder(new Label("No QP with requests"));
        split.getColumns().add(column("QP", m -> m.get("flow"), 240));
        split.getColumns().add(column("Messages", m -> m.get("messages"), 80));
        split.getColumns().add(column("Span (us)", m -> us(m.get("span_ns")), 100));
        TableColumn<Map<String, Object>, Map<String, Object>> bar = new TableColumn<>("Wire | host idle");
        bar.setPrefWidth(320);
        bar.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(cd.getValue()));
        bar.setCellFactory(c -> new SplitBarCell());
        split.getColumns().add(bar);
        split.getColumns().add(column("Wire (us)", m -> us(m.get("wire_ns")), 90));
        split.getColumns().add(column("Host idle (us)", m -> us(m.get("host_idle_ns")), 100));
        split.getColumns().add(column("NAKs", m -> m.get("naks"), 60));
        split.getColumns().add(column("Resent", m -> m.get("resent_packets"), 60));
        split.getColumns().add(column("CNPs", m -> m.get("cnps"), 60));
        split.setRowFactory(t -> {
            TableRow<Map<String, Object>> row = new TableRow<>();
            row.contextMenuProperty().bind(row.itemProperty().map(m -> menu(ctx, result, String.valueOf(m.get("flow")), 0, status)));
            return row;
        });

        LossTimelineView chart = new LossTimelineView();
        chart.setId("loss-timeline");
        chart.setOnFrame(f -> Windows.select(ctx, f, status));
        Label pattern = new Label();
        pattern.setId("loss-pattern");
        pattern.setWrapText(true);
        pattern.setPadding(new Insets(6, 8, 6, LossTimelineView.LEFT_MARGIN));
        BorderPane chartPane = new BorderPane(chart);
        Button saveChart = io.metaroce.gui.graph.GraphExport.button(chart, "loss-timeline", () -> {
            DiagnosisRun r = chart.run();
            java.util.List<Integer> drawn = chart.rows();
            return r == null ? null : w -> io.metaroce.gui.graph.GraphExport.lossTimeline(r, drawn, w);
        }, status);
        HBox chartBar = new HBox(8, pattern, saveChart);
        chartBar.setAlignment(Pos.CENTER_LEFT);
        HBox.setHgrow(pattern, Priority.ALWAYS);
        pattern.setMaxWidth(Double.MAX_VALUE);
        chartPane.setBottom(chartBar);

        Label loopNotes = new Label();
        loopNotes.setId("diagnosis-loop-notes");
        loopNotes.setWrapText(true);
        TableView<Map<String, Object>> loop = loopTable(ctx, result, status);
        VBox loopPane = new VBox(6, loop, loopNotes);
        loopPane.setPadding(new Insets(6));
        VBox.setVgrow(loop, Priority.ALWAYS);
        Label pauseNotes = new Label();
        pauseNotes.setId("diagnosis-pause-notes");
        pauseNotes.setWrapText(true);
        TableView<Map<String, Object>> pauses = pauseTable(ctx, result, status);
        VBox pausePane = new VBox(6, pauses, pauseNotes);
        pausePane.setPadding(new Insets(6));
        VBox.setVgrow(pauses, Priority.ALWAYS);
        RecoveryTab recovery = new RecoveryTab(ctx, result, status);

        TabPane tabs = new TabPane(new Tab("Findings", findingsPane), new Tab("Hang snapshot", hangPane),
                new Tab("Time split", split), new Tab("Loss timeline", chartPane), new Tab("Congestion loop", loopPane),
                new Tab("Flow control", pausePane), new Tab("Recovery", recovery.pane));
        tabs.setId("diagnosis-tabs");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        if (onTimeline) tabs.getSelectionModel().select(TIMELINE_TAB);
        // The lookup analyze --nccl makes: an NCCL warning pasted narrows findings, hang snapshot and time split to its QPs.
        TextField nccl = new TextField();
        nccl.setId("diagnosis-nccl");
        nccl.setPromptText("paste an NCCL warning (NET/IB : Got completion from peer ... / Got CQE with error ... qp_num=N) or UCX's error CQE lines to see its QPs only");
        Button lookUp = new Button("Look up");
        lookUp.setId("diagnosis-lookup");
        Button showAll = new Button("Show all");
        showAll.setId("diagnosis-show-all");
        showAll.setDisable(true);
        Label lookupText = new Label();
        lookupText.setId("diagnosis-lookup-text");
        lookupText.setWrapText(true);
        // No room taken while there is no lookup: the findings' details keep their height.
        lookupText.managedProperty().bind(lookupText.textProperty().isNotEmpty());
        // Copy follows the tab shown: its table as CSV or YAML (the loss timeline, a chart, has its own Save).
        List<javafx.scene.control.Control> tabTables = java.util.Arrays.asList(findings, hang, split, null, loop, pauses, recovery.table);
        javafx.scene.control.MenuButton copy = TableCopy.button(() -> tabTables.get(tabs.getSelectionModel().getSelectedIndex()), status);
        copy.textProperty().bind(tabs.getSelectionModel().selectedItemProperty()
                .map(t -> "Copy " + t.getText().toLowerCase(java.util.Locale.ROOT)));
        copy.disableProperty().bind(tabs.getSelectionModel().selectedIndexProperty().isEqualTo(TIMELINE_TAB));
        HBox lookupBar = new HBox(6, new Label("NCCL warning:"), nccl, lookUp, showAll, copy);
        lookupBar.setAlignment(Pos.CENTER_LEFT);
        HBox.setHgrow(nccl, Priority.ALWAYS);
        VBox top = new VBox(4, lookupBar, lookupText);
        top.setPadding(new Insets(6, 8, 2, 8));
        BorderPane root = new BorderPane(tabs);
        root.setTop(top);
        root.setBottom(status);
        Stage st = Windows.show(ctx, "diagnosis", "Diagnosis", root, 1300, 680);
        // Shortcut+S saves the loss timeline while its tab shows.
        st.getScene().getAccelerators().put(new javafx.scene.input.KeyCodeCombination(javafx.scene.input.KeyCode.S,
                javafx.scene.input.KeyCombination.SHORTCUT_DOWN), () -> {
            if (tabs.getSelectionModel().getSelectedIndex() == TIMELINE_TAB) saveChart.fire();
        });

        // The selected frame marked on the timeline.
        javafx.beans.value.ChangeListener<Number> sel = (o, a, f) -> {
            OpenCapture c = ctx.capture();
            chart.setSelectedTime(c == null || f.intValue() <= 0 || f.intValue() > c.frames() ? Long.MIN_VALUE
                    : c.index().timeNanos(f.intValue()));
        };
        ctx.selectedFrameProperty().addListener(sel);
        AtomicReference<AnalysisSession> running = new AtomicReference<>();
        st.setOnHidden(e -> {
            ctx.selectedFrameProperty().removeListener(sel);
            AnalysisSession s = running.get();
            if (s != null) s.cancel();
        });

        View view = new View(st, tabs, findings, hang, split, chart, status, pattern, loop, pauses, result, nccl, lookupText, recovery.table);
        lookUp.setOnAction(e -> {
            DiagnosisRun r = result.get();
            if (r == null) {
                status.setText("The diagnosis is not done yet");
                return;
            }
            List<NcclWarning> warnings = NcclWarning.scan(List.of(nccl.getText().split("\\R")));
            if (warnings.isEmpty()) {
                status.setText("Not an NCCL completion warning ('NET/IB : Got completion from peer ...' or 'Got CQE with error ... qp_num=N') nor a UCX error CQE ('(synd 0x15 vend 0x81 ...)')");
                return;
            }
            Diagnosis d = new DiagnosisOptions(null, null, null, Diagnoser.DEFAULT_PFC_WATCHDOG_NS, warnings).apply(r.diagnosis());
            show(ctx, view, r, d, hangTitle, empty);
            lookupText.setText(lookupText(d));
            showAll.setDisable(false);
            tabs.getSelectionModel().select(0);
        });
        nccl.setOnAction(e -> lookUp.fire());
        showAll.setOnAction(e -> {
            DiagnosisRun r = result.get();
            if (r == null) return;
            show(ctx, view, r, r.diagnosis(), hangTitle, empty);
            lookupText.setText("");
            showAll.setDisable(true);
        });
        if (ctx.capture() == null) {
            empty.setText("No capture is open.");
            loop.setPlaceholder(new Label("No capture is open."));
            pauses.setPlaceholder(new Label("No capture is open."));
            recovery.empty("No capture is open.");
            status.setText("No capture is open");
            return view;
        }
        status.setText(ctx.analysis() == null ? "Waiting for the analysis ..." : "Diagnosing ...");
        loop.setPlaceholder(new Label("Diagnosing ..."));
        pauses.setPlaceholder(new Label("Diagnosing ..."));
        whenAnalyzed(ctx, view, running, hangTitle, empty, sel, loopNotes, pauseNotes, recovery);
        // Decode As and Reload open the capture again: it is diagnosed again (the diagnosis still running stops).
        Windows.followRedissections(ctx, status, () -> {
            AnalysisSession s = running.getAndSet(null);
            if (s != null) s.cancel();
            status.setText("Diagnosing ...");
            whenAnalyzed(ctx, view, running, hangTitle, empty, sel, loopNotes, pauseNotes, recovery);
        });
        return view;
    }

    /**
     * Diagnoses the open capture once its analysis is done. A live capture's analysis is cancelled when the capture
     * ends and the saved file's analysis replaces it: then this waits for that one.
     */
    private static void whenAnalyzed(GuiContext ctx, View view, AtomicReference<AnalysisSession> running, Label hangTitle,
                                     Label empty, javafx.beans.value.ChangeListener<Number> sel, Label loopNotes, Label pauseNotes,
                                     RecoveryTab recovery) {
        Stage st = view.stage();
        Label status = view.status();
        var done = ctx.analysisDone();
        done.whenComplete((s, x) -> Platform.runLater(() -> {
            OpenCapture c = ctx.capture();
            if (!st.isShowing()) return;
            if ((x != null || s == null) && ctx.analysisDone() != done) {
                whenAnalyzed(ctx, view, running, hangTitle, empty, sel, loopNotes, pauseNotes, recovery);
                return;
            }
            if (x != null || s == null || c == null) {
                boolean none = c != null && c.frames() == 0;
                empty.setText(none ? "No frames: nothing to diagnose." : "The analysis did not finish: nothing to diagnose.");
                view.loop().setPlaceholder(new Label(empty.getText()));
                view.pauses().setPlaceholder(new Label(empty.getText()));
                recovery.empty(empty.getText());
                status.setText(empty.getText());
                return;
            }
            status.setText("Diagnosing ...");
            Path file = c.file();
            Windows.background(() -> {
                try {
                    return DiagnosisRun.of(file, c.index(), s.settings(), running::set);
                } catch (CaptureException e) {
                    throw new IllegalStateException(e.getMessage(), e);
                }
            }, r -> {
                if (!st.isShowing() || ctx.capture() != c) return;   // a diagnosis of a capture opened again since
                view.result().set(r);
                show(ctx, view, r, r.diagnosis(), hangTitle, empty);
                showLoop(view, r, loopNotes, pauseNotes);
                recovery.show(r);
                sel.changed(null, null, ctx.selectedFrame());
            }, status);
        }));
    }

    /** Each warning with what its status means, then the keys and the QP flows they found (as analyze prints them). */
    static String lookupText(Diagnosis d) {
        StringBuilder b = new StringBuilder();
        for (NcclWarning w : d.nccl()) {
            b.append(w.describe()).append(":\n    ").append(w.meaning()).append('\n');
            if (w.loggedAt() != null) b.append("    ").append(d.logged(w)).append('\n');
        }
        b.append("Lookup ").append(d.lookup()).append(": ")
                .append(d.flows().isEmpty() ? "no QP flow matches" : String.join(", ", d.flows().keySet()));
        return b.toString();
    }

    /** The findings, hang snapshot and time split of d: the whole diagnosis, or a lookup of it. */
    private static void show(GuiContext ctx, View v, DiagnosisRun r, Diagnosis d, Label hangTitle, Label empty) {
        empty.setText(d.lookup() == null ? "No problem found." : "No problem found for these QPs.");
        v.findings().getItems().setAll(d.findings());
        v.hang().getItems().setAll(d.hang().entries());
        hangTitle.setText(String.format("Hang snapshot at %s: %d QP(s) with unacknowledged requests (at the end of the capture)",
                time(ctx, r, d.hang().atNs()), d.hang().entries().size()));
        v.split().getItems().setAll(d.timeSplit());
        v.chart().setRun(r);
        v.pattern().setText(r.pattern());
        v.status().setText((d.findings().isEmpty() ? "No problem found" : d.findings().size() + " finding(s)")
                + (d.framesNotDiagnosed() > 0 ? "; " + d.framesNotDiagnosed() + " frames of QPs beyond the first diagnosed ones were not diagnosed" : "")
                + (d.findings().isEmpty() ? "" : "  (double-click a finding to select its evidence frame)"));
        if (!d.findings().isEmpty()) v.findings().getSelectionModel().selectFirst();
    }

    /** The details pane of a finding: what, cause, start, figures, evidence frames as links, the filter button. */
    private static void details(GuiContext ctx, DiagnosisRun r, Finding f, VBox pane, Label status) {
        pane.getChildren().clear();
        if (f == null || r == null) return;
        String rule = DiagnosisRun.ruleId(f.rule());
        Label title = new Label(f.rule() + (rule == null ? "" : "  (" + rule + ")") + "  " + f.subject());
        title.setStyle("-fx-font-weight: bold");
        Label summary = new Label(f.summary());
        summary.setWrapText(true);
        GridPane grid = new GridPane();
        grid.setHgap(12);
        grid.setVgap(2);
        int row = 0;
        grid.addRow(row++, new Label("Cause"), new Label(f.cause()));
        grid.addRow(row++, new Label("Started"), new Label(f.startedNs() == null ? "(no start)" : started(ctx, r, f.startedNs())));
        for (var e : f.details().entrySet()) grid.addRow(row++, new Label(e.getKey()), new Label(String.valueOf(e.getValue())));
        FlowPane evidence = new FlowPane(4, 2);
        evidence.setId("diagnosis-evidence");
        evidence.getChildren().add(new Label("Evidence frames:"));
        for (long frame : f.evidence()) {
            Hyperlink l = new Hyperlink(Long.toString(frame));
            l.setId("evidence-" + frame);
            l.setOnAction(e -> Windows.select(ctx, frame, status));
            evidence.getChildren().add(l);
        }
        String filter = filterFor(f.subject(), peerOf(r, f.subject()));
        Button filterButton = new Button("Filter on this QP");
        filterButton.setId("diagnosis-filter");
        filterButton.setDisable(filter == null);
        filterButton.setOnAction(e -> applyFilter(ctx, filter, status));
        HBox buttons = new HBox(8, filterButton);
        buttons.setAlignment(Pos.CENTER_LEFT);
        pane.getChildren().addAll(title, summary, grid, evidence, buttons);
    }

    /**
     * The "Congestion loop" tab: analyze's per-flow rows (verdict, CE marks, CNPs expected and seen, CE->CNP delay, CNP
     * gap, bytes and pace cut). Double-click a row: its Congestion Loop graph.
     */
    private static TableView<Map<String, Object>> loopTable(GuiContext ctx, AtomicReference<DiagnosisRun> result, Label status) {
        TableView<Map<String, Object>> t = new TableView<>();
        t.setId("diagnosis-loop");
        t.getColumns().add(column("Flow", m -> m.get("flow"), 230));
        t.getColumns().add(column("View", m -> m.get("view"), 70));
        t.getColumns().add(column("CE", m -> m.get("ce_marks"), 60));
        t.getColumns().add(column("CNP exp", m -> m.get("cnps_expected"), 65));
        t.getColumns().add(column("CNP", m -> m.get("cnps"), 60));
        t.getColumns().add(column("CE->CNP us min/med/max", m -> summary(m.get("ce_to_cnp_ns"), true), 170));
        t.getColumns().add(column("CNP gap us min/med", m -> summary(m.get("cnp_interval_ns"), false), 140));
        t.getColumns().add(column("Rate seen as", m -> m.get("rate_seen_as"), 170));
        t.getColumns().add(column("Bytes cut (CNPs)", m -> m.get("median_cut_pct") == null ? "-"
                : CongestionLoopWindow.pct(m.get("median_cut_pct")) + " (" + m.get("cnps_measured") + ")", 110));
        t.getColumns().add(column("Pace cut med/all", m -> m.get("pace_cut_pct") == null ? "-"
                : CongestionLoopWindow.pct(m.get("pace_median_cut_pct")) + " / " + CongestionLoopWindow.pct(m.get("pace_cut_pct")), 120));
        t.getColumns().add(column("Verdict", m -> m.get("verdict"), 90));
        t.setRowFactory(x -> {
            TableRow<Map<String, Object>> row = new TableRow<>();
            row.setOnMouseClicked(e -> {
                if (e.getClickCount() == 2 && row.getItem() != null) CongestionLoopWindow.open(ctx, (String) row.getItem().get("flow"));
            });
            row.contextMenuProperty().bind(row.itemProperty().map(m -> {
                MenuItem graph = new MenuItem("Graph this flow (Congestion Loop)");
                graph.setOnAction(e -> CongestionLoopWindow.open(ctx, (String) m.get("flow")));
                ContextMenu c = menu(ctx, result, (String) m.get("flow"), firstEvidence(m), status);
                c.getItems().addFirst(graph);
                return c;
            }));
            return row;
        });
        return t;
    }

    /** The "Flow control" tab: analyze's PAUSE/PFC rows per sender and class, with the pause storms diagnosed on each. */
    private static TableView<Map<String, Object>> pauseTable(GuiContext ctx, AtomicReference<DiagnosisRun> result, Label status) {
        TableView<Map<String, Object>> t = new TableView<>();
        t.setId("diagnosis-pauses");
        t.getColumns().add(column("Source", m -> m.get("source"), 150));
        t.getColumns().add(column("Class", m -> m.get("class"), 60));
        t.getColumns().add(column("Stops (flows sent to the source on the class)", m -> stops(result.get(), m), 360));
        t.getColumns().add(column("Frames", m -> m.get("frames"), 70));
        t.getColumns().add(column("XOFF", m -> m.get("xoff"), 70));
        t.getColumns().add(column("XON", m -> m.get("xon"), 60));
        t.getColumns().add(column("Quanta", m -> m.get("quanta"), 90));
        t.getColumns().add(column("First (s)", m -> seconds(result.get(), m.get("first_ns")), 100));
        t.getColumns().add(column("Last (s)", m -> seconds(result.get(), m.get("last_ns")), 100));
        t.getColumns().add(column("Longest run (us)", m -> m.get("longest_run_ns") == null ? "-" : us(m.get("longest_run_ns")), 110));
        t.getColumns().add(column("Paused (%)", m -> percent(m.get("paused_share"), result.get()), 90));
        t.getColumns().add(column("Of span (%)", m -> percent(m.get("paused_share_of_span"), result.get()), 90));
        t.getColumns().add(column("Storms", m -> findings(result.get(), m, "pfc-pause-storm").size(), 60));
        t.getColumns().add(column("Heavy", m -> findings(result.get(), m, "pfc-pause-heavy").isEmpty() ? "" : "yes", 60));
        t.setRowFactory(x -> {
            TableRow<Map<String, Object>> row = new TableRow<>();
            row.setOnMouseClicked(e -> {
                if (e.getClickCount() != 2 || row.getItem() == null) return;
                List<Finding> storms = findings(result.get(), row.getItem(), "pfc-pause-storm");
                if (!storms.isEmpty()) Windows.select(ctx, primary(storms.getFirst()), status);
            });
            return row;
        });
        return t;
    }

    private static final String STOPS = "\nStops: a pause from a source asks the port at the other end of its link to hold "
            + "what it sends to that source on the class (a PAUSE: every class), so it stops the flows whose frames go to the "
            + "source's MAC with that VLAN priority; untagged frames carry no class and are listed under every class.";

    /** The flows a PAUSE/PFC row's pauses stop, in one line ("" before the diagnosis is done). */
    static String stops(DiagnosisRun r, Map<String, Object> row) {
        return r == null || r.pauseTargets() == null ? "" : PauseTargets.text(r.pauseTargets().stoppedBy(row));
    }

    /** The diagnosis' findings of a rule about a PAUSE/PFC row's sender and class (its subject, as the diagnosis names it). */
    static List<Finding> findings(DiagnosisRun r, Map<String, Object> row, String rule) {
        if (r == null) return List.of();
        String subject = row.get("source") + ("link".equals(String.valueOf(row.get("class"))) ? " link" : " priority " + row.get("class"));
        List<Finding> l = new ArrayList<>();
        for (Finding f : r.diagnosis().findings()) if (f.rule().equals(rule) && f.subject().equals(subject)) l.add(f);
        return l;
    }

    private static void showLoop(View v, DiagnosisRun r, Label loopNotes, Label pauseNotes) {
        Map<String, Object> cl = r.congestionLoop();
        v.loop().setPlaceholder(new Label("No CE marks or CNPs in the capture: no congestion loop to judge."));
        v.loop().getItems().setAll(CongestionLoopWindow.ordered(io.metaroce.gui.graph.CongestionSeries.rows(cl)));
        loopNotes.setText(cl == null ? "" : "Bytes cut: the flow's data bytes in " + CongestionLoopWindow.us(cl.get("rate_window_ns"))
                + " us before each CNP against as long after it (median over the CNPs); pace cut: the gaps between its packets "
                + "as a rate (sender tap only). A cut of " + cl.get("min_cut_pct") + "% or more is a drop. Double-click a row "
                + "for its graph.\n" + r.congestionLoopNotes());
        Map<String, Object> fc = r.flowControl();
        v.pauses().setPlaceholder(new Label("No PAUSE or PFC frames in the capture."));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> classes = fc == null ? List.of() : (List<Map<String, Object>>) fc.get("classes");
        v.pauses().getItems().setAll(classes);
        pauseNotes.setText(fc == null ? "" : Boolean.TRUE.equals(fc.get("paused_lower_bound"))
                ? "Link speed unknown (as analyze without --link-speed): paused shares are lower bounds, timed at 400 Gb/s "
                + "(the shortest quantum), and the longest runs are not given. Storms: classes paused without a break for "
                + "the PFC watchdog's detection time; double-click a row with a storm to select its first frame." + STOPS
                : "Storms: classes paused without a break for the PFC watchdog's detection time; double-click a row with a "
                + "storm to select its first frame." + STOPS);
    }

    @SuppressWarnings("unchecked")
    private static String summary(Object o, boolean withMax) {
        if (!(o instanceof Map<?, ?> m)) return "-";
        Map<String, Object> s = (Map<String, Object>) m;
        return CongestionLoopWindow.us(s.get("min")) + " / " + CongestionLoopWindow.us(s.get("median"))
                + (withMax ? " / " + CongestionLoopWindow.us(s.get("max")) : "");
    }

    /** The first evidence frame of a congestion-loop row (its CE mark, else its CNP), 0 for none. */
    static long firstEvidence(Map<String, Object> m) {
        return m.get("evidence_frames") instanceof List<?> l && !l.isEmpty() && l.getFirst() instanceof Number n ? n.longValue() : 0;
    }

    private static String seconds(DiagnosisRun r, Object ns) {
        if (!(ns instanceof Number n) || r == null) return "";
        return String.format(java.util.Locale.ROOT, "%.6f", (n.longValue() - r.firstNs()) / 1e9);
    }

    /** A paused share as analyze prints it: a percentage, ">=" before it when a lower bound (link speed unknown). */
    private static String percent(Object share, DiagnosisRun r) {
        boolean atLeast = r != null && r.flowControl() != null && Boolean.TRUE.equals(r.flowControl().get("paused_lower_bound"));
        return share instanceof Number n ? (atLeast ? ">=" : "") + String.format(java.util.Locale.ROOT, "%.2f", n.doubleValue() * 100) : "-";
    }

    private static ContextMenu menu(GuiContext ctx, AtomicReference<DiagnosisRun> r, String subject, long frame, Label status) {
        MenuItem filter = new MenuItem("Filter on this QP");
        filter.setOnAction(e -> applyFilter(ctx, filterFor(subject, peerOf(r.get(), subject)), status));
        filter.setDisable(filterFor(subject, null) == null);
        MenuItem go = new MenuItem("Go to Frame " + frame);
        go.setOnAction(e -> Windows.select(ctx, frame, status));
        go.setDisable(frame <= 0);
        return new ContextMenu(filter, go);
    }

    private static void applyFilter(GuiContext ctx, String filter, Label status) {
        if (filter == null) return;
        var err = ctx.applyFilter(filter);
        status.setText(err == null ? "Display filter: " + filter : "Filter not applied: " + err.getMessage());
    }

    private static String peerOf(DiagnosisRun r, String subject) {
        return r == null ? null : r.diagnosis().flows().get(subject);
    }

    /**
     * The display filter for a diagnosis' subject: a QP flow id ({@code a>b/0xQPN}) and its paired direction (the
     * answers), a host direction ({@code a>b}) or a host pair ({@code a<>b}); null for another kind of subject.
     */
    static String filterFor(String subject, String peer) {
        if (subject == null || subject.isEmpty()) return null;
        if (subject.contains("/0x")) {
            return "analysis.flow == \"" + subject + "\"" + (peer == null ? "" : " || analysis.flow == \"" + peer + "\"");
        }
        int pair = subject.indexOf("<>");
        if (pair > 0) {
            String a = subject.substring(0, pair), b = subject.substring(pair + 2);
            if (!address(a) || !address(b)) return null;
            String f = a.contains(":") ? "ipv6.addr" : "ip.addr";
            return f + " == " + a + " && " + f + " == " + b;
        }
        int dir = subject.indexOf('>');
        if (dir > 0) {
            String a = subject.substring(0, dir), b = subject.substring(dir + 1);
            if (!address(a) || !address(b)) return null;
            String p = a.contains(":") ? "ipv6" : "ip";
            return p + ".src == " + a + " && " + p + ".dst == " + b;
        }
        return null;
    }

    private static boolean address(String s) {
        return !s.isEmpty() && s.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == '.' || c == ':');
    }

    /** The frame a finding shows at: its first evidence frame past the QP's last answer (as validate anchors it). */
    static long primary(Finding f) {
        Object lastAnswer = f.details().get("last_answer_frame");
        for (long e : f.evidence()) if (!(lastAnswer instanceof Number n && n.longValue() == e)) return e;
        return f.evidence().getFirst();
    }

    private static String started(GuiContext ctx, DiagnosisRun r, Long ns) {
        return ns == null ? "" : time(ctx, r, ns);
    }

    /** A capture time in the packet list's format (the delta format: since the first frame, as it has no previous). */
    private static String time(GuiContext ctx, DiagnosisRun r, long ns) {
        long first = r == null ? ns : r.firstNs();
        TimeFormat tf = ctx.timeFormatProperty().get();
        return tf.format(ns, first, first);
    }

    private static String us(Object ns) {
        return ns instanceof Number n ? String.format("%.1f", n.doubleValue() / 1e3) : "";
    }

    private static String label(Severity s) {
        return s == Severity.ERROR ? "Error" : s == Severity.WARN ? "Warning" : "Note";
    }

    private static <S, T> TableColumn<S, T> column(String name, Function<S, T> f, double w) {
        TableColumn<S, T> c = new TableColumn<>(name);
        c.setPrefWidth(w);
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(cd.getValue() == null ? null : f.apply(cd.getValue())));
        return c;
    }

    /** A QP's lifetime as a bar: the wire share blue, the host-idle share orange, the idle percentage beside it. */
    private static final class SplitBarCell extends TableCell<Map<String, Object>, Map<String, Object>> {
        private final Rectangle wire = new Rectangle(0, 10, Color.web("#1f77b4"));
        private final Rectangle idle = new Rectangle(0, 10, Color.web("#ff7f0e"));
        private final Label text = new Label();
        private final HBox box = new HBox(0, wire, idle);
        private final HBox all = new HBox(8, box, text);

        SplitBarCell() {
            box.setMinWidth(Region.USE_PREF_SIZE);
            all.setAlignment(Pos.CENTER_LEFT);
            box.setAlignment(Pos.CENTER_LEFT);
        }

        @Override
        protected void updateItem(Map<String, Object> m, boolean empty) {
            super.updateItem(m, empty);
            if (empty || m == null) {
                setGraphic(null);
                return;
            }
            double share = m.get("host_idle_share") instanceof Number n ? n.doubleValue() : 0;
            double w = 200;
            wire.setWidth(w * (1 - share));
            idle.setWidth(w * share);
            text.setText(String.format("%.0f%% idle", 100 * share));
            setGraphic(all);
        }
    }
}

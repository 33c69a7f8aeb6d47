package io.metaroce.gui.stats;

import io.metaroce.analysis.AnalysisResult;
import io.metaroce.gui.GuiContext;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The Diagnosis window's "Recovery" tab: analyze's "Recovery behaviour" section, one row per RoCEv2 sending host
 * (where its resends start after a NAK sequence error naming PSN p and after a timeout), the same numbers as
 * {@code analyze -T json}'s {@code recovery}. Double-click a row (or "Go to the NAK"): the first NAK that host
 * answered wrongly is selected in the packet list; "Go to its resend" selects the first resend after it. The row's
 * context menu goes to an example of each kind of wrong answer the host has: its first resend from before a NAK's PSN,
 * from after it, and its first NAK left unanswered until the timer.
 */
final class RecoveryTab {
    /** analyze's header line of the section (what the table shows and what IBTA prescribes). */
    static final String HEADER = io.metaroce.analysis.AnalysisResult.RECOVERY_HEADER;
    /** analyze's line under the table: what each column counts. */
    static final String LEGEND = io.metaroce.analysis.AnalysisResult.RECOVERY_LEGEND + ".";
    static final String NONE = "No NAK sequence error and no timeout go-back of a RoCEv2 requester in the capture: no recovery to judge.";
    static final String META_ROCE = "No NAK sequence error and no timeout go-back of a RoCEv2 requester in the capture; its "
            + "MetaRoCE flows recover by selective repeat (SACK/NACK), which the recovery behaviour does not judge.";

    final TableView<Map<String, Object>> table = new TableView<>();
    final Label notes = new Label(LEGEND);
    final Button nak = new Button("Go to the NAK"), resend = new Button("Go to its resend");
    final VBox pane;
    private final AtomicReference<DiagnosisRun> result;

    RecoveryTab(GuiContext ctx, AtomicReference<DiagnosisRun> result, Label status) {
        this.result = result;
        table.setId("diagnosis-recovery");
        table.getColumns().add(column("Sender", m -> m.get("sender"), 88));
        table.getColumns().add(column("Tap", m -> m.get("tap"), 52));
        table.getColumns().add(column("NAKs", m -> m.get("naks"), 48));
        table.getColumns().add(column("From p", m -> m.get("from_nak_psn"), 58));
        table.getColumns().add(column("Earlier (msg start)", m -> m.get("earlier") + " (" + m.get("earlier_message_start") + ")", 140));
        table.getColumns().add(column("Later", m -> m.get("later"), 46));
        table.getColumns().add(column("Ignored", m -> m.get("not_answered"), 70));
        table.getColumns().add(column("Not judged", m -> m.get("not_judged"), 86));
        table.getColumns().add(column("Extra PSNs med", m -> m.get("extra_psns_median"), 127));
        table.getColumns().add(column("NAK->resend us med", m -> us(m.get("nak_to_resend_ns_median")), 165));
        table.getColumns().add(column("Timeouts", m -> m.get("timeouts"), 76));
        table.getColumns().add(column("Timer us", m -> us(m.get("timer_ns")), 76));
        table.getColumns().add(column("From oldest", RecoveryTab::fromOldest, 92));
        table.getColumns().add(column("Verdict", m -> m.get("verdict"), 162));
        table.setPlaceholder(new Label("Diagnosing ..."));
        table.setRowFactory(t -> {
            TableRow<Map<String, Object>> row = new TableRow<>();
            row.setOnMouseClicked(e -> {
                if (e.getClickCount() == 2 && row.getItem() != null) go(ctx, row.getItem(), false, status);
            });
            row.contextMenuProperty().bind(row.itemProperty().map(m -> menu(ctx, m, status)));
            return row;
        });
        nak.setId("recovery-go-nak");
        resend.setId("recovery-go-resend");
        nak.setDisable(true);
        resend.setDisable(true);
        nak.setOnAction(e -> go(ctx, table.getSelectionModel().getSelectedItem(), false, status));
        resend.setOnAction(e -> go(ctx, table.getSelectionModel().getSelectedItem(), true, status));
        table.getSelectionModel().selectedItemProperty().addListener((o, a, m) -> {
            boolean none = m == null || example(m) == null;
            nak.setDisable(none);
            resend.setDisable(none);
        });
        notes.setId("diagnosis-recovery-notes");
        notes.setWrapText(true);
        Label header = new Label(HEADER);
        header.setWrapText(true);
        HBox buttons = new HBox(8, new Label("First NAK answered wrongly:"), nak, resend);
        buttons.setAlignment(Pos.CENTER_LEFT);
        pane = new VBox(6, header, table, buttons, notes);
        pane.setPadding(new Insets(6));
        VBox.setVgrow(table, Priority.ALWAYS);
    }

    /** The rows of a finished diagnosis, or the reason there are none. */
    @SuppressWarnings("unchecked")
    void show(DiagnosisRun r) {
        Map<String, Object> rec = r.recovery();
        table.setPlaceholder(new Label(r.hasMetaRoce() ? META_ROCE : NONE));
        table.getItems().setAll(rec == null ? List.of() : (List<Map<String, Object>>) rec.get("senders"));
        if (!table.getItems().isEmpty()) table.getSelectionModel().selectFirst();
    }

    /** The placeholder while there is nothing to diagnose (no capture, no frames, an analysis that failed). */
    void empty(String why) { table.setPlaceholder(new Label(why)); }

    /** The row's example {nak, resend, kind}, or null when the sender answered every judged NAK from p. */
    long[] example(Map<String, Object> m) {
        DiagnosisRun r = result.get();
        return r == null ? null : r.recoveryExample(String.valueOf(m.get("sender")));
    }

    /** Selects the example's NAK (or its resend) and says in the status line what it shows. */
    private void go(GuiContext ctx, Map<String, Object> m, boolean toResend, Label status) {
        if (m == null) return;
        long[] e = example(m);
        if (e == null) {
            status.setText(m.get("sender") + " answered no judged NAK wrongly: nothing to show");
            return;
        }
        Windows.select(ctx, toResend ? e[1] : e[0], status);
        status.setText(status.getText() + ": " + describe(String.valueOf(m.get("sender")), e));
    }

    /** An example in a sentence: "the first NAK 10.0.0.1 answered wrongly: frame 128, answered by a resend from before its PSN in frame 218". */
    static String describe(String sender, long[] e) {
        String how = e[2] == AnalysisResult.RECOVERY_EARLIER ? "answered by a resend from before its PSN"
                : e[2] == AnalysisResult.RECOVERY_LATER ? "answered by a resend from after its PSN"
                : "ignored: nothing resent until the timer's resend";
        return String.format(Locale.ROOT, "the first NAK %s answered wrongly: frame %d, %s in frame %d", sender, e[0], how, e[1]);
    }

    /**
     * The row's menu: a jump to the example of each kind of wrong answer the sender has (the first resend from before
     * the NAK's PSN, from after it, the first NAK left unanswered until the timer), or one disabled item for none.
     */
    ContextMenu menu(GuiContext ctx, Map<String, Object> m, Label status) {
        DiagnosisRun r = result.get();
        String sender = String.valueOf(m.get("sender"));
        ContextMenu menu = new ContextMenu();
        for (int kind : DiagnosisRun.RECOVERY_KINDS) {
            long[] e = r == null ? null : r.recoveryExample(sender, kind);
            if (e == null) continue;
            boolean toNak = kind == AnalysisResult.RECOVERY_NOT_ANSWERED;
            MenuItem item = new MenuItem(menuText(kind) + " (frame " + (toNak ? e[0] : e[1]) + ")");
            item.setId("recovery-go-" + KIND_IDS[kind]);
            item.setOnAction(x -> {
                Windows.select(ctx, toNak ? e[0] : e[1], status);
                status.setText(status.getText() + ": " + describeKind(sender, e));
            });
            menu.getItems().add(item);
        }
        if (menu.getItems().isEmpty()) {
            MenuItem none = new MenuItem("No NAK answered wrongly");
            none.setDisable(true);
            menu.getItems().add(none);
        }
        return menu;
    }

    /** A kind's example in a sentence: "the first NAK 10.0.0.1 ignored: frame 128, nothing resent until frame 300". */
    static String describeKind(String sender, long[] e) {
        String how = e[2] == AnalysisResult.RECOVERY_EARLIER ? "answered by a resend from before its PSN: frame %d, resent from frame %d"
                : e[2] == AnalysisResult.RECOVERY_LATER ? "answered by a resend from after its PSN: frame %d, resent from frame %d"
                : "ignored: frame %d, nothing resent until the timer's resend in frame %d";
        return String.format(Locale.ROOT, "the first NAK %s " + how, sender, e[0], e[1]);
    }

    /** The menu item of a kind of wrong answer (AnalysisResult.RECOVERY_*). */
    static String menuText(int kind) {
        return kind == AnalysisResult.RECOVERY_EARLIER ? "Go to first resend from before the NAK's PSN"
                : kind == AnalysisResult.RECOVERY_LATER ? "Go to first resend from after the NAK's PSN"
                : "Go to first unanswered NAK";
    }

    /** The menu items' ids per kind: recovery-go-earlier, -later, -unanswered. */
    private static final String[] KIND_IDS = {"earlier", "later", "unanswered"};

    /** "judged from the oldest PSN / timeouts judged", as analyze prints it ("-" where the tap cannot judge timeouts). */
    static String fromOldest(Map<String, Object> m) {
        if (!(m.get("timeouts_from_oldest") instanceof Number f)) return null;
        long judged = f.longValue() + ((Number) m.get("timeouts_earlier")).longValue() + ((Number) m.get("timeouts_later")).longValue();
        return f.longValue() + "/" + judged;
    }

    private static String us(Object ns) {
        return ns instanceof Number x ? String.format(Locale.ROOT, "%.3f", x.longValue() / 1e3) : null;
    }

    /** A column; null shows as "-", as in analyze's table. */
    private static TableColumn<Map<String, Object>, Object> column(String name, Function<Map<String, Object>, Object> f, double w) {
        TableColumn<Map<String, Object>, Object> c = new TableColumn<>(name);
        c.setPrefWidth(w);
        c.setSortable(false);
        c.setCellValueFactory(cd -> {
            Object v = cd.getValue() == null ? null : f.apply(cd.getValue());
            return new ReadOnlyObjectWrapper<>(v == null ? "-" : v);
        });
        return c;
    }
}

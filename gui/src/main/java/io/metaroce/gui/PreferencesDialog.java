package io.metaroce.gui;

import io.metaroce.dissector.DecodeAs;
import io.metaroce.protocol.Spec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.event.ActionEvent;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;

/**
 * Wireshark's Edit > Preferences... (Ctrl+Shift+P): a page list at the left, the page at the right, OK, Apply and
 * Cancel. The pages edit what the other dialogs and stores already hold, through their models, and keep each value
 * in the current profile's file for it: Appearance (the font size, which is View > Zoom's level; the layout, in
 * the {@code preferences} file), Appearance > Columns (Column Preferences' editor and the {@code columns} file),
 * Capture (default interfaces, snap length, promiscuous mode: {@link CaptureSettings}), Protocols > RoCEv2 (the UDP
 * ports decoded as RoCE: Decode As and {@link DecodeAsEntries}). OK and Apply check every page first: a bad value
 * is shown (its page selected) and nothing is applied or saved.
 */
final class PreferencesDialog {
    static final ButtonType APPLY = new ButtonType("Apply", ButtonBar.ButtonData.APPLY);
    private final MainWindow w;
    private final Dialog<ButtonType> dialog = new Dialog<>();
    private final BorderPane page = new BorderPane();
    private final Label problem = new Label();
    private final Spinner<Integer> zoom;
    private final CheckBox beside = new CheckBox("Packet details and bytes beside the packet list (not below it)");
    private final ObservableList<ColumnSpec> columns;
    private final TextField interfaces = new TextField(), snapLength = new TextField();
    private final CheckBox promiscuous = new CheckBox("Capture packets in promiscuous mode");
    private final TextField rocePorts = new TextField();
    private final TreeItem<String> appearance = new TreeItem<>("Appearance"), columnsPage = new TreeItem<>("Columns"),
            capture = new TreeItem<>("Capture"), protocols = new TreeItem<>("Protocols"), roce = new TreeItem<>("RoCEv2");
    private final TreeView<String> pages;

    private PreferencesDialog(MainWindow w) {
        this.w = w;
        zoom = new Spinner<>(-ViewMenu.MAX_ZOOM, ViewMenu.MAX_ZOOM, w.viewMenu().zoomLevel());
        zoom.setId("prefs-zoom");
        zoom.setEditable(true);
        beside.setId("prefs-beside");
        beside.setSelected(w.preferences().detailsBesideList());
        columns = FXCollections.observableArrayList(w.packets().columns());
        CaptureSettings s = w.captureBar().settings();
        interfaces.setId("prefs-capture-interfaces");
        interfaces.setText(s.interfaces.get());
        interfaces.setPromptText("eth0, or several separated by commas");
        snapLength.setId("prefs-snaplen");
        snapLength.setText(s.snapLength);
        promiscuous.setId("prefs-promiscuous");
        promiscuous.setSelected(s.promiscuous);
        rocePorts.setId("prefs-roce-ports");
        rocePorts.setText(portsText(w.context().decodeAsPorts()));
        problem.setId("prefs-problem");
        problem.setStyle("-fx-text-fill: #a40000;");
        problem.setWrapText(true);

        TreeItem<String> root = new TreeItem<>();
        appearance.getChildren().add(columnsPage);
        protocols.getChildren().add(roce);
        root.getChildren().addAll(List.of(appearance, capture, protocols));
        for (TreeItem<String> t : root.getChildren()) t.setExpanded(true);
        pages = new TreeView<>(root);
        pages.setId("prefs-pages");
        pages.setShowRoot(false);
        pages.setPrefWidth(170);
        pages.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> show(b));
        pages.getSelectionModel().select(appearance);

        BorderPane content = new BorderPane(page, null, null, problem, pages);
        BorderPane.setMargin(page, new Insets(0, 0, 0, 12));
        content.setPrefSize(760, 460);
        dialog.initOwner(w.stage());
        dialog.setTitle("Preferences (profile " + w.profiles().current() + ")");
        dialog.setHeaderText(null);
        dialog.getDialogPane().setContent(content);
        dialog.getDialogPane().getButtonTypes().addAll(ButtonType.OK, APPLY, ButtonType.CANCEL);
        Button ok = (Button) dialog.getDialogPane().lookupButton(ButtonType.OK), apply = (Button) dialog.getDialogPane().lookupButton(APPLY);
        ok.setId("prefs-ok");
        apply.setId("prefs-apply");
        // A bad value keeps the dialog open with its message; Apply applies and keeps it open (Wireshark's).
        ok.addEventFilter(ActionEvent.ACTION, e -> {
            if (!apply()) e.consume();
        });
        apply.addEventFilter(ActionEvent.ACTION, e -> {
            apply();
            e.consume();
        });
    }

    static Dialog<ButtonType> show(MainWindow w) {
        PreferencesDialog d = new PreferencesDialog(w);
        d.dialog.show();
        return d.dialog;
    }

    TreeView<String> pages() { return pages; }

    private void show(TreeItem<String> which) {
        page.setCenter(which == null ? null : pageFor(which));
    }

    private Node pageFor(TreeItem<String> which) {
        if (which == columnsPage) return ColumnPreferencesDialog.editor(columns);
        if (which == capture) {
            GridPane g = form();
            g.addRow(0, new Label("Default interfaces"), interfaces);
            g.addRow(1, new Label("Snap length (bytes)"), snapLength);
            g.add(promiscuous, 1, 2);
            return titled("Capture (the capture toolbar's and Capture > Options' settings)", g);
        }
        if (which == protocols || which == roce) {
            GridPane g = form();
            g.addRow(0, new Label("UDP ports decoded as RoCE"), rocePorts);
            Label note = new Label("Separated by commas or spaces, in any form -d takes (4792, udp.port==4792,roce). "
                    + Spec.ROCE_UDP_PORT + " is always decoded. The same table as Analyze > Decode As..., saved in this profile.");
            note.setWrapText(true);
            return titled("RoCEv2", g, note);
        }
        GridPane g = form();
        g.addRow(0, new Label("Zoom level (View > Zoom; 0 is the normal size)"), zoom);
        g.add(beside, 0, 1, 2, 1);
        return titled("Appearance", g);
    }

    /** Two columns, labels and their controls; a label is never cut short ("Snap len..."), the controls take the rest. */
    private static GridPane form() {
        GridPane g = new GridPane();
        g.setHgap(8);
        g.setVgap(8);
        javafx.scene.layout.ColumnConstraints labels = new javafx.scene.layout.ColumnConstraints();
        labels.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        javafx.scene.layout.ColumnConstraints controls = new javafx.scene.layout.ColumnConstraints();
        controls.setHgrow(javafx.scene.layout.Priority.ALWAYS);
        g.getColumnConstraints().addAll(labels, controls);
        return g;
    }

    private static VBox titled(String title, Node... nodes) {
        Label t = new Label(title);
        t.setStyle("-fx-font-weight: bold;");
        VBox v = new VBox(10, t);
        v.getChildren().addAll(nodes);
        return v;
    }

    /** The ports as the RoCEv2 page shows them: sorted, separated by commas. */
    static String portsText(Set<Integer> ports) {
        StringBuilder b = new StringBuilder();
        for (int p : new TreeSet<>(ports)) b.append(b.isEmpty() ? "" : ", ").append(p);
        return b.toString();
    }

    /** The RoCEv2 page's text as ports (4791 among them), or IllegalArgumentException with -d's words. */
    static Set<Integer> parsePorts(String text) {
        Set<Integer> out = new LinkedHashSet<>();
        out.add(Spec.ROCE_UDP_PORT);
        for (String t : text.strip().split("\\s+")) {
            // udp.port==N,roce has a comma of its own: a token with '=' is one port, a trailing comma its separator.
            if (t.contains("=")) out.add(DecodeAs.port(t.endsWith(",") ? t.substring(0, t.length() - 1) : t));
            else for (String u : t.split(",")) if (!u.isEmpty()) out.add(DecodeAs.port(u));
        }
        return out;
    }

    /** Why snap length cannot be used (the capture command's words), or null. */
    static String snapLengthProblem(String text) {
        int n;
        try {
            n = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            return "-s " + text.strip() + ": not a number";
        }
        return n < 1 ? "snap length must be at least 1, not " + n : null;
    }

    /** Checks every page, then applies and saves all of them; false (and the message shown) when a value is bad. */
    boolean apply() {
        Set<Integer> ports;
        try {
            ports = parsePorts(rocePorts.getText());
        } catch (IllegalArgumentException e) {
            return refuse(roce, "RoCEv2: " + e.getMessage());
        }
        String snap = snapLengthProblem(snapLength.getText());
        if (snap != null) return refuse(capture, "Capture: " + snap);
        Integer level = zoom.getValue();
        try {
            level = zoom.getValueFactory().getConverter().fromString(zoom.getEditor().getText());
        } catch (RuntimeException e) {
            return refuse(appearance, "Appearance: the zoom level is a whole number from " + -ViewMenu.MAX_ZOOM + " to " + ViewMenu.MAX_ZOOM);
        }
        if (level == null || level < -ViewMenu.MAX_ZOOM || level > ViewMenu.MAX_ZOOM) {
            return refuse(appearance, "Appearance: the zoom level is a whole number from " + -ViewMenu.MAX_ZOOM + " to " + ViewMenu.MAX_ZOOM);
        }
        problem.setText("");
        List<String> failures = new ArrayList<>();
        w.viewMenu().zoom(level);
        String why = w.setPreferences(w.preferences().withDetailsBesideList(beside.isSelected()));
        if (why != null) failures.add(why);
        if (!columns.equals(w.packets().columns())) w.columns().setColumns(new ArrayList<>(columns));
        CaptureSettings s = w.captureBar().settings();
        s.interfaces.set(interfaces.getText().strip());
        s.snapLength = snapLength.getText().strip();
        s.promiscuous = promiscuous.isSelected();
        w.captureBar().saveSettings();
        GuiContext ctx = w.context();
        Path decodeAsFile = ctx.decodeAsFile();
        if (decodeAsFile != null && !ports.equals(ctx.decodeAsPorts())) {
            why = DecodeAsEntries.load(decodeAsFile).save(decodeAsFile, new ArrayList<>(ports));
            if (why != null) failures.add(why);
        }
        ctx.decodeAs(ports);     // the capture opens again only if the ports changed
        if (!failures.isEmpty()) {
            problem.setText(String.join("; ", failures));
            return false;
        }
        return true;
    }

    private boolean refuse(TreeItem<String> where, String message) {
        pages.getSelectionModel().select(where);
        problem.setText(message);
        return false;
    }
}

package io.metaroce.gui;

import io.metaroce.capture.live.CaptureLimits;
import io.metaroce.capture.live.InterfaceList;
import io.metaroce.capture.live.LiveCaptureException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import javafx.scene.control.RadioButton;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.cell.CheckBoxTableCell;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.util.Duration;

/**
 * Capture > Options... (Ctrl+K), as Wireshark's Capture Options: Input (the interfaces libpcap sees, with their
 * addresses, link type and the packets they received while the dialog is open; several can be chosen; promiscuous
 * mode, snap length, buffer; the capture filter, checked as you type), Output (a file instead of a temporary one;
 * pcapng or pcap, as dumpcap -P; a ring buffer: a new file after kB or seconds, keeping N files) and Options (update the list in real
 * time; stop after packets, seconds, kB or files). The settings are the toolbar's ({@link CaptureSettings}); Start
 * checks them with {@code metaroce capture}'s words and starts the toolbar's capture, or says in the dialog why not.
 */
final class CaptureOptionsDialog {
    static final ButtonType START = new ButtonType("Start", ButtonBar.ButtonData.OK_DONE);

    /** One row of the interface table. */
    static final class Row {
        final SimpleBooleanProperty chosen = new SimpleBooleanProperty();
        final InterfaceList.Entry entry;
        final SimpleStringProperty packets = new SimpleStringProperty("");
        final long rxAtOpen;

        Row(InterfaceList.Entry entry, boolean chosen) {
            this.entry = entry;
            this.chosen.set(chosen);
            this.rxAtOpen = rxPackets(entry.name());
        }
    }

    private CaptureOptionsDialog() { }

    static Dialog<ButtonType> show(GuiContext ctx, CaptureToolbar bar) {
        CaptureSettings s = bar.settings();
        Label message = new Label();
        message.setId("capture-options-message");
        message.setWrapText(true);
        message.setStyle("-fx-text-fill: #a40000;");

        // ---- Input
        TextField interfaces = field("capture-options-interfaces", s.interfaces.get());
        interfaces.setPromptText("interfaces, separated by commas");
        ObservableList<Row> rows = FXCollections.observableArrayList();
        TableView<Row> table = new TableView<>(rows);
        table.setId("capture-options-table");
        table.setEditable(true);
        table.setPrefHeight(200);
        TableColumn<Row, Boolean> use = new TableColumn<>("Capture");
        use.setCellValueFactory(c -> c.getValue().chosen);
        use.setCellFactory(CheckBoxTableCell.forTableColumn(use));
        use.setEditable(true);
        table.getColumns().add(use);
        table.getColumns().add(text("Interface", 120, r -> r.entry.name()));
        table.getColumns().add(text("Addresses", 220, r -> String.join(", ", r.entry.addresses())));
        table.getColumns().add(text("Link-layer header", 130, r -> linkName(CaptureLimits.linkType(r.entry.name()))));
        TableColumn<Row, String> packets = new TableColumn<>("Packets");
        packets.setCellValueFactory(c -> c.getValue().packets);
        packets.setPrefWidth(80);
        table.getColumns().add(packets);
        table.getColumns().add(text("Description", 200, r -> r.entry.description() == null ? "" : r.entry.description()
                + (r.entry.up() ? "" : " (down)")));
        boolean[] syncing = {false};
        Runnable fromTable = () -> {
            if (syncing[0]) return;
            List<String> names = new ArrayList<>();
            for (String n : CaptureSettings.names(interfaces.getText())) if (listed(rows, n) == null) names.add(n);   // typed, not listed
            for (Row r : rows) if (r.chosen.get()) names.add(r.entry.name());
            syncing[0] = true;
            interfaces.setText(String.join(", ", names));
            syncing[0] = false;
        };
        interfaces.textProperty().addListener((o, a, t) -> {
            if (syncing[0]) return;
            syncing[0] = true;
            List<String> names = CaptureSettings.names(t);
            for (Row r : rows) r.chosen.set(names.contains(r.entry.name()));
            syncing[0] = false;
        });
        Runnable list = () -> {
            try {
                List<String> chosen = CaptureSettings.names(interfaces.getText());
                List<Row> fresh = new ArrayList<>();
                for (InterfaceList.Entry e : InterfaceList.all()) {
                    Row r = new Row(e, chosen.contains(e.name()));
                    r.chosen.addListener((o, a, b) -> fromTable.run());
                    fresh.add(r);
                }
                rows.setAll(fresh);
            } catch (LiveCaptureException ex) {
                message.setText(ex.getMessage());
            }
        };
        list.run();
        // The packets each interface received since the dialog opened (the kernel's counter): which one has traffic.
        Timeline counts = new Timeline(new KeyFrame(Duration.seconds(1), e -> {
            for (Row r : rows) {
                long now = rxPackets(r.entry.name());
                r.packets.set(now < 0 || r.rxAtOpen < 0 ? "" : Long.toString(now - r.rxAtOpen));
            }
        }));
        counts.setCycleCount(Timeline.INDEFINITE);
        counts.play();
        CheckBox promiscuous = new CheckBox("Enable promiscuous mode on all interfaces");
        promiscuous.setId("capture-options-promiscuous");
        promiscuous.setSelected(s.promiscuous);
        TextField snap = field("capture-options-snaplen", s.snapLength), buffer = field("capture-options-buffer", s.bufferMiB);
        TextField filter = field("capture-options-filter", s.filter.get());
        filter.setPromptText("capture filter (libpcap), empty: every frame");
        HBox.setHgrow(filter, Priority.ALWAYS);
        Label filterMessage = new Label();
        filterMessage.setId("capture-options-filter-message");
        filterMessage.setStyle("-fx-text-fill: #a40000;");
        CaptureFilterCheck.install(filter, interfaces.textProperty(), filterMessage);
        MenuButton saved = new MenuButton("Saved");
        saved.setId("capture-options-saved-filters");
        saved.setOnShowing(e -> saved.getItems().setAll(bar.filterItems(filter::setText)));
        Button refresh = new Button("Refresh Interfaces");
        refresh.setOnAction(e -> list.run());
        GridPane input = grid();
        input.addRow(0, new Label("Interfaces"), interfaces, refresh);
        input.addRow(1, new Label("Snap length (bytes)"), snap);
        input.addRow(2, new Label("Buffer (MiB per interface)"), buffer);
        input.addRow(3, new Label(), promiscuous);
        VBox inputTab = new VBox(8, table, input, new HBox(6, new Label("Capture filter for selected interfaces:"), saved, filter), filterMessage);

        // ---- Output
        TextField output = field("capture-options-output", s.output);
        output.setPromptText("empty: a temporary file");
        output.setPrefColumnCount(36);
        // Wireshark 4.x's Output format: pcapng (names, filter, statistics, nanoseconds) or pcap (dumpcap -P).
        ToggleGroup format = new ToggleGroup();
        RadioButton pcapng = new RadioButton("pcapng"), pcap = new RadioButton("pcap (one interface; microsecond timestamps)");
        pcapng.setId("capture-options-pcapng");
        pcap.setId("capture-options-pcap");
        pcapng.setToggleGroup(format);
        pcap.setToggleGroup(format);
        (s.pcapng ? pcapng : pcap).setSelected(true);
        Button browse = new Button("Browse...");
        browse.setOnAction(e -> {
            FileChooser fc = new FileChooser();
            fc.setTitle("Capture to File");
            fc.getExtensionFilters().add(pcap.isSelected() ? new FileChooser.ExtensionFilter("pcap", "*.pcap")
                    : new FileChooser.ExtensionFilter("pcapng", "*.pcapng"));
            File f = fc.showSaveDialog(ctx.stage());
            if (f != null) output.setText(f.getPath());
        });
        TextField ringKB = field("capture-options-ring-kb", s.ringKB), ringSeconds = field("capture-options-ring-seconds", s.ringSeconds),
                ringFiles = field("capture-options-ring-files", s.ringFiles);
        GridPane out = grid();
        out.addRow(0, new Label("Capture to a permanent file"), output, browse);
        out.addRow(1, new Label("Output format"), new HBox(12, pcapng, pcap));
        out.addRow(2, new Label("Create a new file automatically after (kB)"), ringKB);
        out.addRow(3, new Label("... or after (seconds)"), ringSeconds);
        out.addRow(4, new Label("Use a ring buffer with (files)"), ringFiles);

        // ---- Options
        CheckBox realTime = new CheckBox("Update list of packets in real time (not with a ring buffer)");
        realTime.setId("capture-options-realtime");
        realTime.setSelected(s.realTime);
        TextField stopPackets = field("capture-options-stop-packets", s.stopPackets), stopSeconds = field("capture-options-stop-seconds", s.stopSeconds),
                stopKB = field("capture-options-stop-kb", s.stopKB), stopFiles = field("capture-options-stop-files", s.stopFiles);
        GridPane opts = grid();
        opts.addRow(0, new Label(), realTime);
        opts.addRow(1, new Label("Stop capture automatically after (packets)"), stopPackets);
        opts.addRow(2, new Label("... or after (seconds)"), stopSeconds);
        opts.addRow(3, new Label("... or after (kB)"), stopKB);
        opts.addRow(4, new Label("... or after (files)"), stopFiles);

        TabPane tabs = new TabPane(new Tab("Input", inputTab), new Tab("Output", out), new Tab("Options", opts));
        tabs.setId("capture-options-tabs");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        VBox content = new VBox(8, tabs, message);
        content.setPadding(new Insets(10));
        content.setPrefWidth(860);

        Runnable apply = () -> {
            s.interfaces.set(interfaces.getText());
            s.filter.set(filter.getText());
            s.snapLength = snap.getText();
            s.bufferMiB = buffer.getText();
            s.promiscuous = promiscuous.isSelected();
            s.output = output.getText();
            s.pcapng = !pcap.isSelected();
            s.ringKB = ringKB.getText();
            s.ringSeconds = ringSeconds.getText();
            s.ringFiles = ringFiles.getText();
            s.realTime = realTime.isSelected();
            s.stopPackets = stopPackets.getText();
            s.stopSeconds = stopSeconds.getText();
            s.stopKB = stopKB.getText();
            s.stopFiles = stopFiles.getText();
        };
        Dialog<ButtonType> d = new Dialog<>();
        if (ctx.stage() != null) d.initOwner(ctx.stage());
        d.setTitle("Capture Options");
        d.setResizable(true);
        d.getDialogPane().setContent(content);
        d.getDialogPane().getButtonTypes().addAll(START, ButtonType.CLOSE);
        d.getDialogPane().lookupButton(START).setId("capture-options-start");
        // Start: the settings checked and the capture started; anything wrong is said here and the dialog stays.
        d.getDialogPane().lookupButton(START).addEventFilter(javafx.event.ActionEvent.ACTION, e -> {
            apply.run();
            if (!bar.mayReplaceOpenCapture()) {     // Cancel in the Save question: the dialog stays
                e.consume();
                return;
            }
            String why = bar.start();
            if (why != null) {
                message.setText(why);
                e.consume();
            }
        });
        d.setOnHidden(e -> {
            counts.stop();
            if (d.getResult() != START) {     // Close keeps what was typed for the next capture
                apply.run();
                bar.saveSettings();
            }
        });
        d.show();
        return d;
    }

    private static Row listed(List<Row> rows, String name) {
        for (Row r : rows) if (r.entry.name().equals(name)) return r;
        return null;
    }

    private static TextField field(String id, String value) {
        TextField f = new TextField(value == null ? "" : value);
        f.setId(id);
        f.setPrefColumnCount(10);
        return f;
    }

    private static GridPane grid() {
        GridPane g = new GridPane();
        g.setHgap(8);
        g.setVgap(6);
        g.setPadding(new Insets(8));
        return g;
    }

    private static TableColumn<Row, String> text(String title, double width, java.util.function.Function<Row, String> value) {
        TableColumn<Row, String> c = new TableColumn<>(title);
        c.setCellValueFactory(r -> new SimpleStringProperty(value.apply(r.getValue())));
        c.setPrefWidth(width);
        c.setEditable(false);
        return c;
    }

    /** libpcap's name of a link type the table shows. */
    static String linkName(int linkType) {
        return switch (linkType) {
            case 1 -> "Ethernet";
            case 101 -> "Raw IP";
            case 113 -> "Linux cooked";
            default -> "LINKTYPE " + linkType;
        };
    }

    /** The kernel's received-packet counter of an interface (Linux), or -1. */
    static long rxPackets(String iface) {
        if (iface == null || iface.contains("/") || iface.startsWith(".")) return -1;
        try {
            return Long.parseLong(Files.readString(Path.of("/sys/class/net", iface, "statistics", "rx_packets")).strip());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}

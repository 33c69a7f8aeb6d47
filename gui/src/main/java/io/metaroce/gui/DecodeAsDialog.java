package io.metaroce.gui;

import io.metaroce.dissector.DecodeAs;
import io.metaroce.dissector.Dissection;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Udp;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * Analyze > Decode As..., as Wireshark's: a table of field, value and protocol, here for the one choice this
 * analyzer has, the UDP destination ports decoded as RoCE ({@code metaroce gui -d}, the commands' {@code -d}).
 * 4791 is always decoded (shown, not removable); a port is added (prefilled with the selected packet's UDP
 * destination port, in any form {@code -d} takes) or removed; OK opens the capture again with the new ports
 * ({@link GuiContext#decodeAs}); Save also writes them to Wireshark's decode_as_entries file, read when the
 * analyzer starts again ({@link DecodeAsEntries}).
 */
final class DecodeAsDialog {
    /** Wireshark's Decode As has OK, Save and Cancel: Save applies and keeps the table in the profile. */
    static final ButtonType SAVE = new ButtonType("Save", ButtonBar.ButtonData.APPLY);
    private final Dialog<ButtonType> dialog = new Dialog<>();
    private final ObservableList<Integer> ports = FXCollections.observableArrayList();
    private final TextField port = new TextField();
    private final Label problem = new Label();

    private DecodeAsDialog(GuiContext ctx) {
        ports.setAll(sorted(ctx.decodeAsPorts()));
        dialog.initOwner(ctx.stage());
        dialog.setTitle("Decode As");
        dialog.setHeaderText(null);

        TableView<Integer> table = new TableView<>(ports);
        table.setId("decode-as-table");
        table.setPrefHeight(160);
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().add(column("Field", p -> "UDP port"));
        table.getColumns().add(column("Value", String::valueOf));
        table.getColumns().add(column("Current", p -> p == Spec.ROCE_UDP_PORT ? "RoCE (default)" : "RoCE"));

        port.setId("decode-as-port");
        port.setPromptText("UDP port, or udp.port==N,roce");
        int selected = udpDestination(ctx);
        if (selected > 0) port.setText(String.valueOf(selected));
        HBox.setHgrow(port, Priority.ALWAYS);
        Button add = new Button("Add");
        add.setId("decode-as-add");
        add.setOnAction(e -> add(port.getText()));
        port.setOnAction(e -> add(port.getText()));
        Button remove = new Button("Remove");
        remove.setId("decode-as-remove");
        // 4791 is RoCEv2's own port: always decoded, as the commands' -d only adds to it.
        remove.disableProperty().bind(table.getSelectionModel().selectedItemProperty()
                .map(p -> p == Spec.ROCE_UDP_PORT).orElse(true));
        remove.setOnAction(e -> ports.remove(table.getSelectionModel().getSelectedItem()));
        problem.setId("decode-as-problem");
        problem.setStyle("-fx-text-fill: #a40000;");
        problem.setWrapText(true);
        Label note = new Label("OK opens the capture again with these ports, until the analyzer closes; Save also keeps "
                + "them for the next sessions" + (ctx.decodeAsFile() == null ? "" : " (" + ctx.decodeAsFile() + ", Wireshark's format)") + ".");
        note.setWrapText(true);

        VBox box = new VBox(8, table, new HBox(8, port, add, remove), problem, note);
        box.setPadding(new Insets(10));
        box.setPrefWidth(460);
        dialog.getDialogPane().setContent(box);
        dialog.getDialogPane().getButtonTypes().addAll(ButtonType.OK, SAVE, ButtonType.CANCEL);
        dialog.getDialogPane().lookupButton(SAVE).setId("decode-as-save");
        dialog.getDialogPane().lookupButton(SAVE).setDisable(ctx.decodeAsFile() == null);
        dialog.setOnHidden(e -> {
            if (dialog.getResult() == SAVE) save(ctx, ports);
            if (dialog.getResult() == ButtonType.OK || dialog.getResult() == SAVE) ctx.decodeAs(new LinkedHashSet<>(ports));
        });
    }

    /** Saves the table for the next sessions, keeping the file's other lines; a failure is shown as an error. */
    private static void save(GuiContext ctx, List<Integer> ports) {
        Path file = ctx.decodeAsFile();
        String problem = DecodeAsEntries.load(file).save(file, ports);
        if (problem != null) ctx.error(problem);
    }

    /** Shows the dialog (not waiting for it); OK applies the ports to ctx, Save also writes them to its file. */
    static Dialog<ButtonType> show(GuiContext ctx) {
        DecodeAsDialog d = new DecodeAsDialog(ctx);
        d.dialog.show();
        d.port.requestFocus();
        return d.dialog;
    }

    private void add(String text) {
        int p;
        try {
            p = DecodeAs.port(text);
        } catch (IllegalArgumentException e) {
            problem.setText(e.getMessage());
            return;
        }
        problem.setText("");
        if (!ports.contains(p)) {
            List<Integer> all = new ArrayList<>(ports);
            all.add(p);
            ports.setAll(sorted(all));
        }
    }

    /** The UDP destination port of the selected packet, or 0 (none selected, not UDP). */
    private static int udpDestination(GuiContext ctx) {
        OpenCapture c = ctx.capture();
        int frame = ctx.selectedFrame();
        if (c == null || frame == 0) return 0;
        Dissection d = new FrameDecoder(c.index(), null).decode(frame);
        int udp = d.offsetOf(Udp.HEADER);
        return udp < 0 ? 0 : Udp.dstport(d.data(), udp);
    }

    private static List<Integer> sorted(java.util.Collection<Integer> ports) {
        List<Integer> l = new ArrayList<>(ports);
        l.sort(null);
        return l;
    }

    private static TableColumn<Integer, String> column(String title, java.util.function.Function<Integer, String> text) {
        TableColumn<Integer, String> c = new TableColumn<>(title);
        c.setCellValueFactory(f -> new ReadOnlyStringWrapper(text.apply(f.getValue())));
        c.setSortable(false);
        return c;
    }
}

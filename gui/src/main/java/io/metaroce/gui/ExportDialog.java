package io.metaroce.gui;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.RadioButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;

/** File > Export Specified Packets: pick the range, then the pcapng file; written on a background thread. */
final class ExportDialog {
    private ExportDialog() { }

    static void show(GuiContext ctx) {
        if (ctx.capture() == null) return;
        Dialog<PacketExport.Range> d = new Dialog<>();
        d.initOwner(ctx.stage());
        d.setTitle("Export Specified Packets");
        ToggleGroup g = new ToggleGroup();
        VBox box = new VBox(6);
        box.setPadding(new Insets(10));
        String flow = PacketExport.flowId(ctx.capture(), ctx.analysis(), ctx.selectedFrame());
        for (PacketExport.Range r : PacketExport.Range.values()) {
            // A flow's frames take a pass over the capture: counted when written, not here.
            int n = r == PacketExport.Range.FLOW ? (flow == null ? 0 : -1) : PacketExport.frames(ctx, r).length;
            RadioButton b = new RadioButton(switch (r) {
                case ALL -> "All packets";
                case DISPLAYED -> "Displayed packets";
                case SELECTED -> "Selected packet only";
                case MARKED -> "Marked packets only";
                case FLOW -> "The selected packet's QP flow" + (flow == null ? "" : " " + flow);
            } + (n >= 0 ? " (" + n + ")" : ""));
            b.setId("export-" + r.name().toLowerCase());
            b.setUserData(r);
            b.setToggleGroup(g);
            b.setDisable(n == 0);
            if (r == PacketExport.Range.DISPLAYED) b.setSelected(true);
            box.getChildren().add(b);
        }
        d.getDialogPane().setContent(box);
        d.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        d.setResultConverter(bt -> bt == ButtonType.OK && g.getSelectedToggle() != null
                ? (PacketExport.Range) g.getSelectedToggle().getUserData() : null);
        d.showAndWait().ifPresent(range -> {
            FileChooser fc = new FileChooser();
            fc.setTitle("Export to pcapng");
            fc.getExtensionFilters().add(new FileChooser.ExtensionFilter("pcapng", "*.pcapng"));
            File f = fc.showSaveDialog(ctx.stage());
            if (f != null) export(ctx, range, f.toPath());
        });
    }

    /** Writes the range to out in the background and reports the result in the status bar (or a dialog). */
    static void export(GuiContext ctx, PacketExport.Range range, Path out) {
        OpenCapture c = ctx.capture();
        FrameView view = ctx.view();
        int selected = ctx.selectedFrame();
        int[] marked = ctx.markedFrames();
        var session = ctx.analysis();
        Thread.ofPlatform().daemon().name("metaroce-gui-export").start(() -> {
            try {
                int[] frames = PacketExport.frames(c, view, selected, marked, session, range);
                int n = PacketExport.write(c.index(), frames, out);
                Platform.runLater(() -> ctx.status("Exported " + n + " packets to " + out));
            } catch (IOException | RuntimeException e) {
                Platform.runLater(() -> ctx.error("Cannot write " + out + ": " + e.getMessage()));
            }
        });
    }
}

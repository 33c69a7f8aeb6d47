package io.metaroce.gui;

import java.io.File;
import java.nio.file.Path;
import javafx.geometry.Insets;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;

/** File > Export Specified Packets: pick the range, then the pcapng file; written in the background with progress and Cancel. */
final class ExportDialog {
    private ExportDialog() { }

    /**
     * Wireshark's "Packet Range" box, shared by Export Specified Packets and Export Packet Dissections: all,
     * displayed, selected, marked, the selected packet's flow, or typed numbers ("1-10,15"), with the count of each,
     * and "Displayed only" to keep the marked/typed/flow frames the filter shows.
     */
    static final class RangeBox {
        final VBox node = new VBox(6);
        private final ToggleGroup group = new ToggleGroup();
        private final TextField numbers = new TextField();
        private final CheckBox displayedOnly = new CheckBox("Displayed packets only");
        /** Wireshark's "Remove ignored packets": the frames Edit > Ignore Packet ignored are not written. */
        private final CheckBox removeIgnored = new CheckBox();
        private final java.util.BitSet ignored;

        RangeBox(GuiContext ctx) {
            String flow = PacketExport.flowId(ctx.capture(), ctx.analysis(), ctx.selectedFrame());
            for (PacketExport.Range r : PacketExport.Range.values()) {
                // A flow's frames take a pass over the capture: counted when written, not here.
                int n = r == PacketExport.Range.FLOW ? (flow == null ? 0 : -1)
                        : r == PacketExport.Range.RANGE ? -1 : PacketExport.frames(ctx, r).length;
                RadioButton b = new RadioButton(switch (r) {
                    case ALL -> "All packets";
                    case DISPLAYED -> "Displayed packets";
                    case SELECTED -> "Selected packet only";
                    case MARKED -> "Marked packets only";
                    case FLOW -> "The selected packet's QP flow" + (flow == null ? "" : " " + flow);
                    case RANGE -> "Range:";
                } + (n >= 0 ? " (" + n + ")" : ""));
                b.setId("export-" + r.name().toLowerCase());
                b.setUserData(r);
                b.setToggleGroup(group);
                b.setDisable(n == 0);
                if (r == PacketExport.Range.DISPLAYED) b.setSelected(true);
                if (r == PacketExport.Range.RANGE) {
                    numbers.setId("export-range-numbers");
                    numbers.setPromptText("1-10,15");
                    numbers.textProperty().addListener((o, a, t) -> b.setSelected(true));
                    node.getChildren().add(new HBox(6, b, numbers));
                } else node.getChildren().add(b);
            }
            displayedOnly.setId("export-displayed-only");
            displayedOnly.setDisable(ctx.view().isAll());
            node.getChildren().add(displayedOnly);
            ignored = ctx.ignoredFrames();
            removeIgnored.setText("Remove ignored packets (" + ignored.cardinality() + ")");
            removeIgnored.setId("export-remove-ignored");
            removeIgnored.setDisable(ignored.isEmpty());
            node.getChildren().add(removeIgnored);
        }

        PacketExport.Choice choice() {
            PacketExport.Range r = group.getSelectedToggle() == null ? PacketExport.Range.DISPLAYED
                    : (PacketExport.Range) group.getSelectedToggle().getUserData();
            return new PacketExport.Choice(r, numbers.getText(), displayedOnly.isSelected(),
                    removeIgnored.isSelected() ? ignored : null);
        }
    }

    static void show(GuiContext ctx) {
        if (ctx.capture() == null) return;
        Dialog<PacketExport.Choice> d = new Dialog<>();
        d.initOwner(ctx.stage());
        d.setTitle("Export Specified Packets");
        RangeBox range = new RangeBox(ctx);
        range.node.setPadding(new Insets(10));
        d.getDialogPane().setContent(range.node);
        d.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        d.setResultConverter(bt -> bt == ButtonType.OK ? range.choice() : null);
        d.showAndWait().ifPresent(choice -> {
            if (!rangeParses(ctx, choice)) return;
            FileChooser fc = new FileChooser();
            fc.setTitle("Export to pcapng");
            fc.getExtensionFilters().add(new FileChooser.ExtensionFilter("pcapng", "*.pcapng"));
            File f = fc.showSaveDialog(ctx.stage());
            if (f != null) export(ctx, choice, f.toPath());
        });
    }

    /** False (and the reason in an error dialog) when a typed range does not parse: asked before the file is. */
    static boolean rangeParses(GuiContext ctx, PacketExport.Choice choice) {
        if (choice.range() != PacketExport.Range.RANGE) return true;
        if (choice.numbers().isBlank()) {
            ctx.error("No packet range given (e.g. 1-10,15)");
            return false;
        }
        try {
            PacketExport.numbers(choice.numbers(), ctx.capture().frames());
            return true;
        } catch (IllegalArgumentException e) {
            ctx.error(e.getMessage());
            return false;
        }
    }

    static java.util.concurrent.CompletableFuture<Integer> export(GuiContext ctx, PacketExport.Range range, Path out) {
        return export(ctx, new PacketExport.Choice(range), out);
    }

    /**
     * Writes the range to out in the background ({@link BackgroundSave}: progress and Cancel in the status bar, a
     * temporary file moved to out when complete) and reports the result in the status bar (or a dialog). Completes
     * with the packets written, or -1.
     */
    static java.util.concurrent.CompletableFuture<Integer> export(GuiContext ctx, PacketExport.Choice choice, Path out) {
        OpenCapture c = ctx.capture();
        FrameView view = ctx.view();
        int selected = ctx.selectedFrame();
        int[] marked = ctx.markedFrames();
        var session = ctx.analysis();
        // The frames are chosen on the writer's thread: a flow's take a filter pass over the capture.
        return BackgroundSave.start(ctx, out, "Exporting",
                (tmp, progress) -> PacketExport.write(c.index(), PacketExport.frames(c, view, selected, marked, session, choice), tmp, progress),
                n -> ctx.status("Exported " + n + " packets to " + out));
    }
}

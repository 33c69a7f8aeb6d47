package io.metaroce.gui;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TitledPane;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Stage;

/**
 * File > Export Packet Dissections (As Plain Text, As CSV, As JSON) and File > Export Packet Bytes, as Wireshark's:
 * the packet range ({@link ExportDialog.RangeBox}), for plain text the packet format (summary line, details all
 * collapsed / as displayed / all expanded, bytes), then the file. The text is {@link DissectionExport}'s, written on a
 * background thread; a big range shows a progress window whose Cancel (or closing it) stops the writing.
 */
final class DissectionExportDialog {
    /** From this many frames on, the writing shows a progress window (tests lower it to see the window). */
    static int progressWindowFrom = 50_000;

    private DissectionExportDialog() { }

    /** The File menu's items: the Export Packet Dissections submenu and Export Packet Bytes. */
    static List<MenuItem> fileMenuItems(GuiContext ctx, PacketTable packets, FrameDetail detail) {
        Menu dissections = new Menu("Export Packet Dissections");
        dissections.setId("menu-export-dissections");
        dissections.disableProperty().bind(ctx.captureProperty().isNull());
        String[] labels = {"As Plain Text...", "As CSV...", "As JSON..."};
        for (DissectionExport.Format f : DissectionExport.Format.values()) {
            MenuItem mi = new MenuItem(labels[f.ordinal()]);
            mi.setId("menu-export-" + f.name().toLowerCase());
            mi.setOnAction(e -> show(ctx, packets, detail, f));
            dissections.getItems().add(mi);
        }
        MenuItem bytes = new MenuItem("Export Packet Bytes...");
        bytes.setId("menu-export-bytes");
        bytes.setAccelerator(KeyCombination.keyCombination("Shift+Shortcut+X"));
        // Greyed out unless the selected tree line covers bytes (a layer, a field, the payload).
        bytes.disableProperty().bind(detail.tree().getSelectionModel().selectedItemProperty().map(
                it -> it == null || it.getValue() == null || !it.getValue().hasBytes()).orElse(true));
        bytes.setOnAction(e -> chooseBytesFile(ctx, detail));
        return List.of(dissections, bytes);
    }

    static void show(GuiContext ctx, PacketTable packets, FrameDetail detail, DissectionExport.Format format) {
        if (ctx.capture() == null) return;
        Dialog<PacketExport.Choice> d = new Dialog<>();
        d.initOwner(ctx.stage());
        d.setTitle("Export Packet Dissections " + switch (format) {
            case TEXT -> "as Plain Text";
            case CSV -> "as CSV";
            case JSON -> "as JSON";
        });
        ExportDialog.RangeBox range = new ExportDialog.RangeBox(ctx);
        VBox content = new VBox(10, new TitledPane("Packet Range", range.node));
        ((TitledPane) content.getChildren().getFirst()).setCollapsible(false);
        CheckBox summary = new CheckBox("Summary line");
        CheckBox details = new CheckBox("Details:");
        ChoiceBox<String> level = new ChoiceBox<>();
        level.getItems().addAll("All collapsed", "As displayed", "All expanded");
        level.getSelectionModel().select(2);
        level.disableProperty().bind(details.selectedProperty().not());
        CheckBox bytes = new CheckBox("Bytes");
        summary.setId("export-summary");
        details.setId("export-details");
        level.setId("export-details-level");
        bytes.setId("export-bytes");
        summary.setSelected(true);
        details.setSelected(true);
        if (format == DissectionExport.Format.TEXT) {
            TitledPane pf = new TitledPane("Packet Format", new VBox(6, summary, new HBox(6, details, level), bytes));
            pf.setCollapsible(false);
            content.getChildren().add(pf);
        }
        content.setPadding(new Insets(10));
        d.getDialogPane().setContent(content);
        d.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        d.setResultConverter(bt -> bt == ButtonType.OK ? range.choice() : null);
        d.showAndWait().ifPresent(choice -> {
            if (!ExportDialog.rangeParses(ctx, choice)) return;
            DissectionExport.Details level0 = !details.isSelected() ? DissectionExport.Details.NONE
                    : DissectionExport.Details.values()[1 + level.getSelectionModel().getSelectedIndex()];
            DissectionExport.TextFormat text = new DissectionExport.TextFormat(summary.isSelected(), level0,
                    DissectionExport.expandedProtocols(detail.tree().getRoot()), bytes.isSelected());
            FileChooser fc = new FileChooser();
            fc.setTitle("Export Packet Dissections");
            String[] ext = switch (format) {
                case TEXT -> new String[] {"Plain text", "*.txt"};
                case CSV -> new String[] {"CSV", "*.csv"};
                case JSON -> new String[] {"JSON", "*.json"};
            };
            fc.getExtensionFilters().add(new FileChooser.ExtensionFilter(ext[0], ext[1]));
            File f = fc.showSaveDialog(ctx.stage());
            if (f != null) export(ctx, packets, choice, format, text, f.toPath());
        });
    }

    /**
     * Writes the chosen frames to out on a background thread; the status bar (or an error dialog) tells the result.
     * Returns what completes with the number written (-1: cancelled) or the error message (tests wait on it).
     */
    static CompletableFuture<Long> export(GuiContext ctx, PacketTable packets, PacketExport.Choice choice,
                                          DissectionExport.Format format, DissectionExport.TextFormat text, Path out) {
        OpenCapture c = ctx.capture();
        FrameView view = ctx.view();
        int selected = ctx.selectedFrame();
        int[] marked = ctx.markedFrames();
        var session = ctx.analysis();
        DissectionExport.SummaryCells cells = DissectionExport.SummaryCells.of(ctx, packets);
        CompletableFuture<Long> done = new CompletableFuture<>();
        Progress progress = new Progress();
        Thread.ofPlatform().daemon().name("metaroce-gui-export-dissections").start(() -> {
            try {
                int[] frames = PacketExport.frames(c, view, selected, marked, session, choice);
                if (frames.length >= progressWindowFrom) Platform.runLater(() -> progress.show(ctx, frames.length, out));
                long n;
                try (OutputStream os = Files.newOutputStream(out)) {
                    n = DissectionExport.write(c, session, frames, format, text, cells, os, progress::report, () -> progress.cancelled);
                }
                Platform.runLater(() -> {
                    progress.close();
                    ctx.status(n < 0 ? "Export to " + out + " cancelled (the file holds the packets written before)"
                            : "Exported " + n + " packets to " + out);
                });
                done.complete(n);
            } catch (IOException e) {
                fail(ctx, out, failure(e), progress, done);
            } catch (UncheckedIOException e) {
                fail(ctx, out, failure(e.getCause()), progress, done);
            } catch (RuntimeException e) {
                fail(ctx, out, String.valueOf(e.getMessage()), progress, done);
            }
        });
        return done;
    }

    private static void fail(GuiContext ctx, Path out, String why, Progress progress, CompletableFuture<Long> done) {
        Platform.runLater(() -> {
            progress.close();
            ctx.error("Cannot write " + out + ": " + why);
        });
        done.completeExceptionally(new IOException(why));
    }

    /** Why a write failed, in words (an AccessDeniedException's message is only the file's name). */
    static String failure(IOException e) {
        return e instanceof java.nio.file.NoSuchFileException ? "no such file or directory"
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                : e instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason()
                : String.valueOf(e.getMessage());
    }

    /** The progress window of a big export: its bar follows the writing; Cancel or closing it stops the writing. */
    private static final class Progress {
        volatile boolean cancelled;
        private volatile double fraction;
        private Stage stage;
        private ProgressBar bar;
        private boolean closed;

        void show(GuiContext ctx, int frames, Path out) {
            if (closed) return;     // done before the window could open
            bar = new ProgressBar(fraction);
            bar.setPrefWidth(360);
            Button cancel = new Button("Cancel");
            cancel.setId("export-cancel");
            cancel.setOnAction(e -> cancelled = true);
            VBox box = new VBox(8, new Label("Exporting " + frames + " packets to " + out.getFileName()), bar, cancel);
            box.setPadding(new Insets(10));
            box.setId("export-progress");
            stage = new Stage();
            if (ctx.stage() != null) stage.initOwner(ctx.stage());
            stage.setTitle("Export Packet Dissections");
            stage.setScene(new Scene(box));
            stage.setOnHidden(e -> cancelled = true);
            stage.show();
        }

        /** From the writing thread, every 10,000 frames (a hundred updates for a million). */
        void report(double f) {
            fraction = f;
            Platform.runLater(() -> { if (bar != null) bar.setProgress(fraction); });
        }

        void close() {
            closed = true;
            if (stage != null) {
                stage.setOnHidden(null);
                stage.close();
            }
        }
    }

    // ------------------------------------------------------------------ Export Packet Bytes

    /** The bytes of the selected tree line (its offset and length in the frame), or null when it covers none. */
    static byte[] selectedBytes(GuiContext ctx, FrameDetail detail) {
        var it = detail.tree().getSelectionModel().getSelectedItem();
        int f = ctx.selectedFrame();
        if (it == null || it.getValue() == null || !it.getValue().hasBytes() || f == 0 || ctx.capture() == null) return null;
        TreeEntry e = it.getValue();
        byte[] frame = ctx.capture().index().bytes(f);
        int from = Math.min(e.offset(), frame.length);
        return java.util.Arrays.copyOfRange(frame, from, Math.min(frame.length, from + e.length()));
    }

    private static void chooseBytesFile(GuiContext ctx, FrameDetail detail) {
        if (selectedBytes(ctx, detail) == null) return;
        FileChooser fc = new FileChooser();
        fc.setTitle("Export Selected Packet Bytes");
        fc.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("Raw data", "*.bin", "*.dat", "*.raw"),
                new FileChooser.ExtensionFilter("All files", "*"));
        File f = fc.showSaveDialog(ctx.stage());
        if (f != null) exportBytes(ctx, detail, f.toPath());
    }

    /** Writes the selected line's bytes, raw, to out (a few KB at most: on the JavaFX thread). */
    static void exportBytes(GuiContext ctx, FrameDetail detail, Path out) {
        byte[] b = selectedBytes(ctx, detail);
        if (b == null) return;
        try {
            Files.write(out, b);
            ctx.status("Exported " + b.length + " bytes to " + out);
        } catch (IOException e) {
            ctx.error("Cannot write " + out + ": " + failure(e));
        }
    }
}

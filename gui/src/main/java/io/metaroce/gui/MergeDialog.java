package io.metaroce.gui;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.CaptureMerge;
import io.metaroce.capture.CaptureOutput;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.PacketSource;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;

/**
 * File > Merge...: Wireshark's. Another capture and how its packets join the open one's (prepended, merged
 * chronologically, appended); the merge ({@link CaptureMerge}, as {@code metaroce merge}) goes to a temporary pcapng
 * file, written off the JavaFX thread, which opens as an unsaved capture: the title says {@code *}, and Save asks
 * where to keep it, as Wireshark does with a merge.
 */
final class MergeDialog {
    /** Wireshark's three choices, in its dialog's order. */
    enum Order {
        PREPEND("Prepend packets"), CHRONOLOGICAL("Merge chronologically"), APPEND("Append packets");

        final String label;

        Order(String label) {
            this.label = label;
        }
    }

    private MergeDialog() { }

    /**
     * The File menu's Merge... item (disabled while nothing is open). confirm: the main window's unsaved-changes
     * question (Wireshark asks to save the open capture before it merges).
     */
    static MenuItem menuItem(GuiContext ctx, Predicate<String> confirm) {
        MenuItem merge = new MenuItem("Merge...");
        merge.setId("menu-merge");
        merge.disableProperty().bind(ctx.captureProperty().isNull());
        merge.setOnAction(e -> {
            if (ctx.capture() != null && confirm.test("merging it")) show(ctx);
        });
        return merge;
    }

    static void show(GuiContext ctx) {
        Dialog<ButtonType> d = new Dialog<>();
        d.initOwner(ctx.stage());
        d.setTitle("Merge with Capture File");
        TextField file = new TextField();
        file.setId("merge-file");
        file.setPrefColumnCount(40);
        HBox.setHgrow(file, Priority.ALWAYS);
        Button browse = new Button("Browse...");
        browse.setOnAction(e -> {
            FileChooser fc = new FileChooser();
            fc.setTitle("Merge with Capture File");
            fc.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("Captures (pcap, pcapng, gzip-compressed or not)",
                    "*.pcap", "*.pcapng", "*.cap", "*.pcap.gz", "*.pcapng.gz", "*.cap.gz"), new FileChooser.ExtensionFilter("All files", "*"));
            Path open = ctx.capture() == null ? null : ctx.capture().file().toAbsolutePath().getParent();
            if (open != null) fc.setInitialDirectory(open.toFile());
            File f = fc.showOpenDialog(d.getDialogPane().getScene().getWindow());
            if (f != null) file.setText(f.toString());
        });
        ToggleGroup group = new ToggleGroup();
        VBox box = new VBox(6, new Label("Capture file to merge with " + ctx.capture().file().getFileName() + ":"), new HBox(6, file, browse));
        for (Order o : Order.values()) {
            RadioButton b = new RadioButton(o.label);
            b.setId("merge-" + o.name().toLowerCase());
            b.setUserData(o);
            b.setToggleGroup(group);
            b.setSelected(o == Order.CHRONOLOGICAL);     // Wireshark's default
            box.getChildren().add(b);
        }
        box.setPadding(new Insets(10));
        d.getDialogPane().setContent(box);
        d.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        d.getDialogPane().lookupButton(ButtonType.OK).disableProperty().bind(file.textProperty().isEmpty());
        d.showAndWait().ifPresent(bt -> {
            if (bt == ButtonType.OK) merge(ctx, Path.of(file.getText().strip()), (Order) group.getSelectedToggle().getUserData());
        });
    }

    /**
     * Merges the open capture with other in the background (the status bar says so), then opens the result as an
     * unsaved capture. A file that cannot be read, or is damaged, is said in one message; what could be read is merged.
     */
    static void merge(GuiContext ctx, Path other, Order order) {
        OpenCapture c = ctx.capture();
        if (c == null) return;
        Path open = c.file();
        ctx.status("Merging " + open.getFileName() + " with " + other.getFileName() + " ...");
        Thread.ofPlatform().daemon().name("metaroce-gui-merge").start(() -> {
            Path out = null;
            List<PacketSource> sources = new ArrayList<>();
            try {
                PacketSource mine = CaptureFiles.open(open), theirs = CaptureFiles.open(other);
                sources.add(order == Order.PREPEND ? theirs : mine);
                sources.add(order == Order.PREPEND ? mine : theirs);
                // Wireshark names its merge's temporary file after the first capture; ours too, so the title says which.
                out = Files.createTempFile("metaroce-merge-" + stem(open) + "-", ".pcapng");
                out.toFile().deleteOnExit();
                try (CaptureOutput w = new CaptureOutput(out, CaptureFormat.PCAPNG, CaptureMerge.sectionComment(sources))) {
                    CaptureMerge.merge(sources, w, order != Order.CHRONOLOGICAL, 0);
                }
                StringBuilder damage = new StringBuilder();
                for (PacketSource s : sources) {
                    for (CaptureProblem p : s.problems()) damage.append(damage.isEmpty() ? "" : "\n").append(p.message());
                }
                Path merged = out;
                String problems = damage.toString();
                Platform.runLater(() -> {
                    ctx.openUnsaved(merged);
                    if (!problems.isEmpty()) ctx.error("Merged what could be read; " + other.getFileName() + " or "
                            + open.getFileName() + " is damaged:\n" + problems);
                });
            } catch (IOException | RuntimeException e) {
                if (out != null) deleteQuietly(out);
                String why = e.getMessage();
                Platform.runLater(() -> {
                    ctx.status("Not merged");
                    ctx.error("Cannot merge " + open.getFileName() + " with " + other + ":\n" + why);
                });
            } finally {
                for (PacketSource s : sources) s.close();
            }
        });
    }

    private static String stem(Path file) {
        String name = file.getFileName().toString();
        int dot = name.indexOf('.');
        return (dot > 0 ? name.substring(0, dot) : name).replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a temporary file: deleted at exit otherwise
        }
    }
}

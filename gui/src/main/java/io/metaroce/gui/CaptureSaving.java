package io.metaroce.gui;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javafx.application.Platform;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.MenuItem;
import javafx.scene.input.KeyCombination;
import javafx.stage.FileChooser;

/**
 * File > Save and Save As..., and Wireshark's unsaved-changes prompt ("Do you want to save the changes you've made
 * to the capture file X before closing it?": Save / Continue without Saving / Cancel) before Close, Open, Reload and
 * Quit drop edited packet comments or an unsaved live capture. Every frame is written with the comments as edited
 * (pcapng; pcap cannot hold comments: Wireshark's warning, which offers pcapng) off the JavaFX thread with progress
 * and Cancel ({@link BackgroundSave}), into a temporary file beside the target moved over it at the end, so that
 * saving over the open (mapped) file itself is safe; the window then shows the saved file. The prompt and the file chooser are replaceable (tests answer them).
 */
final class CaptureSaving {
    enum Format { PCAPNG, PCAP }

    /** A prompt's answer: the first button (Save), the second (Continue without Saving, ...), Cancel. */
    enum Answer { SAVE, DISCARD, CANCEL }

    /** Asks the user: a question with its two choices and Cancel. */
    interface Asker {
        Answer ask(String header, String text, String save, String discard);
    }

    /** Where to save (Save As...): a file and its format; null when the user cancelled. */
    record Target(Path file, Format format) { }

    interface Chooser {
        Target choose(Path openFile);
    }

    private final GuiContext ctx;
    private Asker asker = this::dialog;
    private Chooser chooser = this::fileDialog;

    CaptureSaving(GuiContext ctx) {
        this.ctx = ctx;
        ctx.setBeforeDiscard(this::confirm);
    }

    void setAsker(Asker a) { asker = a; }

    void setChooser(Chooser c) { chooser = c; }

    /** File > Save (only when there is something to save) and Save As.... */
    List<MenuItem> fileMenuItems() {
        MenuItem save = new MenuItem("Save");
        save.setId("menu-save");
        save.setAccelerator(KeyCombination.keyCombination("Shortcut+S"));
        save.setOnAction(e -> save());     // in the background: the status bar shows it
        save.disableProperty().bind(ctx.unsavedProperty().not());
        MenuItem saveAs = new MenuItem("Save As...");
        saveAs.setId("menu-save-as");
        saveAs.setAccelerator(KeyCombination.keyCombination("Shortcut+Shift+S"));
        saveAs.setOnAction(e -> saveAs());
        saveAs.disableProperty().bind(ctx.captureProperty().isNull());
        return List.of(save, saveAs);
    }

    /**
     * Save: over the open file when it is a pcapng file of its own (not a live capture's temporary file, not a pcap
     * or a compressed file, which cannot hold the comments as they are): else as Save As.... Completes with true
     * when saved (on the JavaFX thread, the saved file opening), false when not (cancelled, failed).
     */
    CompletableFuture<Boolean> save() {
        OpenCapture c = ctx.capture();
        if (c == null) return NOT_SAVED;
        if (ctx.isLiveUnsaved() || !isPcapng(c.file())) return saveAs();
        return saveTo(c.file(), Format.PCAPNG);
    }

    /** Save As...: the chooser's file and format; completes as {@link #save()}. */
    CompletableFuture<Boolean> saveAs() {
        OpenCapture c = ctx.capture();
        if (c == null) return NOT_SAVED;
        Target t = chooser.choose(c.file());
        return t == null ? NOT_SAVED : saveTo(t.file(), t.format());
    }

    private static final CompletableFuture<Boolean> NOT_SAVED = CompletableFuture.completedFuture(false);

    /**
     * Writes the open capture to out (every frame, the comments as edited) in the background ({@link BackgroundSave}:
     * progress and Cancel in the status bar, a temporary file moved over out at the end) and then shows that file.
     * pcap with comments: asks first (save as pcapng instead, beside it with the .pcapng extension; or drop them; or
     * cancel). Errors go to the user as one line. Completes with true when saved.
     */
    CompletableFuture<Boolean> saveTo(Path out, Format format) {
        OpenCapture c = ctx.capture();
        if (c == null) return NOT_SAVED;
        if (ctx.isLoading()) {
            ctx.error("The capture is still being read or analyzed: save it when it is done.");
            return NOT_SAVED;
        }
        if (format == Format.PCAP && ctx.commentedFrames().length > 0) {
            Answer a = asker.ask("The pcap format cannot hold packet comments.",
                    "The " + ctx.commentedFrames().length + " commented packets would lose their comments. Save in pcapng instead?",
                    "Save as pcapng", "Save as pcap without comments");
            if (a == Answer.CANCEL) return NOT_SAVED;
            if (a == Answer.SAVE) {
                out = withExtension(out, ".pcapng");
                format = Format.PCAPNG;
            }
        }
        Path target = out.toAbsolutePath();
        // Read on this thread: the writer's thread must not touch the JavaFX state.
        PacketComments.State comments = ctx.commentsState();
        var stats = c.source().stats();
        boolean pcapng = format == Format.PCAPNG;
        BackgroundSave.Writer writer = (tmp, progress) -> pcapng ? PacketExport.writeAll(c.index(), comments, stats, tmp, progress)
                : PacketExport.writeAllPcap(c.index(), tmp, progress);
        return BackgroundSave.start(ctx, target, "Saving", writer, n -> {
            if (ctx.capture() == c) ctx.openSaved(target);
            ctx.status("Saved " + n + " packets to " + target.getFileName());
        }).thenApply(n -> n >= 0);
    }

    /**
     * Waits on the JavaFX thread for a save that a question's "Save" started (Close, Open, Reload and Quit go on only
     * once it is written): a nested event loop, so that the window repaints, the progress moves and Cancel works.
     */
    private static boolean await(CompletableFuture<Boolean> saving) {
        if (saving.isDone() || !Platform.isFxApplicationThread()) return saving.join();
        Object key = new Object();
        saving.whenComplete((ok, e) -> Platform.runLater(() -> Platform.exitNestedEventLoop(key, null)));
        Platform.enterNestedEventLoop(key);
        return saving.join();
    }

    /**
     * Before action drops the open capture (Close: "closing it", Open: "opening another file", Quit: "quitting"):
     * when something is unsaved, Wireshark's question. True when the action may go on (saved, or the user chose to
     * lose the changes); false: Cancel, or the save failed.
     */
    boolean confirm(String action) {
        if (ctx.isSaving()) {
            // Wireshark's save is modal: nothing drops the capture under it. Here it runs in the background, so ask
            // for the end or the Cancel of it instead of closing the file it reads.
            ctx.error("A save is still running: wait for it to finish or press Cancel in the status bar before " + action + ".");
            return false;
        }
        OpenCapture c = ctx.capture();
        if (c == null || !ctx.hasUnsavedChanges()) return true;
        String name = ctx.isLiveUnsaved() ? "of the live capture" : c.file().getFileName().toString();
        Answer a = asker.ask("Do you want to save the changes you've made to the capture file " + name + " before " + action + "?",
                ctx.isLiveUnsaved() ? "Your captured packets will be lost if you don't save them."
                        : "Your packet comments will be lost if you don't save them.",
                "Save", "Continue without Saving");
        return switch (a) {
            case SAVE -> await(save());
            case DISCARD -> {
                ctx.discardChanges();
                yield true;
            }
            case CANCEL -> false;
        };
    }

    /** True when the file starts with a pcapng Section Header Block (not pcap, not gzip). */
    static boolean isPcapng(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] magic = in.readNBytes(4);
            return magic.length == 4 && magic[0] == 0x0A && magic[1] == 0x0D && magic[2] == 0x0D && magic[3] == 0x0A;
        } catch (IOException e) {
            return false;
        }
    }

    static Path withExtension(Path p, String ext) {
        String name = p.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return p.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + ext);
    }

    private Answer dialog(String header, String text, String save, String discard) {
        ButtonType saveButton = new ButtonType(save, ButtonBar.ButtonData.YES);
        ButtonType discardButton = new ButtonType(discard, ButtonBar.ButtonData.NO);
        Alert alert = new Alert(Alert.AlertType.WARNING, text, saveButton, discardButton, ButtonType.CANCEL);
        alert.initOwner(ctx.stage());
        alert.setTitle("Unsaved packets");
        alert.setHeaderText(header);
        ButtonType b = alert.showAndWait().orElse(ButtonType.CANCEL);
        return b == saveButton ? Answer.SAVE : b == discardButton ? Answer.DISCARD : Answer.CANCEL;
    }

    private Target fileDialog(Path openFile) {
        FileChooser fc = new FileChooser();
        fc.setTitle("Save Capture File As");
        FileChooser.ExtensionFilter pcapng = new FileChooser.ExtensionFilter("pcapng (keeps packet comments)", "*.pcapng");
        FileChooser.ExtensionFilter pcap = new FileChooser.ExtensionFilter("pcap (nanosecond timestamps, no comments)", "*.pcap");
        fc.getExtensionFilters().addAll(pcapng, pcap);
        if (!ctx.isLiveUnsaved() && openFile.getParent() != null) {
            fc.setInitialDirectory(openFile.getParent().toFile());
            fc.setInitialFileName(openFile.getFileName().toString());
        }
        File f = fc.showSaveDialog(ctx.stage());
        if (f == null) return null;
        Format format = fc.getSelectedExtensionFilter() == pcap || f.getName().endsWith(".pcap") ? Format.PCAP : Format.PCAPNG;
        return new Target(f.toPath(), format);
    }
}

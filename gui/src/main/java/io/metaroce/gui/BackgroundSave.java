package io.metaroce.gui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;
import javafx.application.Platform;

/**
 * Writing a capture file off the JavaFX thread (File > Save, Save As..., Export Specified Packets), as Wireshark's
 * "Saving ..." with its progress bar and Stop in the status bar: the window stays responsive, the status bar shows
 * the progress and its Cancel stops the write. The frames go to a temporary file beside the target
 * ({@code .NAME.*.saving}, same folder: the move is a rename) moved over the target only when complete, so that a
 * cancelled or failed save leaves no half file and an existing target (the open file itself) as it was. One save at a
 * time; Close, Open, Reload and Quit wait for it ({@link CaptureSaving#confirm}).
 */
final class BackgroundSave {
    /** Writes the frames to tmp, reporting to progress; returns the number of frames written. */
    interface Writer {
        int write(Path tmp, PacketExport.Progress progress) throws IOException;
    }

    private BackgroundSave() { }

    /**
     * Starts writing target in the background; verb names the job in the status bar ("Saving", "Exporting"). On the
     * JavaFX thread when done: saved gets the frames written (and sets the status itself), or the status says the save
     * was cancelled, or error gets "Cannot save TARGET: why" (one line). The future completes after that with the
     * frames written, or -1 (cancelled, failed, or another save running).
     */
    static CompletableFuture<Integer> start(GuiContext ctx, Path target, String verb, Writer writer, IntConsumer saved) {
        CompletableFuture<Integer> result = new CompletableFuture<>();
        Path out = target.toAbsolutePath();
        GuiContext.Work w = ctx.startSaving(verb + " " + out.getFileName() + " ...");
        if (w == null) {
            ctx.error("Another save is still running: wait for it or press Cancel in the status bar.");
            result.complete(-1);
            return result;
        }
        PacketExport.Progress progress = new PacketExport.Progress() {
            @Override public void report(double fraction) { w.report(fraction); }

            @Override public boolean cancelled() { return w.cancelled; }
        };
        Thread.ofPlatform().daemon().name("metaroce-gui-save").start(() -> {
            Path tmp = null;
            try {
                tmp = Files.createTempFile(out.getParent(), "." + out.getFileName() + ".", ".saving");
                int n = writer.write(tmp, progress);
                if (w.cancelled) throw new CancellationException();
                try {
                    Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (java.nio.file.AtomicMoveNotSupportedException e) {
                    Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
                }
                Platform.runLater(() -> {
                    ctx.finishWork(w, verb + " " + out.getFileName() + ": done");
                    saved.accept(n);
                    result.complete(n);
                });
            } catch (CancellationException e) {
                delete(tmp);
                Platform.runLater(() -> {
                    ctx.finishWork(w, verb + " cancelled: " + (Files.exists(out) ? out.getFileName() + " left as it was" : "nothing written"));
                    result.complete(-1);
                });
            } catch (IOException | RuntimeException e) {
                delete(tmp);
                // A cancel during the write may surface as the closed capture's read error: still a cancel.
                String why = w.cancelled ? null : reason(out, e);
                Platform.runLater(() -> {
                    if (why == null) ctx.finishWork(w, verb + " cancelled: " + out.getFileName() + " left as it was");
                    else {
                        ctx.finishWork(w, verb + " failed");
                        ctx.error("Cannot save " + out + ": " + why);
                    }
                    result.complete(-1);
                });
            }
        });
        return result;
    }

    /** The reason of a failed save, in one line (the folder, the permission, or the exception's message). */
    static String reason(Path target, Exception e) {
        return e instanceof java.nio.file.NoSuchFileException ? "no such directory: " + target.getParent()
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied: " + e.getMessage()
                : e.getMessage() == null ? e.toString() : e.getMessage();
    }

    private static void delete(Path tmp) {
        if (tmp == null) return;
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
            // A temporary file left in a folder that refused the save: nothing more to do.
        }
    }
}

package io.metaroce.gui.graph;

import java.awt.image.BufferedImage;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.image.Image;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.PixelReader;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.stage.FileChooser;
import javafx.stage.Stage;
import javafx.stage.Window;
import javax.imageio.ImageIO;

/**
 * "Save As..." of the graph windows, as Wireshark's graph dialogs have it: the graph as drawn (the whole plot pane:
 * axes, legend, selection) as PNG at the window's size, or the data it plots as CSV (decimated plots write their
 * underlying points, not the pixels). The file type follows the extension chosen (.csv, else PNG). The picture is
 * taken on the JavaFX thread (a {@link Node#snapshot}); the encoding and writing run off it. PNG goes through
 * {@code javax.imageio} from the snapshot's {@link PixelReader}, so no javafx-swing dependency is needed.
 */
public final class GraphExport {
    private GraphExport() { }

    /** Writes a graph's data as CSV (off the JavaFX thread: the model it reads is immutable); null: no data yet. */
    @FunctionalInterface
    public interface Csv {
        void write(Writer out) throws IOException;
    }

    /** Supplies the CSV writer of what the graph shows now (null when it shows nothing). */
    @FunctionalInterface
    public interface CsvSource {
        Csv current();
    }

    /**
     * A save dialog offering a PNG image or another type (description, extension); the file chosen, with the chosen
     * type's extension added when its name was typed without one; null when cancelled.
     */
    static Path choosePngOr(Window owner, String title, String baseName, String otherDescription, String otherExtension) {
        FileChooser fc = new FileChooser();
        fc.setTitle(title);
        FileChooser.ExtensionFilter png = new FileChooser.ExtensionFilter("PNG image (*.png)", "*.png");
        FileChooser.ExtensionFilter other = new FileChooser.ExtensionFilter(otherDescription + " (*." + otherExtension + ")",
                "*." + otherExtension);
        fc.getExtensionFilters().addAll(png, other);
        fc.setInitialFileName(baseName + ".png");
        File f = fc.showSaveDialog(owner);
        if (f == null) return null;
        Path p = f.toPath();
        if (p.getFileName().toString().contains(".")) return p;
        return Path.of(p + (fc.getSelectedExtensionFilter() == other ? "." + otherExtension : ".png"));
    }

    /**
     * The "Save As..." button of a graph window's bar; {@link #install} adds Shortcut+S to the window once shown.
     * name is the suggested file name without extension.
     */
    public static Button button(Node graph, String name, CsvSource csv, Label status) {
        Button b = new Button("Save As...");
        b.setId("graph-save-as");
        b.setOnAction(e -> {
            Path p = choosePngOr(b.getScene() == null ? null : b.getScene().getWindow(), "Save Graph As",
                    name.replaceAll("[^A-Za-z0-9._-]+", "_"), "CSV of the plotted data", "csv");
            if (p != null) save(graph, csv, p, status);
        });
        // What the button does once a file is chosen, for the tests (the FileChooser is native and cannot be driven).
        b.getProperties().put(SAVE_TO, (BiConsumer<Path, Consumer<String>>)
                (p, done) -> save(graph, csv, p, status, done));
        return b;
    }

    private static final String SAVE_TO = "metaroce.graph.saveTo";

    /** Saves as a Save As button would after its file chooser returned file; on the JavaFX thread. */
    @SuppressWarnings("unchecked")
    public static void saveTo(Button saveAs, Path file, Consumer<String> done) {
        ((BiConsumer<Path, Consumer<String>>) saveAs.getProperties().get(SAVE_TO)).accept(file, done);
    }

    /** Shortcut+S (Ctrl+S, Cmd+S) in the graph's window presses its Save As button. */
    public static void install(Stage stage, Button saveAs) {
        stage.getScene().getAccelerators().put(new KeyCodeCombination(KeyCode.S, KeyCombination.SHORTCUT_DOWN), saveAs::fire);
    }

    /** Whether a file name asks for CSV (else PNG). */
    static boolean isCsv(Path file) {
        return file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv");
    }

    /**
     * Saves the graph to a file, PNG or CSV by its extension; on the JavaFX thread. The status label says where it
     * went or why not; the write itself runs in the background (done, when not null, runs after it on the JavaFX
     * thread, with the error or null: tests wait on it).
     */
    public static void save(Node graph, CsvSource csv, Path file, Label status, Consumer<String> done) {
        Runnable work;
        if (isCsv(file)) {
            Csv c = csv == null ? null : csv.current();
            if (c == null) {
                finish(status, done, "Nothing to save as CSV yet: the graph has no data");
                return;
            }
            work = () -> {
                try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                    c.write(w);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            };
        } else {
            Image img = graph.snapshot(null, null);
            work = () -> {
                try {
                    writePng(img, file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            };
        }
        if (status != null) status.setText("Saving " + file.getFileName() + " ...");
        Thread.ofPlatform().daemon().name("metaroce-graph-save").start(() -> {
            String error = null;
            try {
                work.run();
            } catch (UncheckedIOException e) {
                error = "Could not save " + file + ": " + e.getCause().getMessage();
            } catch (RuntimeException e) {
                error = "Could not save " + file + ": " + e;
            }
            String err = error;
            Platform.runLater(() -> finish(status, done, err == null ? null : err, file));
        });
    }

    public static void save(Node graph, CsvSource csv, Path file, Label status) { save(graph, csv, file, status, null); }

    private static void finish(Label status, Consumer<String> done, String error) {
        if (status != null) status.setText(error);
        if (done != null) done.accept(error);
    }

    private static void finish(Label status, Consumer<String> done, String error, Path file) {
        if (status != null) status.setText(error != null ? error : "Saved " + file);
        if (done != null) done.accept(error);
    }

    /** A JavaFX image as PNG through ImageIO (one int per pixel, read row by row). */
    public static void writePng(Image img, Path file) throws IOException {
        int w = (int) img.getWidth(), h = (int) img.getHeight();
        BufferedImage b = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        PixelReader r = img.getPixelReader();
        int[] row = new int[w];
        for (int y = 0; y < h; y++) {
            r.getPixels(0, y, w, 1, PixelFormat.getIntArgbInstance(), row, 0, w);
            b.setRGB(0, y, w, 1, row, 0, w);
        }
        if (!ImageIO.write(b, "png", file.toFile())) throw new IOException("no PNG writer");
    }

    /**
     * The Diagnosis window's loss timeline: a row per finer bin ({@link io.metaroce.gui.stats.DiagnosisRun#FINE_BINS},
     * which the drawn columns merge), its start since the first frame, a column per count drawn.
     */
    public static void lossTimeline(io.metaroce.gui.stats.DiagnosisRun r, java.util.List<Integer> rows, Writer w) throws IOException {
        int n = io.metaroce.gui.stats.DiagnosisRun.FINE_BINS;
        long[][] c = new long[rows.size()][];
        w.write("\"Interval start\"");
        for (int i = 0; i < rows.size(); i++) {
            w.write(",\"" + io.metaroce.gui.stats.DiagnosisRun.LABELS[rows.get(i)] + '"');
            c[i] = r.columns(rows.get(i), n);
        }
        w.write("\r\n");
        for (int b = 0; b < n; b++) {
            w.write(seconds(b * r.binNs()));
            for (long[] col : c) w.write("," + col[b]);
            w.write("\r\n");
        }
    }

    // ------------------------------------------------------------------ CSV helpers

    /** An RFC 4180 field (the tables' Copy as CSV quotes the same way). */
    public static String field(String s) { return io.metaroce.gui.stats.TableCopy.field(s); }

    /** A number as the CSV writes it: whole numbers without a fraction, others with up to 9 decimals, no exponent. */
    public static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return "";
        if (v == Math.rint(v) && Math.abs(v) < 1e18) return Long.toString((long) v);
        return new java.math.BigDecimal(v).setScale(9, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }

    /** Nanoseconds as seconds with 9 decimals ("0.000019476"). */
    public static String seconds(long ns) { return io.metaroce.analysis.FlowGraph.Text.seconds(ns); }
}

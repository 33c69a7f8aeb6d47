package io.metaroce.gui.testutil;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.scene.image.Image;
import javafx.scene.image.PixelReader;
import javax.imageio.ImageIO;

/** Writes a JavaFX image as PNG through ImageIO (no javafx-swing needed), and measures what it shows. */
public final class Png {
    private Png() {}

    public static void write(Image img, Path file) throws IOException {
        int w = (int) img.getWidth(), h = (int) img.getHeight();
        BufferedImage b = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        PixelReader r = img.getPixelReader();
        for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) b.setRGB(x, y, r.getArgb(x, y));
        Files.createDirectories(file.toAbsolutePath().getParent());
        ImageIO.write(b, "png", file.toFile());
    }

    /** Fraction of pixels within a small distance of an RGB colour (alpha ignored). */
    public static double fraction(Image img, int rgb) {
        int w = (int) img.getWidth(), h = (int) img.getHeight(), n = 0;
        PixelReader r = img.getPixelReader();
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int c = r.getArgb(x, y);
                if (Math.abs(((c >> 16) & 0xFF) - ((rgb >> 16) & 0xFF)) < 24 && Math.abs(((c >> 8) & 0xFF) - ((rgb >> 8) & 0xFF)) < 24
                        && Math.abs((c & 0xFF) - (rgb & 0xFF)) < 24) n++;
            }
        return (double) n / ((long) w * h);
    }
}

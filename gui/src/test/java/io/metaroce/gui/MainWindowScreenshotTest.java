package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * Screenshots of the main window in a real window (GTK under Xvfb, software rendering), for two samples, written to
 * {@code gui/target/screenshots/}: run by the module's "screenshots" test execution when a display is set (CI runs
 * the build under xvfb-run); the Monocle executions skip it. The README's image is one of these.
 */
@EnabledIfEnvironmentVariable(named = "DISPLAY", matches = ".+", disabledReason = "needs a display: run under xvfb-run (CI does)")
class MainWindowScreenshotTest extends GuiTestBase {
    @Start
    void start(Stage s) throws Exception {
        assumeTrue(!"Monocle".equals(System.getProperty("glass.platform")), "a real window, not the headless platform");
        setUp(s);
        s.setWidth(1400);
        s.setHeight(900);
    }

    @Test
    void mainWindowOfTwoSamples(FxRobot robot) throws Exception {
        shoot(robot, "metaroce-spray-lossy-path", Samples.labelled("metaroce-spray-lossy-path", "spurious").getFirst(), null);
        shoot(robot, "rocev2-gbn-loss", Samples.labelled("rocev2-gbn-loss", "retransmission").getFirst(), "aeth || analysis.retransmission");
    }

    /** Go > Flow Search on an index of sample captures: the flows with NAKs or CE marks, and the QPs with the most NAKs. */
    @Test
    void flowSearchWindow(FxRobot robot) throws Exception {
        io.metaroce.gui.search.SampleIndex idx = io.metaroce.gui.search.SampleIndex.get();
        menuItem(robot, "menu-flow-search");
        Fx.until("flow search window", () -> robot.lookup("#flow-search").tryQuery().isPresent());
        javafx.scene.Parent root = robot.lookup("#flow-search").queryAs(javafx.scene.Parent.class);
        robot.interact(() -> {
            robot.lookup("#search-index").queryAs(javafx.scene.control.TextField.class).setText(idx.index.toString());
            robot.lookup("#search-query").queryAs(javafx.scene.control.ComboBox.class).getEditor().setText("naks:>0 OR ce_marks:>0");
            robot.lookup("#search-run").queryAs(javafx.scene.control.Button.class).fire();
        });
        javafx.scene.control.TableView<?> hits = robot.lookup("#search-results").queryAs(javafx.scene.control.TableView.class);
        Fx.until("hits", () -> !hits.getItems().isEmpty() && !robot.lookup("#search-busy").query().isVisible());
        robot.interact(() -> robot.lookup("#search-show-top").queryAs(javafx.scene.control.Button.class).fire());
        javafx.scene.control.TableView<?> facet = robot.lookup("#search-facet").queryAs(javafx.scene.control.TableView.class);
        Fx.until("facet", () -> !facet.getItems().isEmpty() && !robot.lookup("#search-busy").query().isVisible());
        Fx.until("rendered", () -> true);
        WritableImage[] img = new WritableImage[1];
        robot.interact(() -> img[0] = root.getScene().snapshot(null));
        Path dir = Path.of("target", "screenshots");
        Files.createDirectories(dir);
        Path png = dir.resolve("flow-search.png");
        BufferedImage b = toAwt(img[0]);
        ImageIO.write(b, "png", png.toFile());
        Set<Integer> colours = new HashSet<>();
        boolean green = false;
        for (int y = 0; y < b.getHeight(); y += 2)
            for (int x = 0; x < b.getWidth(); x += 2) {
                int c = b.getRGB(x, y) & 0xFFFFFF;
                colours.add(c);
                green |= c == 0xafffaf;
            }
        assertTrue(colours.size() > 50, "a rendered window, not a blank one: " + colours.size() + " colours");
        assertTrue(green, "the valid query is green in " + png);
    }

    private void shoot(FxRobot robot, String name, int select, String filter) throws Exception {
        open(robot, name);
        if (filter != null) {
            robot.interact(() -> {
                window.filterBar().prepare(filter);
                window.filterBar().apply();
            });
            Fx.until("filter", () -> !ctx.busyProperty().get() && ctx.appliedFilterProperty().get().equals(filter));
        }
        robot.interact(() -> ctx.select(select));
        robot.interact(() -> {
            var tree = window.detail().tree();
            for (var item : tree.getRoot().getChildren())
                if (item.getValue().text().startsWith("Base Transport") || item.getValue().text().startsWith("MetaRoCE Transport"))
                    item.setExpanded(true);
        });
        Fx.until("rendered", () -> true);
        WritableImage[] img = new WritableImage[1];
        robot.interact(() -> img[0] = stage.getScene().snapshot(null));
        Path dir = Path.of("target", "screenshots");
        Files.createDirectories(dir);
        Path png = dir.resolve("main-" + name + ".png");
        BufferedImage b = toAwt(img[0]);
        ImageIO.write(b, "png", png.toFile());
        assertEquals((int) stage.getScene().getWidth(), b.getWidth());
        // The packet list is drawn with its coloring rules: rows in the retransmission colours are on the picture.
        Set<Integer> colours = new HashSet<>();
        boolean retx = false;
        for (int y = 0; y < b.getHeight(); y += 2)
            for (int x = 0; x < b.getWidth(); x += 2) {
                int c = b.getRGB(x, y) & 0xFFFFFF;
                colours.add(c);
                retx |= c == 0xf0a0a0 || c == 0x5c3566;
            }
        assertTrue(colours.size() > 50, "a rendered window, not a blank one: " + colours.size() + " colours");
        assertTrue(retx, "retransmission rows are coloured in " + png);
    }

    private static BufferedImage toAwt(WritableImage img) {
        int w = (int) img.getWidth(), h = (int) img.getHeight();
        BufferedImage b = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        PixelReader r = img.getPixelReader();
        for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) b.setRGB(x, y, r.getArgb(x, y));
        return b;
    }
}

package io.metaroce.gui.testutil;

import io.metaroce.gui.GuiContext;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * The fixture of the tests of the statistics and graph windows (headless, Monocle): a {@link GuiContext} on a
 * small stand-in main window that owns the windows under test, every such window closed after each test. A test
 * class calls {@link #setUp} from its own {@code @Start} method (TestFX looks for it on the test class itself).
 */
@ExtendWith(ApplicationExtension.class)
public abstract class WindowTestBase {
    protected GuiContext ctx;

    protected void setUp(Stage stage) {
        ctx = new GuiContext(stage);
        stage.setScene(new Scene(new Label("main window"), 300, 100));
        stage.show();
    }

    @AfterEach
    public void closeWindows(FxRobot robot) {
        GuiHarness.closeWindows(robot);
    }
}

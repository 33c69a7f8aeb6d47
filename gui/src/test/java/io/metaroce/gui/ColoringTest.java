package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.ListView;
import javafx.scene.control.TableRow;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/** Rows take the colours of the first matching coloring rule; the dialog edits, saves and applies the rules. */
class ColoringTest extends GuiTestBase {
    @Start
    void start(Stage s) throws Exception { setUp(s); }

    private String rowStyle(FxRobot robot, int frame) {
        TableRow<?> r = row(robot, frame);
        return r.getStyle();
    }

    private static String bg(String rule) {
        return ColoringRules.defaults().rules().stream().filter(r -> r.name().equals(rule)).findFirst().orElseThrow().background();
    }

    @Test
    void defaultRulesColourBadIcrcRetransmissionsCreditStallsAndPathDown(FxRobot robot) {
        open(robot, "rocev2-gbn-loss");
        int retx = Samples.labelled("rocev2-gbn-loss", "retransmission").getFirst();
        assertTrue(rowStyle(robot, retx).contains(bg("Retransmission")), rowStyle(robot, retx));
        assertEquals("", rowStyle(robot, 1).contains(bg("Retransmission")) ? "retx colour on frame 1" : "");

        open(robot, "conformance-violations");
        assertTrue(rowStyle(robot, 171).contains(bg("Bad ICRC")), rowStyle(robot, 171));
        assertTrue(rowStyle(robot, 498).contains(bg("Credit stall")), rowStyle(robot, 498));

        open(robot, "metaroce-path-down");
        assertTrue(rowStyle(robot, 145).contains(bg("Path down")), rowStyle(robot, 145));
    }

    @Test
    void theDialogAddsARuleThatIsSavedAndColoursTheList(FxRobot robot) throws Exception {
        open(robot, "rocev2-gbn-loss");
        @SuppressWarnings("unchecked")
        Dialog<ButtonType>[] d = new Dialog[1];
        robot.interact(() -> {
            d[0] = ColoringDialog.create(stage, window.packets().rules(), config.resolve("colorfilters"), window.packets()::setRules);
            d[0].show();
        });
        robot.clickOn("#coloring-add");
        @SuppressWarnings("unchecked")
        ListView<ColoringRules.Rule> list = (ListView<ColoringRules.Rule>) robot.lookup("#coloring-list").queryAs(ListView.class);
        assertEquals(ColoringRules.defaults().rules().size() + 1, list.getItems().size());
        TextField filter = robot.lookup("#coloring-filter").queryAs(TextField.class);
        robot.interact(() -> filter.setText("frame.number == "));
        assertTrue(robot.lookup("#coloring-error").queryLabeled().getText().startsWith("column "));
        robot.interact(() -> {
            filter.setText("frame.number == 1");
            robot.lookup("#coloring-name").queryAs(TextField.class).setText("First");
            // Move it to the top so that it wins over the defaults.
            while (list.getSelectionModel().getSelectedIndex() > 0) {
                int i = list.getSelectionModel().getSelectedIndex();
                ColoringRules.Rule r = list.getItems().remove(i);
                list.getItems().add(i - 1, r);
                list.getSelectionModel().select(i - 1);
            }
            d[0].setResult(ButtonType.OK);
            d[0].close();
        });
        String saved = Files.readString(config.resolve("colorfilters"));
        assertTrue(saved.contains("@First@frame.number == 1@[0,0,0][65535,65535,65535]"), saved);
        assertEquals("First", window.packets().rules().rules().getFirst().name());
        assertTrue(rowStyle(robot, 1).contains("#ffffff"), rowStyle(robot, 1));
        assertEquals("First", ColoringRules.load(config.resolve("colorfilters")).rules().getFirst().name());
    }
}

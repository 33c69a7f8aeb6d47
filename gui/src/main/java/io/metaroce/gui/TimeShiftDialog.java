package io.metaroce.gui;

import java.util.List;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.RadioButton;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

/**
 * Edit > Time Shift... (Ctrl+Shift+T), as Wireshark's dialog: shift all packets by an offset
 * ({@code [-][[hh:]mm:]ss[.ddd]}), set one packet's time ({@code [YYYY-MM-DD] hh:mm:ss[.ddd]}, UTC as the GUI shows
 * times), and then a second packet's (the others on the line through both), or undo all shifts. Apply applies and
 * keeps the dialog open; a text or packet number it cannot take is said under the fields, in Wireshark's words,
 * and nothing changes. The shift itself is {@link TimeShift}, applied by {@link GuiContext#shiftTimes}. Also the
 * Edit menu's Time Shift... item; its neighbours Ignore/Unignore Packet are {@link IgnoreActions}.
 */
final class TimeShiftDialog {
    final Stage stage = new Stage();
    final RadioButton shiftAll = new RadioButton("Shift all packets by"), setOne = new RadioButton("Set the time for packet"),
            undo = new RadioButton("Undo all shifts");
    final CheckBox setTwo = new CheckBox("...then set packet");
    final TextField offset = new TextField(), frame1 = new TextField(), time1 = new TextField(), frame2 = new TextField(),
            time2 = new TextField();
    final Label error = new Label();
    final Button apply = new Button("Apply");
    private final GuiContext ctx;

    private TimeShiftDialog(GuiContext ctx) {
        this.ctx = ctx;
        ToggleGroup group = new ToggleGroup();
        for (RadioButton b : List.of(shiftAll, setOne, undo)) b.setToggleGroup(group);
        shiftAll.setSelected(true);
        shiftAll.setId("time-shift-all");
        setOne.setId("time-shift-set-one");
        undo.setId("time-shift-undo");
        setTwo.setId("time-shift-set-two");
        offset.setId("time-shift-offset");
        offset.setPromptText("[-][[hh:]mm:]ss[.ddd]");
        frame1.setId("time-shift-frame1");
        frame2.setId("time-shift-frame2");
        time1.setId("time-shift-time1");
        time2.setId("time-shift-time2");
        for (TextField t : List.of(time1, time2)) t.setPromptText("[YYYY-MM-DD] hh:mm:ss[.ddd] (UTC)");
        // Wireshark's defaults: the selected packet (else the first displayed), and the last displayed.
        FrameView v = ctx.view();
        int first = ctx.selectedFrame() != 0 ? ctx.selectedFrame() : v.size() == 0 ? 1 : v.frameAt(0);
        frame1.setText(String.valueOf(first));
        frame2.setText(String.valueOf(v.size() == 0 ? 1 : v.frameAt(v.size() - 1)));
        for (TextField t : List.of(frame1, frame2)) t.setPrefColumnCount(7);
        // Wide enough for the whole hint and a typed date-time with nanoseconds ("2026-11-30 02:10:05.123456789").
        for (TextField t : List.of(time1, time2)) t.setPrefColumnCount(22);
        // Typing in a row chooses it, as in Wireshark.
        offset.textProperty().addListener((o, a, b) -> shiftAll.setSelected(true));
        frame1.textProperty().addListener((o, a, b) -> setOne.setSelected(true));
        time1.textProperty().addListener((o, a, b) -> setOne.setSelected(true));
        frame2.textProperty().addListener((o, a, b) -> setTwo.setSelected(true));
        time2.textProperty().addListener((o, a, b) -> setTwo.setSelected(true));
        setTwo.disableProperty().bind(setOne.selectedProperty().not());
        for (TextField t : List.of(frame2, time2)) t.disableProperty().bind(setOne.selectedProperty().not());
        error.setId("time-shift-error");
        error.setWrapText(true);
        error.setStyle("-fx-text-fill: #a40000;");

        GridPane grid = new GridPane(8, 8);
        grid.addRow(0, shiftAll, offset, new Label("time"));
        grid.addRow(1, setOne, frame1, new Label("to"), time1);
        grid.addRow(2, setTwo, frame2, new Label("to"), time2);
        Label extrapolate = new Label("and extrapolate the time for all other packets");
        extrapolate.disableProperty().bind(setTwo.selectedProperty().not().or(setTwo.disabledProperty()));
        grid.add(extrapolate, 0, 3, 4, 1);
        grid.add(undo, 0, 4, 4, 1);
        apply.setId("time-shift-apply");
        apply.setDefaultButton(true);
        apply.setOnAction(e -> apply());
        Button close = new Button("Close");
        close.setCancelButton(true);
        close.setOnAction(e -> stage.close());
        VBox box = new VBox(10, grid, error, new HBox(8, apply, close));
        box.setPadding(new Insets(12));
        stage.initOwner(ctx.stage());
        stage.setTitle("Time Shift");
        stage.setScene(new Scene(box));
        // The capture closed or another opened: its numbers and times are not the ones typed here.
        javafx.beans.value.ChangeListener<OpenCapture> closed = (o, a, c) -> stage.close();
        ctx.captureProperty().addListener(closed);
        stage.setOnHidden(e -> ctx.captureProperty().removeListener(closed));
    }

    static TimeShiftDialog show(GuiContext ctx) {
        TimeShiftDialog d = new TimeShiftDialog(ctx);
        d.stage.show();
        return d;
    }

    /** Applies the chosen row; false (and the message under the fields) when it could not. */
    boolean apply() {
        String why = applyChoice();
        error.setText(why == null ? "" : why);
        return why == null;
    }

    private String applyChoice() {
        OpenCapture c = ctx.capture();
        if (c == null) return "No capture is open.";
        if (ctx.live() != null) return "Time shifting is not available capturing packets.";
        try {
            if (undo.isSelected()) {
                ctx.shiftTimes(null);
                return null;
            }
            if (shiftAll.isSelected()) {
                ctx.shiftTimes(TimeShift.all(ctx.timeShift(), TimeShift.parseOffset(offset.getText())));
                return null;
            }
            int n1 = frame(frame1.getText(), c.frames());
            long file1 = c.index().fileTimeNanos(n1);
            long new1 = TimeShift.parseTime(time1.getText(), file1);
            if (!setTwo.isSelected()) {
                ctx.shiftTimes(TimeShift.set(file1, new1));
                return null;
            }
            int n2 = frame(frame2.getText(), c.frames());
            long file2 = c.index().fileTimeNanos(n2);
            TimeShift two = TimeShift.two(file1, new1, file2, TimeShift.parseTime(time2.getText(), file2));
            if (two == null) return "Packets " + n1 + " and " + n2 + " have the same time: no line goes through two times set for them.";
            ctx.shiftTimes(two);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /** A packet number of the capture, or Wireshark's message. */
    private static int frame(String text, int frames) {
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= 1 && n <= frames) return n;
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("Frame numbers must be between 1 and " + frames + ".");
    }

    // ------------------------------------------------------------------ the Edit menu's item

    /** Edit > Time Shift... (Ctrl+Shift+T), after the time references as in Wireshark. */
    static List<MenuItem> timeShiftItems(GuiContext ctx) {
        return List.of(new SeparatorMenuItem(), EditActions.item("Time Shift...", "Shortcut+Shift+T", "edit-time-shift", () -> {
            if (ctx.capture() != null) show(ctx);
        }));
    }
}

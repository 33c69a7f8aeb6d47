package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.metaroce.gui.stats.DiagnosisWindow;
import io.metaroce.gui.testutil.GuiHarness;
import io.metaroce.gui.testutil.Sample;
import io.metaroce.gui.testutil.WindowTestBase;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * The Diagnosis window opened while a live capture runs: it waits, and diagnoses the saved file when the capture
 * ends (the live analysis is cancelled then and the file's own follows). The capture's start and end are driven
 * as the capture toolbar drives them, without an interface.
 */
class DiagnosisLiveTest extends WindowTestBase {

    @Start
    void start(Stage stage) { setUp(stage); }

    @Test
    void aLiveCaptureIsDiagnosedWhenItEnds(FxRobot robot) throws Exception {
        robot.interact(() -> ctx.startLive(null, true));
        // The first frames arrive (the menu enables the window once a capture shows).
        var file = Sample.path("rocev2-retry-exhausted");
        var src = io.metaroce.capture.CaptureFiles.open(file);
        var index = io.metaroce.dissector.FrameIndex.build(src);
        robot.interact(() -> ctx.showLive(new OpenCapture(file, src, index, index.problems(), false)));
        DiagnosisWindow.View[] v = new DiagnosisWindow.View[1];
        robot.interact(() -> v[0] = DiagnosisWindow.open(ctx, false));
        GuiHarness.until("waiting", () -> v[0].status().getText().startsWith("Waiting for the analysis"));
        assertNull(v[0].result().get());
        robot.interact(() -> ctx.openCaptured(file));
        GuiHarness.until("the saved file diagnosed", () -> v[0].result().get() != null);
        assertEquals("qp-retry-exhausted", v[0].findings().getItems().getFirst().rule());
    }
}

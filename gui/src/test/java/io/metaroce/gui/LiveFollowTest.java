package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.LiveAnalyzer;
import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.FrameIndex;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * The live packet list's follow of new rows, without a network: the list is fed as {@link LiveList} feeds it (a
 * new index over a capture file that grew, handed to {@link GuiContext#showLive}), in parts cut from a sample at
 * record boundaries. A list at its last row follows the new rows, part after part; after a selection and a scroll
 * away from the end it stays where the user left it. (CaptureToolbarTest does the same over a real capture on a
 * veth pair, which needs root and takes minutes.)
 */
class LiveFollowTest extends GuiTestBase {
    private static final String SAMPLE = "rocev2-gbn-loss";

    @Start
    void start(Stage s) throws Exception { setUp(s); }

    @Test
    void aListAtItsEndFollowsEachNewPart(FxRobot robot) throws IOException, CaptureException {
        Path sample = Samples.capture(SAMPLE);
        int frames = Samples.frames(SAMPLE);
        Path file = Files.createTempFile("gui-live-follow", ".pcapng");
        try {
            robot.interact(() -> ctx.startLive(new LiveAnalyzer.Monitor(), true));
            for (int shown : new int[] {60, 110, 150, frames}) {
                grow(sample, file, shown);
                OpenCapture oc = index(file);
                assertEquals(shown, oc.frames());
                robot.interact(() -> ctx.showLive(oc));
                Fx.until("the list to show " + shown + " rows", () -> table(robot).getItems().size() == shown);
                Fx.until("the list to follow to row " + shown, () -> lastRowShown(robot));
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Two flushes of the capture in one pulse (a busy capture, a slow machine), the verdicts refreshed between
     * them: VirtualFlow lays the list out short of the end after the second scroll; the list must still follow.
     */
    @Test
    void aListAtItsEndFollowsTwoPartsInOnePulse(FxRobot robot) throws IOException, CaptureException {
        Path sample = Samples.capture(SAMPLE);
        int frames = Samples.frames(SAMPLE);
        Path file = Files.createTempFile("gui-live-follow", ".pcapng");
        try {
            robot.interact(() -> ctx.startLive(new LiveAnalyzer.Monitor(), true));
            int step = 7;
            for (int shown = step; shown + step <= frames; shown += 2 * step) {
                grow(sample, file, shown);
                OpenCapture a = index(file);
                grow(sample, file, shown + step);
                OpenCapture b = index(file);
                int n = shown + step;
                robot.interact(() -> {
                    ctx.showLive(a);
                    ctx.liveVerdictsChanged();
                    ctx.showLive(b);
                });
                Fx.until("the list to show " + n + " rows", () -> table(robot).getItems().size() == n);
                Fx.until("the list to follow to row " + n, () -> lastRowShown(robot));
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void aListScrolledAwayStaysWhereTheUserLeftIt(FxRobot robot) throws IOException, CaptureException {
        Path sample = Samples.capture(SAMPLE);
        int frames = Samples.frames(SAMPLE);
        Path file = Files.createTempFile("gui-live-follow", ".pcapng");
        try {
            robot.interact(() -> ctx.startLive(new LiveAnalyzer.Monitor(), true));
            grow(sample, file, 120);
            OpenCapture first = index(file);
            robot.interact(() -> ctx.showLive(first));
            Fx.until("the list to follow", () -> lastRowShown(robot));
            robot.interact(() -> ctx.select(10));
            Fx.until("frame 10 on screen", () -> firstRowShown(robot) <= 10);
            grow(sample, file, frames);
            OpenCapture all = index(file);
            robot.interact(() -> ctx.showLive(all));
            Fx.until("every row", () -> table(robot).getItems().size() == frames);
            assertEquals(10, ctx.selectedFrame());
            assertTrue(firstRowShown(robot) <= 10, "still near frame 10: " + firstRowShown(robot));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Appends to file the sample's frames up to frame n, so that it holds the first n frames (cut at a record
     * boundary, as a live capture's flush leaves it; appended, as the capture writes, under the older mappings).
     */
    private static void grow(Path sample, Path file, int n) throws IOException, CaptureException {
        long end;
        try (PacketSource src = CaptureFiles.open(sample)) {
            FrameIndex ix = FrameIndex.build(src);
            end = n < ix.size() ? ix.recordOffset(n + 1) : Files.size(sample);
        }
        try (FileChannel in = FileChannel.open(sample);
             FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            long done = out.size();
            while (done < end) done += in.transferTo(done, end - done, out);
        }
    }

    private static OpenCapture index(Path file) throws CaptureException {
        PacketSource src = CaptureFiles.open(file);
        return new OpenCapture(file, src, FrameIndex.build(src), List.of(), false);
    }

    /** The frame of the first row on screen. */
    private int firstRowShown(FxRobot robot) {
        int[] out = {-1};
        robot.interact(() -> {
            var flow = (javafx.scene.control.skin.VirtualFlow<?>) table(robot).lookup(".virtual-flow");
            out[0] = flow.getFirstVisibleCell() == null ? -1 : table(robot).getItems().get(flow.getFirstVisibleCell().getIndex());
        });
        return out[0];
    }
}

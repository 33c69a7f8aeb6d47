package io.metaroce.gui;

import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.FrameIndex;
import java.nio.file.Path;
import java.util.List;

/**
 * A capture file opened in the GUI: its {@link FrameIndex} (random access to every frame, primitive columns, no
 * object per frame) over the file mapping of the source, which stays open until {@link #close()}. The analysis
 * result is separate ({@link GuiContext#analysisProperty()}): it arrives later, the packet list shows first.
 *
 * @param file the file
 * @param source the open source whose mapping the index reads
 * @param index every readable frame
 * @param problems damage the reader reported (a cut capture: the byte offset)
 * @param cancelled the user cancelled the load: the index holds the frames read until then
 */
public record OpenCapture(Path file, PacketSource source, FrameIndex index, List<CaptureProblem> problems,
                          boolean cancelled) implements AutoCloseable {

    /** Frames in the capture (valid frame numbers are 1..frames()). */
    public int frames() { return index.size(); }

    /** Time of the first frame, the zero of relative times. */
    public long firstTimeNanos() { return index.size() == 0 ? 0 : index.timeNanos(1); }

    @Override
    public void close() {
        try {
            source.close();
        } catch (Exception ignored) {
            // Closing a read-only mapping cannot lose data; nothing to tell the user.
        }
    }
}

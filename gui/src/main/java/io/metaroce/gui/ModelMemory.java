package io.metaroce.gui;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.FrameIndex;

/**
 * What the GUI's model of an open capture holds in memory, counted exactly from its arrays (not sampled from the
 * heap): the frame index's columns, the analysis verdicts, the packet list's view. The budget is 64 bytes
 * per frame (0.65 GB at 10 M frames); the frame bytes themselves stay in the mapped file. Objects that do not grow
 * with the frames (flow summaries, events, the rows on screen) are not counted.
 *
 * @param frames frames in the capture
 * @param indexBytes the {@link FrameIndex} columns
 * @param verdictBytes the analysis verdict store (0 until the analysis finished)
 * @param viewBytes the frame numbers of a filtered or sorted view (0 when every frame is shown in order)
 */
public record ModelMemory(int frames, long indexBytes, long verdictBytes, long viewBytes) {

    public static ModelMemory of(FrameIndex index, AnalysisSession session, FrameView view) {
        long verdicts = session == null || session.state() != AnalysisSession.State.FINISHED ? 0 : session.verdictBytes();
        return new ModelMemory(index.size(), index.memoryBytes(), verdicts, view == null ? 0 : view.memoryBytes());
    }

    public long totalBytes() { return indexBytes + verdictBytes + viewBytes; }

    /** Bytes per frame of the whole model. */
    public double bytesPerFrame() { return frames == 0 ? 0 : totalBytes() / (double) frames; }

    @Override
    public String toString() {
        double n = Math.max(1, frames);
        return String.format("%.1f B/frame (index %.1f, verdicts %.1f, view %.1f) over %d frames", bytesPerFrame(),
                indexBytes / n, verdictBytes / n, viewBytes / n, frames);
    }
}

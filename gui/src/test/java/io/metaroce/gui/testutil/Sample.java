package io.metaroce.gui.testutil;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.validate.FileResult;
import io.metaroce.validate.FileValidator;
import io.metaroce.validate.ValidateSettings;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A bundled sample capture opened the way the GUI opens a file: a frame index over the mapped file and one
 * analysis session that kept verdicts, events and flow frames. Close it to unmap the file.
 */
public final class Sample implements AutoCloseable {
    public final Path path;
    public final PacketSource source;
    public final FrameIndex index;
    public final AnalysisSession session;

    private Sample(Path path) throws Exception {
        this.path = path;
        source = CaptureFiles.open(path);
        index = FrameIndex.build(source);
        session = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.ALL);
        session.run(path);
    }

    /** The sample of a scenario ({@code rocev2-gbn-loss}) from samples/captures. */
    public static Sample open(String scenario) throws Exception {
        return new Sample(path(scenario));
    }

    public static Path path(String scenario) {
        for (Path dir : new Path[] {Path.of("../samples/captures"), Path.of("samples/captures")}) {
            Path p = dir.resolve(scenario + ".pcapng");
            if (Files.isRegularFile(p)) return p;
        }
        throw new IllegalStateException("no sample " + scenario + " under samples/captures");
    }

    /** The frame numbers of a flow, from the session's flow frame lists. */
    public int[] frames(String flowId) {
        if (flowId == null) return new int[0];
        return java.util.Arrays.stream(session.framesOf(flowId).frames()).mapToInt(x -> (int) x).toArray();
    }

    /** The frame numbers of a flow's peer (empty when unpaired). */
    public int[] peerFrames(String flowId) {
        return frames(session.flow(flowId).peer());
    }

    public FileResult validate() {
        return FileValidator.validate(path, ValidateSettings.defaults(), false, null);
    }

    @Override
    public void close() throws Exception {
        source.close();
    }
}

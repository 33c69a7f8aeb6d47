package io.metaroce.cli;

import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.AnalyzeOutput;
import io.metaroce.analysis.LiveAnalyzer;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.ForwardingPacketSource;
import io.metaroce.capture.PacketSource;
import io.metaroce.samples.Simulator;
import java.io.IOException;
import java.io.Writer;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs {@code analyze -i}'s decoding and analysis over simulated RoCEv2 traffic before the capture starts, so
 * that the JIT has compiled their hot paths when the first real frames arrive. Measured (docs/benchmarks.md,
 * live section): cold, the consumer ran several times slower for the first seconds; at 100 k frames/s the
 * backlog filled the queue, every young collection copied it (pauses of 40-190 ms) and frames were dropped as
 * "ours". The frames go through the same path as live ones: heap copies, no file mapping, short bursts.
 */
final class LiveWarmup {
    /** Frames of the simulated capture, analyzed {@link #PASSES} times: about 0.5 s of CPU. */
    private static final int FRAMES = 20_000;
    private static final int PASSES = 3;

    private LiveWarmup() {}

    /** Best effort: a failure here (no room for a temporary file) only means a cold start. */
    static void run(AnalysisSettings settings, AnalyzeOutput.Form form) {
        Path tmp = null;
        try {
            tmp = Files.createTempFile("metaroce-warmup", ".pcap");
            Simulator.run("rocev2-clean", Simulator.params("rocev2-clean").set("frames", Integer.toString(FRAMES)), tmp, null);
            for (int i = 0; i < PASSES; i++) {
                try (PacketSource src = new HeapCopies(CaptureFiles.open(tmp))) {
                    AnalyzeOutput.write(src, "warm-up", settings, form, false, Writer.nullWriter(), new LiveAnalyzer.Monitor());
                }
            }
        } catch (IOException | RuntimeException e) {
            // a cold start then
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException e) {
                    // left in the temporary directory
                }
            }
        }
    }

    /** A file read the way a live capture is: each frame a heap copy, no mapping, a burst every 64 frames. */
    private static final class HeapCopies extends ForwardingPacketSource {
        private byte[] frame;

        HeapCopies(PacketSource s) {
            super(s);
        }

        @Override
        public boolean next() {
            if (!delegate.next()) return false;
            frame = delegate.data().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            return true;
        }

        @Override public boolean endOfBurst() { return (delegate.frameNumber() & 63) == 0; }
        @Override public int capturedLength() { return frame.length; }
        @Override public int fcsLength() { return -1; }
        @Override public int interfaceId() { return 0; }
        @Override public int sectionIndex() { return 0; }
        @Override public MemorySegment data() { return MemorySegment.ofArray(frame); }
        @Override public MemorySegment mapping() { return null; }
        @Override public long dataOffset() { return 0; }
        @Override public long recordOffset() { return -1; }
        @Override public String comment() { return null; }
        @Override public CaptureFormat format() { return CaptureFormat.LIVE; }
        @Override public List<CaptureProblem> problems() { return List.of(); }
    }
}

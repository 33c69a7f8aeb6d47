package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.FrameIndex;
import io.metaroce.samples.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The GUI's model of a big capture stays within the budget of 64 bytes per frame, counted exactly from
 * its arrays ({@link ModelMemory}): the frame index, the analysis the GUI keeps ({@link GuiContext#ANALYSIS_OPTIONS},
 * with the acknowledgement lookup built as the packet list's Info column builds it) and a filtered view. No window.
 */
class ModelMemoryTest {

    @ParameterizedTest
    @CsvSource({"rocev2-clean, 300000", "rocev2-gbn-loss, 300000"})
    void aBigCaptureTakesAtMost64BytesPerFrame(String scenario, int frames, @TempDir Path tmp) throws Exception {
        Path pcap = tmp.resolve(scenario + ".pcap");
        Simulator.run(scenario, Simulator.params(scenario).set("frames", Integer.toString(frames)), pcap, tmp.resolve("truth.json"));
        try (PacketSource src = CaptureFiles.open(pcap)) {
            FrameIndex index = FrameIndex.build(src);
            AnalysisSession session = new AnalysisSession(AnalysisSettings.DEFAULT, GuiContext.ANALYSIS_OPTIONS);
            session.run(pcap);
            int n = index.size();
            assertTrue(n >= frames, "frames " + n);
            // Decoding a frame with its analysis fields builds the acknowledgement lookup (counted from then on).
            FrameDecoder decoder = new FrameDecoder(index, session);
            for (int f = 1; f <= n; f += n / 100) decoder.decode(f);
            // A filter's view: every other frame (4 bytes per shown frame).
            int[] half = new int[n / 2];
            for (int i = 0; i < half.length; i++) half[i] = 2 * i + 1;
            ModelMemory m = ModelMemory.of(index, session, FrameView.of(half));

            assertEquals(n, m.frames());
            assertTrue(m.verdictBytes() > 0, "the verdicts are counted: " + m);
            assertEquals(half.length * 4L, m.viewBytes());
            assertTrue(m.indexBytes() / (double) n < 16, "frame index: " + m);
            assertTrue(m.bytesPerFrame() <= 64, "model: " + m);
            System.out.println(scenario + ": " + m);
        }
        Files.deleteIfExists(pcap);
    }
}

package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.capture.testing.InMemoryPacketSource;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A source that is not a file (mapping() null, as a live capture) runs through the FramePipeline like a file:
 * the batches copy the bytes, so a source that overwrites its one buffer on every next() (a capture ring) still
 * gives every frame its own bytes, in order, on one thread or several.
 */
class UnmappedSourceTest {

    /** Renders each batch's frames as JSON lines (what dissect -T jsonl prints). */
    static final class JsonWorker implements FramePipeline.Worker<String> {
        final Dissector dissector = new Dissector();
        final Dissection d = new Dissection();
        final FrameFields ff = new FrameFields();

        @Override
        public String process(FrameBatch batch) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ByteOut out = new ByteOut(bytes)) {
                FrameJson json = new FrameJson(out, false);
                for (int i = 0; i < batch.size(); i++) json.frame(batch.dissect(i, dissector, d), ff.of(d));
            }
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    private static String run(PacketSource src, int threads) throws InterruptedException {
        StringBuilder all = new StringBuilder();
        FramePipeline.run(src, threads, JsonWorker::new, r -> {
            all.append(r);
            return true;
        });
        return all.toString();
    }

    @Test
    void anUnmappedSourceDissectsLikeTheFileOnOneOrManyThreads() throws Exception {
        int samples = 0;
        for (Path p : FrameTreeTest.sampleCaptures()) {
            String fromFile;
            try (PacketSource file = CaptureFiles.open(p)) {
                fromFile = run(file, 1);
            }
            InMemoryPacketSource ring = InMemoryPacketSource.ringOf(p);
            assertNull(ring.mapping());
            assertEquals(ring.size(), fromFile.lines().count(), p.toString());
            for (int threads : new int[] {1, 3}) {
                assertEquals(fromFile, run(InMemoryPacketSource.ringOf(p), threads), p + " on " + threads + " threads");
            }
            samples++;
        }
        assertTrue(samples >= 15);
    }

    @Test
    void aFrameIndexNeedsAFile() throws Exception {
        InMemoryPacketSource ring = InMemoryPacketSource.ringOf(FrameTreeTest.sampleCaptures().getFirst());
        assertThrows(IllegalArgumentException.class, () -> FrameIndex.build(ring));
    }
}

package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.CaptureStats;
import io.metaroce.capture.PacketSource;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A source that is not a file (mapping() null, as a live capture) runs through the FramePipeline like a file:
 * the batches copy the bytes, so a source that overwrites its one buffer on every next() (a capture ring) still
 * gives every frame its own bytes, in order, on one thread or several.
 */
class UnmappedSourceTest {

    /** Frames in memory, handed out through one reused buffer, with no mapping: the live-capture contract. */
    static final class RingSource implements PacketSource {
        private final List<byte[]> frames = new ArrayList<>();
        private final List<long[]> meta = new ArrayList<>(); // time, original length, link type, fcs length
        private final byte[] ring = new byte[65536];
        private int current = -1, currentLength;

        RingSource(Path file) throws io.metaroce.capture.CaptureException {
            try (PacketSource src = CaptureFiles.open(file)) {
                while (src.next()) {
                    frames.add(src.data().toArray(ValueLayout.JAVA_BYTE));
                    meta.add(new long[] {src.timestampNanos(), src.originalLength(), src.linkType(), src.fcsLength()});
                }
            }
        }

        int size() { return frames.size(); }

        @Override
        public boolean next() {
            if (current + 1 >= frames.size()) return false;
            Arrays.fill(ring, (byte) 0xEE); // the previous frame's bytes are gone
            byte[] f = frames.get(++current);
            System.arraycopy(f, 0, ring, 0, f.length);
            currentLength = f.length;
            return true;
        }

        @Override public long frameNumber() { return current + 1; }
        @Override public long timestampNanos() { return meta.get(current)[0]; }
        @Override public int capturedLength() { return currentLength; }
        @Override public long originalLength() { return meta.get(current)[1]; }
        @Override public int linkType() { return (int) meta.get(current)[2]; }
        @Override public int fcsLength() { return (int) meta.get(current)[3]; }
        @Override public int interfaceId() { return 0; }
        @Override public int sectionIndex() { return 0; }
        @Override public MemorySegment data() { return MemorySegment.ofArray(ring).asSlice(0, currentLength); }
        @Override public MemorySegment mapping() { return null; }
        @Override public long dataOffset() { return -1; }
        @Override public long recordOffset() { return -1; }
        @Override public String comment() { return null; }
        @Override public CaptureFormat format() { return CaptureFormat.PCAPNG; }
        @Override public List<CaptureProblem> problems() { return List.of(); }
        @Override public CaptureStats stats() { return new CaptureStats(CaptureFormat.PCAPNG, current + 1, 1, 1, List.of(), List.of(), null, 0); }
        @Override public void close() { }
    }

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
            RingSource ring = new RingSource(p);
            assertNull(ring.mapping());
            assertEquals(ring.size(), fromFile.lines().count(), p.toString());
            for (int threads : new int[] {1, 3}) {
                assertEquals(fromFile, run(new RingSource(p), threads), p + " on " + threads + " threads");
            }
            samples++;
        }
        assertTrue(samples >= 15);
    }

    @Test
    void aFrameIndexNeedsAFile() throws Exception {
        RingSource ring = new RingSource(FrameTreeTest.sampleCaptures().getFirst());
        assertThrows(IllegalArgumentException.class, () -> FrameIndex.build(ring));
    }
}

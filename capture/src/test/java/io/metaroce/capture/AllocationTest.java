package io.metaroce.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hot loop (next() plus the primitive accessors) must not allocate per frame, so that reading a
 * multi-gigabyte capture creates no garbage. Measured with the per-thread allocation counter, not with time.
 */
class AllocationTest {
    private static final int FRAMES = 20_000;

    @TempDir
    Path dir;

    @Test
    void pcapLoopAllocatesNothingPerFrame() throws Exception {
        Path file = dir.resolve("a.pcap");
        byte[] frame = Blocks.frame(64, 1);
        try (PcapWriter w = PcapWriter.create(file, CaptureFormat.PCAP_NS, 1, 65535)) {
            for (int i = 0; i < FRAMES; i++) {
                w.write(i, frame);
            }
        }
        assertBelowOneBytePerFrame(file);
    }

    @Test
    void pcapngLoopAllocatesNothingPerFrame() throws Exception {
        Path file = dir.resolve("a.pcapng");
        byte[] frame = Blocks.frame(64, 1);
        try (PcapngWriter w = PcapngWriter.create(file)) {
            w.addInterface(1, 0, "a", 4);
            w.addInterface(1, 0);
            for (int i = 0; i < FRAMES; i++) {
                w.write(i & 1, i, frame, 0, 64, 64, i % 100 == 0 ? "comment" : null);
            }
        }
        assertBelowOneBytePerFrame(file);
    }

    private static void assertBelowOneBytePerFrame(Path file) throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        try (PacketSource s = CaptureFiles.open(file)) {
            long sum = 0;
            long before = threads.getThreadAllocatedBytes(tid);
            while (s.next()) {
                sum += s.timestampNanos() + s.capturedLength() + s.originalLength() + s.linkType() + s.fcsLength()
                        + s.interfaceId() + s.recordOffset() + s.dataOffset()
                        + s.mapping().get(java.lang.foreign.ValueLayout.JAVA_BYTE, s.dataOffset());
            }
            long allocated = threads.getThreadAllocatedBytes(tid) - before;
            assertEquals(FRAMES, s.stats().framesRead());
            assertTrue(sum != 0);
            // A single object per frame would be >= 16 bytes/frame; allow a little for one-off JIT/runtime noise.
            assertTrue(allocated < FRAMES, "allocated " + allocated + " bytes for " + FRAMES + " frames");
        }
    }
}

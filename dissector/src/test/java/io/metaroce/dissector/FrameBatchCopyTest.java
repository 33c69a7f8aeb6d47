package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.LinkTypes;
import io.metaroce.capture.PacketSource;
import io.metaroce.capture.PcapWriter;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file's batches hold their own copy of every frame, taken as the reader passes it (from its read-ahead window, or
 * from the mapping for a record longer than the window): the workers never read the capture mapping, whose pages
 * the reader no longer touches ({@link FrameBatch} says why). Frames of every length, on one thread and on three.
 */
class FrameBatchCopyTest {
    @TempDir
    Path dir;

    @Test
    void aFilesFramesAreDissectedFromTheBatchsOwnCopy() throws Exception {
        Random r = new Random(7);
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 6000; i++) {
            // Mostly Ethernet-sized, some jumbo, a few longer than the reader's window (two 64 KiB blocks).
            int length = i % 1000 == 999 ? 200_000 : r.nextInt(8) == 0 ? 9000 : 60 + r.nextInt(1455);
            byte[] f = new byte[length];
            r.nextBytes(f);
            frames.add(f);
        }
        Path file = dir.resolve("lengths.pcap");
        try (PcapWriter w = new PcapWriter(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                CaptureFormat.PCAP_NS, LinkTypes.ETHERNET, 262_144, ByteOrder.LITTLE_ENDIAN)) {
            for (int i = 0; i < frames.size(); i++) w.write(1_700_000_000_000_000_000L + i, frames.get(i));
        }
        for (int threads : new int[] {1, 3}) {
            try (PacketSource src = CaptureFiles.open(file)) {
                List<String> seen = new ArrayList<>();
                FramePipeline.<String, FramePipeline.Worker<String>>run(src, threads, () -> batch -> {
                    for (int i = 0; i < batch.size(); i++) {
                        int n = (int) batch.number[i];
                        assertFalse(batch.data(i).isNative(), "frame " + n + ": the batch's own heap copy, not the mapping");
                        assertArrayEquals(frames.get(n - 1), batch.data(i).toArray(ValueLayout.JAVA_BYTE), "frame " + n);
                    }
                    return batch.firstFrameNumber() + "+" + batch.size();
                }, seen::add);
                long frameCount = seen.stream().mapToLong(s -> Long.parseLong(s.substring(s.indexOf('+') + 1))).sum();
                assertEquals(frames.size(), frameCount, threads + " threads");
            }
        }
    }
}

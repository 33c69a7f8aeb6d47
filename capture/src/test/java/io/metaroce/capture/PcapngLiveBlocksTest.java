package io.metaroce.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The blocks a live capture writes: shb_os, if_description and if_filter, and a full Interface Statistics Block. */
class PcapngLiveBlocksTest {
    @TempDir
    Path tmp;

    @Test
    void osDescriptionFilterAndEveryStatisticsCounterAreWrittenAndReadBack() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long written;
        try (PcapngWriter w = new PcapngWriter(Channels.newChannel(bytes), ByteOrder.LITTLE_ENDIAN, "metaroce", "Linux 6.1", null)) {
            assertEquals(0, w.addInterface(LinkTypes.ETHERNET, 65535, "eth1", "Mellanox ConnectX", "udp port 4791", -1));
            w.write(0, 1_000_000_123L, new byte[60]);
            w.writeStatistics(0, 2_000_000_000L, new InterfaceStatistics(1_000_000_000L, 2_000_000_000L, 12, 1, 10, 2, 8, "ours 3"));
            written = w.bytesWritten();
        }
        byte[] file = bytes.toByteArray();
        assertEquals(file.length, written, "bytesWritten counts every block");
        Path p = tmp.resolve("live.pcapng");
        Files.write(p, file);
        try (PacketSource src = CaptureFiles.open(p)) {
            while (src.next()) { }
            assertTrue(src.problems().isEmpty(), src.problems().toString());
            CaptureInterface i = src.stats().interfaces().get(0);
            assertEquals("eth1", i.name());
            assertEquals("Mellanox ConnectX", i.description());
            assertEquals(12, i.ifReceived());
            assertEquals(1, i.ifDropped());
            assertEquals(2, i.osDropped());
            assertEquals("metaroce", src.stats().captureApplication());
        }
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        assertTrue(new String(file, java.nio.charset.StandardCharsets.ISO_8859_1).contains("Linux 6.1"));
        // if_filter (11): kind byte 0 = libpcap filter string, then the string
        int f = indexOf(file, "\0udp port 4791");
        assertEquals(11, b.getShort(f - 4));
        assertEquals(14, b.getShort(f - 2));
        // ISB: find it from the end (last block) and walk its options
        int isbLen = b.getInt(file.length - 4), isb = file.length - isbLen;
        assertEquals(5, b.getInt(isb));
        int o = isb + 20;
        java.util.Map<Integer, Long> opts = new java.util.HashMap<>();
        while (b.getShort(o) != 0) {
            int code = b.getShort(o), len = b.getShort(o + 2);
            if (code != 1) opts.put(code, code <= 3 ? ((long) b.getInt(o + 4) << 32) | (b.getInt(o + 8) & 0xFFFFFFFFL) : b.getLong(o + 4));
            o += 4 + ((len + 3) & ~3);
        }
        assertEquals(java.util.Map.of(2, 1_000_000_000L, 3, 2_000_000_000L, 4, 12L, 5, 1L, 6, 10L, 7, 2L, 8, 8L), opts);
    }

    private static int indexOf(byte[] hay, String needle) {
        byte[] n = needle.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        outer:
        for (int i = 0; i + n.length <= hay.length; i++) {
            for (int k = 0; k < n.length; k++) if (hay[i + k] != n[k]) continue outer;
            return i;
        }
        throw new AssertionError("not found: " + needle);
    }
}

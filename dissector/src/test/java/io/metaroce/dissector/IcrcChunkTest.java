package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaroce.protocol.Bth;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Udp;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/**
 * The ICRC feeds the bytes after the BTH through a reused scratch array in chunks: every length around the chunk
 * boundaries, from heap and from native memory (as a capture mapping is), gives the CRC of the whole message
 * computed in one piece, and the FCS CRC likewise.
 */
class IcrcChunkTest {
    private static final int IP = 0, UDP = Ip.SIZE, BTH = UDP + Udp.SIZE, REST = BTH + Bth.SIZE;

    @Test
    void everyLengthMatchesTheCrcOfTheWholeMessage() {
        Random rnd = new Random(7);
        Icrc icrc = new Icrc();
        try (Arena arena = Arena.ofConfined()) {
            for (int rest : new int[] {0, 1, 4, 511, 512, 513, 9215, 9216, 9217, 9216 + 96, 18432, 18433, 30001}) {
                byte[] packet = new byte[REST + rest];
                rnd.nextBytes(packet);
                packet[IP] = 0x45; // IPv4, 20-byte header
                long expected = reference(packet);
                MemorySegment native_ = arena.allocate(packet.length);
                MemorySegment.copy(MemorySegment.ofArray(packet), 0, native_, 0, packet.length);
                for (MemorySegment s : new MemorySegment[] {MemorySegment.ofArray(packet), native_}) {
                    assertEquals(expected, icrc.overIp(s, IP, Ip.SIZE, false, BTH, packet.length), "rest " + rest);
                    CRC32 fcs = new CRC32();
                    fcs.update(packet);
                    assertEquals(fcs.getValue(), icrc.crc32(s, packet.length), "fcs over " + packet.length);
                }
            }
        }
    }

    /** zlib CRC-32 of 8 bytes of ones, the headers with their spec-variant fields set to ones, and the rest. */
    private static long reference(byte[] packet) {
        byte[] message = new byte[8 + packet.length];
        java.util.Arrays.fill(message, 0, 8, (byte) 0xFF);
        System.arraycopy(packet, 0, message, 8, packet.length);
        MemorySegment m = MemorySegment.ofArray(message);
        ones(m, 8 + IP, Ip.HEADER);
        ones(m, 8 + UDP, Udp.HEADER);
        ones(m, 8 + BTH, Bth.HEADER);
        CRC32 crc = new CRC32();
        crc.update(message);
        return crc.getValue();
    }

    private static void ones(MemorySegment m, long at, int header) {
        HeaderDef h = Spec.HEADERS.get(header);
        for (int i = h.firstField(); i < h.firstField() + h.fieldCount(); i++) {
            FieldDef f = Spec.FIELDS.get(i);
            if (f.icrcVariant()) f.writeLong(m, at, -1L);
        }
    }
}

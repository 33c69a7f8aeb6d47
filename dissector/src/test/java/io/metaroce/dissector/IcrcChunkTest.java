package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaroce.protocol.Bth;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Udp;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/**
 * The ICRC feeds the packet through a reused scratch array, in one copy or in chunks: every length around the chunk
 * boundaries, over IPv4 (with and without options) and IPv6, from heap and from native memory (as a capture mapping
 * is) and from an array the frame sits in at an offset (a reader's window), gives the CRC of the whole message
 * computed in one piece, and the FCS CRC likewise.
 */
class IcrcChunkTest {
    private static final int IP = 0;

    @Test
    void everyLengthMatchesTheCrcOfTheWholeMessage() {
        Random rnd = new Random(7);
        Icrc icrc = new Icrc();
        // IPv4, IPv4 with 4 bytes of options, IPv6: the packet up to the ICRC is copied in one piece up to the chunk
        // size, past it in chunks; both must mask the same bytes.
        int[][] layouts = {{Ip.HEADER, Ip.SIZE, 0x45}, {Ip.HEADER, Ip.SIZE + 4, 0x46}, {Ipv6.HEADER, Ipv6.SIZE, 0x60}};
        try (Arena arena = Arena.ofConfined()) {
            for (int[] layout : layouts) {
                int ipHeader = layout[0], hl = layout[1], udp = IP + hl, bth = udp + Udp.SIZE, rest0 = bth + Bth.SIZE;
                for (int rest : new int[] {0, 1, 4, 511, 512, 513, 9215 - hl, 9216 - hl, 9216, 9217, 9216 + 96, 18432, 18433, 30001}) {
                    byte[] packet = new byte[rest0 + rest];
                    rnd.nextBytes(packet);
                    packet[IP] = (byte) layout[2];
                    long expected = reference(packet, ipHeader, udp, bth);
                    MemorySegment native_ = arena.allocate(packet.length);
                    MemorySegment.copy(MemorySegment.ofArray(packet), 0, native_, 0, packet.length);
                    for (MemorySegment s : new MemorySegment[] {MemorySegment.ofArray(packet), native_}) {
                        assertEquals(expected, icrc.overIp(s, IP, hl, ipHeader == Ipv6.HEADER, bth, packet.length),
                                "header " + ipHeader + " of " + hl + ", rest " + rest);
                        CRC32 fcs = new CRC32();
                        fcs.update(packet);
                        assertEquals(fcs.getValue(), icrc.crc32(s, packet.length), "fcs over " + packet.length);
                    }
                    // From an array the frame sits in at some offset (a reader's window), other bytes around it.
                    for (int base : new int[] {0, 13}) {
                        byte[] window = new byte[base + packet.length + 7];
                        rnd.nextBytes(window);
                        System.arraycopy(packet, 0, window, base, packet.length);
                        assertEquals(expected, icrc.overIp(window, base, IP, hl, ipHeader == Ipv6.HEADER, bth, packet.length),
                                "from an array at " + base + ", header " + ipHeader + " of " + hl + ", rest " + rest);
                    }
                }
            }
        }
    }

    /** zlib CRC-32 of 8 bytes of ones, the headers with their spec-variant fields set to ones, and the rest. */
    private static long reference(byte[] packet, int ipHeader, int udp, int bth) {
        byte[] message = new byte[8 + packet.length];
        java.util.Arrays.fill(message, 0, 8, (byte) 0xFF);
        System.arraycopy(packet, 0, message, 8, packet.length);
        MemorySegment m = MemorySegment.ofArray(message);
        ones(m, 8 + IP, ipHeader);
        ones(m, 8 + udp, Udp.HEADER);
        ones(m, 8 + bth, Bth.HEADER);
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

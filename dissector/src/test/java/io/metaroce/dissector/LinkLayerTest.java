package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.protocol.Bth;
import io.metaroce.protocol.Eth;
import io.metaroce.protocol.Grh;
import io.metaroce.protocol.Severity;
import io.metaroce.protocol.Sll;
import io.metaroce.protocol.Sll2;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/** The same RoCE packet behind every link layer the dissector reads, with and without an Ethernet FCS, and RoCEv1. */
class LinkLayerTest {
    private static final byte[] FRAME = new FrameBuilder().opcode(0x0A, 0).payload(64).set("bth.psn", 4242)
            .set("bth.dest_qp", 0x77).set("reth.dma_length", 64).build();

    private static Dissection dissect(byte[] frame, int linkType, int fcsLength) {
        return new Dissector().dissect(MemorySegment.ofArray(frame), 1, 0, frame.length, linkType, fcsLength, new Dissection());
    }

    private static void assertSamePacket(Dissection d, String protocols) {
        assertEquals(protocols, d.protocols());
        assertEquals(4242, d.psn());
        assertEquals(0x77, d.destQp());
        assertEquals(64, d.payloadLength());
        assertEquals(IcrcStatus.GOOD, d.icrcStatus());
        assertTrue(d.expert().isEmpty(), d.expert().toString());
    }

    @Test
    void ethernet() {
        assertSamePacket(dissect(FRAME, 1, -1), "eth:ip:udp:bth:reth");
    }

    @Test
    void ethernetWithAnFcsIsRecognizedAndNotTakenForTheIcrc() {
        byte[] withFcs = withFcs(FRAME);
        Dissection unknown = dissect(withFcs, 1, -1); // the file does not say: recognized because its CRC verifies
        assertSamePacket(unknown, "eth:ip:udp:bth:reth");
        assertEquals("good", unknown.fcsStatus());
        Dissection announced = dissect(withFcs, 1, 4); // pcapng if_fcslen / pcap FCS bits
        assertSamePacket(announced, "eth:ip:udp:bth:reth");
        // Four trailing bytes that are not a valid FCS are not an FCS (padding, say).
        byte[] padded = Arrays.copyOf(FRAME, FRAME.length + 4);
        Dissection p = dissect(padded, 1, -1);
        assertSamePacket(p, "eth:ip:udp:bth:reth");
        assertNull(p.fcsStatus());
    }

    @Test
    void linuxCookedV1AndV2AndRawIp() {
        byte[] ip = Arrays.copyOfRange(FRAME, Eth.SIZE, FRAME.length);
        byte[] sll = new byte[Sll.SIZE + ip.length];
        MemorySegment s = MemorySegment.ofArray(sll);
        Sll.etype(s, 0, 0x0800);
        Sll.halen(s, 0, 6);
        System.arraycopy(ip, 0, sll, Sll.SIZE, ip.length);
        assertSamePacket(dissect(sll, 113, -1), "sll:ip:udp:bth:reth");
        byte[] sll2 = new byte[Sll2.SIZE + ip.length];
        Sll2.etype(MemorySegment.ofArray(sll2), 0, 0x0800);
        System.arraycopy(ip, 0, sll2, Sll2.SIZE, ip.length);
        assertSamePacket(dissect(sll2, 276, -1), "sll2:ip:udp:bth:reth");
        assertSamePacket(dissect(ip, 101, -1), "ip:udp:bth:reth");
        assertSamePacket(dissect(ip, 228, -1), "ip:udp:bth:reth");
    }

    @Test
    void qinqTagsAreBothDecoded() {
        byte[] f = new byte[FRAME.length + 8];
        System.arraycopy(FRAME, 0, f, 0, 12);
        MemorySegment s = MemorySegment.ofArray(f);
        Eth.type(s, 0, 0x88A8);
        io.metaroce.protocol.Vlan.id(s, Eth.SIZE, 100);
        io.metaroce.protocol.Vlan.etype(s, Eth.SIZE, 0x8100);
        io.metaroce.protocol.Vlan.id(s, Eth.SIZE + 4, 200);
        io.metaroce.protocol.Vlan.pcp(s, Eth.SIZE + 4, 3);
        io.metaroce.protocol.Vlan.etype(s, Eth.SIZE + 4, 0x0800);
        System.arraycopy(FRAME, Eth.SIZE, f, Eth.SIZE + 8, FRAME.length - Eth.SIZE);
        Dissection d = dissect(f, 1, -1);
        assertSamePacket(d, "eth:vlan:vlan:ip:udp:bth:reth");
        FrameFields ff = new FrameFields().of(d);
        var id = FieldCatalog.get().field("vlan.id");
        assertEquals(2, ff.count(id));
        assertEquals(100, ff.longValue(id, 0));
        assertEquals(200, ff.longValue(id, 1));
    }

    @Test
    void roceV1BehindTheGrhWithItsIcrc() {
        byte[] transport = Arrays.copyOfRange(FRAME, Eth.SIZE + 20 + 8, FRAME.length); // BTH .. ICRC of the v2 frame
        byte[] f = new byte[Eth.SIZE + Grh.SIZE + transport.length];
        MemorySegment s = MemorySegment.ofArray(f);
        Eth.type(s, 0, 0x8915);
        Grh.ipVersion(s, Eth.SIZE, 6);
        Grh.paylen(s, Eth.SIZE, transport.length);
        Grh.nxthdr(s, Eth.SIZE, 0x1B);
        Grh.hoplmt(s, Eth.SIZE, 64);
        System.arraycopy(transport, 0, f, Eth.SIZE + Grh.SIZE, transport.length);
        int bth = Eth.SIZE + Grh.SIZE;
        long crc = new Icrc().overGrh(s, Eth.SIZE, bth, f.length - 4);
        s.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), f.length - 4, (int) crc);
        Dissection d = dissect(f, 1, -1);
        assertSamePacket(d, "eth:grh:bth:reth");
        assertTrue(d.isRoceV1());
        // A hop-limit rewrite keeps the RoCEv1 ICRC valid (the GRH is masked like an IPv6 header).
        Grh.hoplmt(s, Eth.SIZE, 3);
        assertEquals(IcrcStatus.GOOD, dissect(f, 1, -1).icrcStatus());
        Bth.psn(s, bth, 4243);
        assertEquals(IcrcStatus.BAD, dissect(f, 1, -1).icrcStatus());
    }

    @Test
    void snapLengthCutFramesAreUncheckedNotBad() {
        byte[] cut = Arrays.copyOf(FRAME, FRAME.length - 20);
        Dissection d = new Dissector().dissect(MemorySegment.ofArray(cut), 1, 0, FRAME.length, 1, -1, new Dissection());
        assertEquals(IcrcStatus.UNCHECKED, d.icrcStatus());
        assertTrue(d.truncated());
        assertEquals(64, d.payloadLength(), "payload length from the wire, not from what was captured");
        assertTrue(d.expert().stream().noneMatch(e -> e.severity() == Severity.ERROR), d.expert().toString());
    }

    private static byte[] withFcs(byte[] frame) {
        CRC32 crc = new CRC32();
        crc.update(frame);
        byte[] out = Arrays.copyOf(frame, frame.length + 4);
        MemorySegment.ofArray(out).set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), frame.length, (int) crc.getValue());
        return out;
    }
}

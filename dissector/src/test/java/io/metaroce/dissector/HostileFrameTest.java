package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.protocol.Expert;
import io.metaroce.protocol.ExpertDef;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Vlan;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Frames built to hurt the dissector (issue 14, item 3): deep nesting must stop at a fixed bound with an expert
 * item, whatever the nesting depth, and an empty frame must be named on every link type.
 */
class HostileFrameTest {
    private final Dissector dissector = new Dissector();
    private final Dissection d = new Dissection();

    private Dissection dissect(byte[] frame, int linkType) {
        return dissector.dissect(MemorySegment.ofArray(frame), 1, 0, frame.length, linkType, -1, d);
    }

    private static boolean has(Dissection d, ExpertDef def) {
        return d.expert().stream().anyMatch(e -> e.def() == def);
    }

    /** 100 stacked 802.1Q tags: 16 are decoded, then one expert item; the IPv4 behind them is not reached. */
    @Test
    void hundredNestedVlanTags() {
        ByteBuffer b = ByteBuffer.allocate(14 + 100 * 4 + 40);
        b.put(new byte[12]).putShort((short) 0x8100);
        for (int i = 0; i < 100; i++) b.putShort((short) (i + 1)).putShort((short) (i < 99 ? 0x8100 : 0x0800));
        byte[] frame = b.array();
        dissect(frame, 1);
        assertTrue(has(d, Expert.VLAN_TOO_MANY_TAGS), d.expert().toString());
        long tags = java.util.stream.IntStream.range(0, d.layerCount()).filter(i -> d.layerHeader(i) == Vlan.HEADER).count();
        assertEquals(16, tags);
        assertEquals(0, d.ipVersion()); // no IP layer reached
        assertFalse(d.expert().stream().anyMatch(e -> e.message().startsWith("frame ends unexpectedly")), d.expert().toString());
    }

    /**
     * An IPv6 datagram whose payload is a chain of 1,000 destination-options headers (8 bytes each) and then UDP
     * to 4791: the walk stops after 16 with an expert item, in bounded time (the loop never runs past the bound).
     */
    @Test
    void thousandIpv6ExtensionHeaders() {
        int chain = 1000 * 8;
        ByteBuffer b = ByteBuffer.allocate(14 + 40 + chain + 8 + 12);
        b.put(new byte[12]).putShort((short) 0x86DD);
        b.putInt(0x6000_0000).putShort((short) (chain + 8 + 12)).put((byte) 60).put((byte) 64).put(new byte[32]);
        for (int i = 0; i < 1000; i++) b.put((byte) (i < 999 ? 60 : 17)).put((byte) 0).put(new byte[6]);
        b.putShort((short) 1000).putShort((short) Spec.ROCE_UDP_PORT).putShort((short) 20).putShort((short) 0);
        byte[] frame = b.array();
        dissect(frame, 1);
        assertEquals(6, d.ipVersion());
        assertTrue(has(d, Expert.IPV6_TOO_MANY_EXTENSIONS), d.expert().toString());
        assertFalse(d.isRoce());
        assertFalse(d.expert().stream().anyMatch(e -> e.message().startsWith("frame ends unexpectedly")), d.expert().toString());
    }

    /** A zero-length frame yields an expert item (never an exception) on every link type the dissector decodes. */
    @ParameterizedTest
    @ValueSource(ints = {1, 113, 276, 101, 12, 14, 228, 229})
    void zeroLengthFrame(int linkType) {
        dissect(new byte[0], linkType);
        assertEquals(0, d.layerCount());
        assertFalse(d.expert().isEmpty(), "no expert item for an empty frame on link type " + linkType);
        assertFalse(d.expert().stream().anyMatch(e -> e.message().startsWith("frame ends unexpectedly")), d.expert().toString());
    }
}

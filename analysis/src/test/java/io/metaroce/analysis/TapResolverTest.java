package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** --tap auto: the rule "the address in every RoCE frame" must never pick a multicast group as the capturing host. */
class TapResolverTest {
    private static FrameFacts frame(long srcHi, long srcLo, long dstHi, long dstLo, boolean v6) {
        FrameFacts f = new FrameFacts();
        f.roce = true;
        f.v6 = v6;
        f.srcHi = srcHi;
        f.srcLo = srcLo;
        f.dstHi = dstHi;
        f.dstLo = dstLo;
        f.ttl = -1;
        return f;
    }

    @Test
    void aMulticastGroupInEveryFrameIsNotTheHost() {
        // m3_ib2.pcap's GRH frames: one host's UD datagrams to an IPoIB multicast GID (ff12:401b::...)
        TapResolver r = new TapResolver();
        long host = 0xfe80000000000000L, hostLo = 0x0002c90300a1b2c3L, mcast = 0xff12401bffff0000L;
        for (int i = 0; i < 3; i++) r.add(frame(host, hostLo, mcast, 0xffffffffL, true));
        TapChoice c = r.resolve();
        assertEquals("host:fe80::2:c903:a1:b2c3", c.tap().toString(), c.how());
    }

    @Test
    void multicastIsNeverACandidateButUnicastIs() {
        assertTrue(TapResolver.multicast(new TapResolver.Addr(0xff12401bffff0000L, 0, true)));
        assertTrue(TapResolver.multicast(new TapResolver.Addr(0, 0xE0000001L, false)));   // 224.0.0.1
        assertTrue(TapResolver.multicast(new TapResolver.Addr(0, 0xEFFFFFFFL, false)));   // 239.255.255.255
        assertFalse(TapResolver.multicast(new TapResolver.Addr(0, 0x0A000001L, false)));  // 10.0.0.1
        assertFalse(TapResolver.multicast(new TapResolver.Addr(0xfe80000000000000L, 1, true)));
    }
}

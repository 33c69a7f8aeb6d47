package io.metaroce.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The frame builder reproduces the RoCEv2 ICRC worked example byte for byte (reference/rocev2-facts.md §5). */
class FrameBuilderTest {
    private static final String WORKED_EXAMPLE = "020000000014" + "02000000000a" + "0800"
            + "456a004c01054000" + "4011b5c3c0a8010ac0a80114" + "c13212b700380000"
            + "0a00ffff00000012800000cb" + "00007f00000020000000567800000010"
            + "000102030405060708090a0b0c0d0e0f" + "1fa2a6c1";

    @Test
    void writeOnlyWorkedExample() {
        Params params = new Params();
        Sim sim = new Sim(params);
        Host a = sim.addHost(false, -1, 26), b = sim.addHost(false, -1, 26);
        a.mac = 0x02000000000aL;
        b.mac = 0x020000000014L;
        a.ipv4 = 0xC0A8010A;
        b.ipv4 = 0xC0A80114;
        Pkt p = new Pkt();
        p.src = a;
        p.dst = b;
        p.dscp = 26;
        p.ecn = 2;
        p.ipId = 0x0105;
        p.sport = 49458;
        p.opcode = 0x0A;
        p.destQp = 0x12;
        p.ackReq = true;
        p.psn = 203;
        p.rethVa = 0x00007f0000002000L;
        p.rethRkey = 0x5678;
        p.rethLen = 16;
        p.payloadLen = 16;
        p.payloadWriter = (s, o) -> {
            for (int i = 0; i < 16; i++) s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, o + i, (byte) i);
        };
        FrameBuilder fb = new FrameBuilder();
        int len = fb.build(p, 0);
        assertEquals(90, len);
        assertArrayEquals(HexFormat.of().parseHex(WORKED_EXAMPLE), Arrays.copyOf(fb.buffer(), len));
    }
}

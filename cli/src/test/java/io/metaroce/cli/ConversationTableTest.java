package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.FrameFields;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The conversation and endpoint tables of dissect -z: tshark's number formats (format_size, C's %f), which end is
 * which, tshark's order, and the same table whatever worker counted which frame; and the -z argument syntax.
 */
class ConversationTableTest {
    private static final long A = 0x0200_0000_0001L, B = 0x0200_0000_0002L, C = 0x0200_0000_0003L;

    @Test
    void sizesAsTsharkFormatsThem() {
        assertEquals("0 bytes", ConversationTable.size(0));
        assertEquals("9999 bytes", ConversationTable.size(9999));
        assertEquals("10 kB", ConversationTable.size(10_000));
        assertEquals("225 kB", ConversationTable.size(225_776)); // rounded down, as tshark
        assertEquals("9999 kB", ConversationTable.size(9_999_999));
        assertEquals("10 MB", ConversationTable.size(10_000_000));
        assertEquals("12 GB", ConversationTable.size(12_345_678_901L));
    }

    @Test
    void timesRoundAsCPrintfDoes() {
        // 0.00015 is 0.000149999... in binary: C's %.4f gives 0.0001 (Java's %.4f rounds the decimal text up to 0.0002).
        assertEquals("0.0001", ConversationTable.fixed(0.00015, 4));
        assertEquals("0.000009322", ConversationTable.fixed(ConversationTable.seconds(9322), 9));
        assertEquals("-0.000000000", ConversationTable.fixed(-1e-10, 9));
        assertEquals("1.500000000", ConversationTable.fixed(ConversationTable.seconds(1_500_000_000L), 9));
    }

    /** Frames: 1 A->B, 2 B->A, 3 A->B, 4 C->A (eth, ip, udp 5000 -> 6000 or back). */
    private static final long[][] FRAMES = {{A, B, 1}, {B, A, 2}, {A, B, 3}, {C, A, 4}};

    @Test
    void conversationsNameTheFirstSenderFirstAndCountEachWay() {
        String out = table(false, List.of(0, 1, 2, 3), null);
        List<String> rows = out.lines().filter(l -> l.contains("<->")).toList();
        assertEquals(2, rows.size(), out);
        // The most frames first; A sent the first frame: <- counts B to A (1), -> A to B (2).
        assertEquals("02:00:00:00:00:01    <-> 02:00:00:00:00:02          1 114 bytes       2 228 bytes       3 342 bytes     0.000001000         0.0000",
                rows.get(0), out);
        assertEquals("02:00:00:00:00:03    <-> 02:00:00:00:00:01          0 0 bytes         1 114 bytes       1 114 bytes     0.000004000         0.0000",
                rows.get(1), out);
    }

    @Test
    void twoWorkersGiveTheTableOfOne() {
        // The second worker sees B->A first: merged, the conversation is still A's (its frame 1 came first).
        for (boolean endpoints : new boolean[] {false, true}) {
            String one = table(endpoints, List.of(0, 1, 2, 3), null);
            String two = table(endpoints, List.of(0, 2), List.of(1, 3));
            assertEquals(one, two, "endpoints " + endpoints);
            String reversed = table(endpoints, List.of(1, 3), List.of(0, 2));
            assertEquals(one, reversed, "merged the other way round, endpoints " + endpoints);
        }
    }

    @Test
    void endpointsOfEqualCountsInTheOrderFirstSeenSourceFirst() {
        String out = table(true, List.of(0, 1, 2, 3), null);
        List<String> rows = out.lines().filter(l -> l.startsWith("02:")).toList();
        // A: 4 frames; B: 3; C: 1.
        assertEquals(List.of("02:00:00:00:00:01", "02:00:00:00:00:02", "02:00:00:00:00:03"),
                rows.stream().map(l -> l.substring(0, 17)).toList(), out);
        assertEquals("02:00:00:00:00:01              4           456          2             228           2             228   ", rows.get(0));
    }

    @Test
    void zArgumentSyntaxAsTsharks() {
        assertEquals("conv", DissectCommand.zKind("conv,ip"));
        assertEquals("conv", DissectCommand.zKind("conv,udp,udp.port == 4791"));
        assertNull(DissectCommand.zKind("conv,tcp"));
        assertNull(DissectCommand.zKind("endpoints"));
        assertEquals("endpoints", DissectCommand.zKind("endpoints,ipv6"));
        assertEquals("phs", DissectCommand.zKind("io,phs,bth"));
        assertNull(DissectCommand.zKind("io,phsx"));
        assertEquals("expert", DissectCommand.zKind("expert,warn,bth"));
        assertNull(DissectCommand.zFilterText("io,phs"));
        assertNull(DissectCommand.zFilterText("io,phs,"));
        assertEquals("ip.addr in {10.0.0.1, 10.0.0.2}", DissectCommand.zFilterText("conv,ip,ip.addr in {10.0.0.1, 10.0.0.2}"));
        assertNull(DissectCommand.zFilterText("expert"));
        assertNull(DissectCommand.zFilterText("expert,error"));
        assertEquals("Error", DissectCommand.zExpertLevel("expert,Error,udp"));
        assertEquals("udp", DissectCommand.zFilterText("expert,Error,udp"));
        assertEquals("udp", DissectCommand.zFilterText("expert,udp"));
        assertNull(DissectCommand.zExpertLevel("expert,udp"));
        assertEquals("warnings", DissectCommand.zFilterText("expert,warnings"), "a word that only starts like a level is a filter");
    }

    /** The table of the frames given to one worker (and to a second one, merged into the first). */
    private static String table(boolean endpoints, List<Integer> worker1, List<Integer> worker2) {
        ConversationTable t = feed(endpoints, worker1);
        if (worker2 != null) t.merge(feed(endpoints, worker2));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ByteOut out = new ByteOut(bytes)) {
            t.print(out);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static ConversationTable feed(boolean endpoints, List<Integer> frames) {
        ConversationTable t = new ConversationTable(io.metaroce.dissector.stats.ConversationType.ETH, endpoints, null, null);
        Dissector dissector = new Dissector();
        Dissection d = new Dissection();
        FrameFields ff = new FrameFields();
        for (int i : frames) {
            long[] f = FRAMES[i];
            byte[] b = frame(f[0], f[1], f[0] == A);
            // Times: frame N at N microseconds after the capture's first (time 0).
            dissector.dissect(MemorySegment.ofArray(b), f[2], f[2] * 1000, b.length, 1, 0, d);
            t.frame(d, ff.of(d));
        }
        return t;
    }

    /** Ethernet, IPv4, UDP and 72 bytes of payload: 114 bytes. */
    private static byte[] frame(long src, long dst, boolean forward) {
        byte[] b = new byte[114];
        for (int i = 0; i < 6; i++) {
            b[i] = (byte) (dst >>> (40 - 8 * i));
            b[6 + i] = (byte) (src >>> (40 - 8 * i));
        }
        b[12] = 0x08;
        b[14] = 0x45;
        b[16] = 0;
        b[17] = 100; // IP total length
        b[22] = 64;
        b[23] = 17;
        b[26] = 10;
        b[29] = (byte) src;
        b[30] = 10;
        b[33] = (byte) dst;
        int sp = forward ? 5000 : 6000, dp = forward ? 6000 : 5000;
        b[34] = (byte) (sp >>> 8);
        b[35] = (byte) sp;
        b[36] = (byte) (dp >>> 8);
        b[37] = (byte) dp;
        b[39] = 80; // UDP length
        return b;
    }
}

package io.metaroce.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaroce.analysis.FrameFacts;
import io.metaroce.protocol.Spec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A direction's marking counts ({packets, first frame} per packet kind and marking) as the map look-up per frame
 * made them, whatever the order the markings come in: alternating between two (the case {@link QpDirection} keeps
 * out of the map, unboxed), cycling through three, at random, and past the 64 kept (the rest counted nowhere).
 */
class QpDirectionMarkingsTest {

    private static FrameFacts frame(long number, int dscp) {
        FrameFacts f = new FrameFacts();
        f.number = number;
        f.timeNs = number * 1000;
        f.opcode = Spec.OPCODES_TVER0.get(0x04); // RC SEND Only
        f.opcodeValue = 0x04;
        f.payloadLength = 100;
        f.sport = 49152;
        f.dscp = dscp;
        f.ecn = 2;
        return f;
    }

    /** The counts the plain map look-up per frame gives (the code before the two-marking cache). */
    private static Map<Long, long[]> expected(List<FrameFacts> frames) {
        Map<Long, long[]> m = new HashMap<>(4);
        long[] sink = new long[3];
        for (FrameFacts f : frames) {
            long mk = ((long) Kinds.of(f) << 32) | ((long) (f.dscp & 0xFF) << 16) | ((long) ((f.pcp + 1) & 0xF) << 8) | (f.ecn & 0xF);
            (m.size() < 64 || m.containsKey(mk) ? m.computeIfAbsent(mk, k -> new long[] {0, f.number}) : sink)[0]++;
        }
        return m;
    }

    private static void same(int[] dscps) {
        List<FrameFacts> frames = new ArrayList<>();
        for (int i = 0; i < dscps.length; i++) frames.add(frame(i + 1, dscps[i]));
        QpDirection d = new QpDirection("10.0.0.1>10.0.0.2/0x000201", frames.getFirst());
        for (FrameFacts f : frames) d.seen(f);
        Map<Long, long[]> want = expected(frames);
        assertEquals(want.keySet(), d.markings.keySet());
        assertEquals(List.copyOf(want.keySet()), List.copyOf(d.markings.keySet()), "the map's order");
        for (var e : want.entrySet()) assertArrayEquals(e.getValue(), d.markings.get(e.getKey()), "marking " + Long.toHexString(e.getKey()));
    }

    @Test
    void countsAreThoseOfAMapLookUpPerFrame() {
        int[] two = new int[1000], three = new int[1000], random = new int[5000], many = new int[5000];
        Random r = new Random(3);
        for (int i = 0; i < two.length; i++) two[i] = i % 2 == 0 ? 26 : 0;
        for (int i = 0; i < three.length; i++) three[i] = (i % 3) * 8;
        for (int i = 0; i < random.length; i++) random[i] = r.nextInt(4);
        // 70 markings: the first 64 kept, the rest counted nowhere, also when they alternate with kept ones.
        for (int i = 0; i < many.length; i++) many[i] = i < 70 ? i : r.nextBoolean() ? r.nextInt(70) : 69 - (i % 2) * 10;
        same(two);
        same(three);
        same(random);
        same(many);
    }
}

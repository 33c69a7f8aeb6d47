package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A consumer's {@link PsnColumns} ride on the engine's window: whatever the window does (grow from its first
 * 32 slots, slide at its cap, release acknowledged PSNs, start a new stream), every PSN it holds finds in its
 * slot what the consumer wrote for that PSN, and a slot the engine takes for a new PSN is empty.
 */
class RequestWindowColumnsTest {
    /** One column: the PSN the consumer wrote into each slot (0 = nothing). */
    static final class Marks extends PsnColumns {
        long[] psn;

        @Override protected void allocate(int slots) { psn = new long[slots]; }

        @Override
        protected void grow(int oldSlots, int newSlots, long from, long to) {
            long[] old = psn;
            psn = new long[newSlots];
            for (long u = from; u <= to; u++) psn[(int) (u & (newSlots - 1))] = old[(int) (u & (oldSlots - 1))];
        }

        @Override protected void clear(int slot) { psn[slot] = 0; }
    }

    private static void check(SeqWindow w, Marks m, long written) {
        for (long u = w.base(); u <= w.top(); u++) {
            long v = m.psn[w.slot(u)];
            assertTrue(v == 0 || v == u, "slot of " + u + " holds " + v);
            if (u <= written && u >= w.origin()) assertEquals(u, v, "PSN " + u + " lost its column");
        }
    }

    @Test
    void columnsFollowEveryPsnThroughGrowthSlidingAndRelease() {
        SeqWindow w = new SeqWindow(1 << 10);
        long origin = Psn.ORIGIN + 100;
        w.start(origin);
        Marks m = new Marks();
        w.attach(m);
        assertSame(m, w.columns());
        assertEquals(origin, w.origin());
        int generation = w.generation();
        long acked = origin;
        for (long u = origin; u < origin + 5000; u++) {
            // Acknowledged up to 300 behind: the window grows to hold the live part, then slides.
            acked = Math.max(acked, u - 300);
            assertTrue(w.ensure(u, acked));
            assertEquals(0, m.psn[w.slot(u)], "a slot taken for a new PSN is empty");
            m.psn[w.slot(u)] = u;
            if (u % 97 == 0) w.release(acked - 256);
            check(w, m, u);
        }
        assertEquals(generation, w.generation(), "one stream");
        // A new stream on the same window: its PSNs start empty, and the consumer learns of it by the generation.
        long next = origin + 1_000_000;
        w.start(next);
        assertEquals(generation + 1, w.generation());
        assertEquals(next, w.origin());
        for (long u = next; u < next + 10; u++) {
            assertTrue(w.ensure(u, next));
            assertEquals(0, m.psn[w.slot(u)], "PSN " + u + " of the new stream starts empty");
        }
    }

    @Test
    void aFlowShowsItsRequestWindowToConsumers() {
        Flow fl = new Flow(0, new FlowKey(false, 0, 0x0A000001L, 0, 0x0A000002L, 0x13));
        assertEquals(null, fl.requests(), "no window before the first request");
        SeqWindow w = fl.window(RequestStream.MAX_WINDOW);
        assertSame(w, fl.requests());
    }
}

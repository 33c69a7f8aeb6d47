package io.metaroce.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The occurrences are those a map of every id would count (the index's count before). */
class FlowOccurrencesTest {
    @Test
    void eachFlowGetsTheCountOfItsIdSoFar() {
        check(new FlowOccurrences(), 200_000);
    }

    /** Ids of the same hash are still counted apart: a hash of 4 values, so that nearly every id collides. */
    @Test
    void idsOfTheSameHashAreCountedApart() {
        check(new FlowOccurrences(id -> id.hashCode() & 3), 20_000);
    }

    private static void check(FlowOccurrences o, int n) {
        Random r = new Random(7);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) ids.add("10.0.0.1>10.0.0.2/0x" + String.format("%06x", r.nextInt(n * 3 / 4)));
        ids.add("");
        ids.add("");
        for (String id : ids) o.note(id);
        Map<String, Integer> seen = new HashMap<>();
        boolean repeated = false;
        for (String id : ids) {
            int want = seen.merge(id, 1, Integer::sum);
            repeated |= want > 1;
            assertEquals(want, o.next(id), id);
        }
        assertTrue(repeated);
    }

    @Test
    void theSetHoldsEveryValueAndZero() {
        FlowOccurrences.LongSet s = new FlowOccurrences.LongSet();
        assertFalse(s.contains(0));
        assertTrue(s.add(0));
        assertFalse(s.add(0));
        for (long v = 1; v < 100_000; v++) assertTrue(s.add(v * 0x9E3779B97F4A7C15L));
        for (long v = 1; v < 100_000; v++) {
            assertTrue(s.contains(v * 0x9E3779B97F4A7C15L));
            assertFalse(s.add(v * 0x9E3779B97F4A7C15L));
        }
        assertFalse(s.contains(12345));
        assertTrue(s.contains(0));
    }
}

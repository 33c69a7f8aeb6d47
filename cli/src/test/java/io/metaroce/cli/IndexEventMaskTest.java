package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaroce.analysis.EventType;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** index keeps each flow's event types as a mask of ordinals: the labels a document gets from it are the types seen. */
class IndexEventMaskTest {

    @Test
    void everyTypeAloneGivesItsOwnLabel() {
        for (EventType t : EventType.values()) {
            assertEquals(List.of(t.label()), IndexCommand.eventLabels(IndexCommand.eventBit(t)), t.name());
        }
    }

    @Test
    void aMaskOfSeveralTypesGivesEachOnceAndNoOther() {
        EventType[] all = EventType.values();
        // every pair and the whole set, merged as the listener merges them (the same type twice included)
        for (EventType a : all) {
            for (EventType b : all) {
                int mask = IndexCommand.eventBit(a) | IndexCommand.eventBit(b) | IndexCommand.eventBit(a);
                assertEquals(new TreeSet<>(List.of(a.label(), b.label())), new TreeSet<>(IndexCommand.eventLabels(mask)));
                assertEquals(a == b ? 1 : 2, IndexCommand.eventLabels(mask).size());
            }
        }
        int every = 0;
        for (EventType t : all) every |= IndexCommand.eventBit(t);
        assertEquals(all.length, IndexCommand.eventLabels(every).size());
    }

    @Test
    void aFlowWithoutEventsHasNoLabels() {
        assertEquals(List.of(), IndexCommand.eventLabels(null));
    }
}

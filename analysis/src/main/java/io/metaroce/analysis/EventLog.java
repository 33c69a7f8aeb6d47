package io.metaroce.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The events of a finished pass, kept as objects and indexed by frame: what a GUI's expert view or a "next
 * retransmission" button reads. Immutable once built; safe to read from any thread.
 */
public final class EventLog {
    static final EventLog EMPTY = new EventLog(List.of());
    private final List<AnalysisEvent> events;
    private final long[] frames;
    private final long[] byType = new long[EventType.values().length];

    EventLog(List<AnalysisEvent> events) {
        // Events leave the engine in decision order, which is frame order except for verdicts made at the end.
        List<AnalysisEvent> sorted = new ArrayList<>(events);
        // A lambda of this class, not Comparator.comparingLong: the AOT cache holds this one, while the JDK's own
        // lambda inside comparingLong is generated at run time on every start.
        sorted.sort((a, b) -> Long.compare(a.frame(), b.frame()));
        this.events = Collections.unmodifiableList(sorted);
        frames = new long[sorted.size()];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = sorted.get(i).frame();
            byType[sorted.get(i).type().ordinal()]++;
        }
    }

    /** Every event, in frame order. */
    public List<AnalysisEvent> all() { return events; }

    public int size() { return events.size(); }

    public long count(EventType t) { return byType[t.ordinal()]; }

    /** The events about one frame (usually none or one). */
    public List<AnalysisEvent> at(long frame) {
        int i = first(frame);
        int j = i;
        while (j < frames.length && frames[j] == frame) j++;
        return events.subList(i, j);
    }

    /** The first event on a frame after the given one, or null (for "next expert item"). */
    public AnalysisEvent after(long frame) {
        int i = first(frame + 1);
        return i < frames.length ? events.get(i) : null;
    }

    /** The last event on a frame before the given one, or null. */
    public AnalysisEvent before(long frame) {
        int i = first(frame) - 1;
        return i >= 0 ? events.get(i) : null;
    }

    /** Events of one type, in frame order. */
    public List<AnalysisEvent> of(EventType t) {
        List<AnalysisEvent> l = new ArrayList<>();
        for (AnalysisEvent e : events) if (e.type() == t) l.add(e);
        return l;
    }

    /** Index of the first event whose frame is >= frame. */
    private int first(long frame) {
        int i = Arrays.binarySearch(frames, frame);
        if (i < 0) return -i - 1;
        while (i > 0 && frames[i - 1] == frame) i--;
        return i;
    }
}

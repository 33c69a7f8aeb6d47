package io.metaroce.analysis;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One notable finding on one frame: {@code {"frame": N, "time_ns": T, "flow": id, "type": ..., details}}.
 * {@code flow} is the QP flow the finding is about (for a NAK or CNP: the data flow it answers, when the
 * connection is paired); {@code frame_flow} in the details names the frame's own flow when it differs.
 */
public final class AnalysisEvent {
    private final long frame, timeNs;
    private String flow;
    private EventType type;
    private final Map<String, Object> details = new LinkedHashMap<>();
    boolean ready = true, cancelled, emitted;

    AnalysisEvent(long frame, long timeNs, String flow, EventType type) {
        this.frame = frame;
        this.timeNs = timeNs;
        this.flow = flow;
        this.type = type;
    }

    public long frame() { return frame; }
    public long timeNs() { return timeNs; }
    public String flow() { return flow; }
    public EventType type() { return type; }
    /** Details in insertion order: numbers, strings, booleans. */
    public Map<String, Object> details() { return details; }

    AnalysisEvent put(String k, Object v) {
        if (v != null) details.put(k, v);
        return this;
    }

    void type(EventType t) { type = t; }

    void flow(String f) { flow = f; }

    /** The event as a JSON object on one line. */
    public String toJson() {
        JsonOut j = new JsonOut(new StringBuilder(160), false);
        write(j);
        return j.toString();
    }

    void write(JsonOut j) {
        j.beginObject();
        j.name("frame").value(frame);
        j.name("time_ns").value(timeNs);
        j.name("flow").value(flow);
        j.name("type").value(type.label());
        for (Map.Entry<String, Object> e : details.entrySet()) j.name(e.getKey()).value(e.getValue());
        j.endObject();
    }

    @Override
    public String toString() { return toJson(); }
}

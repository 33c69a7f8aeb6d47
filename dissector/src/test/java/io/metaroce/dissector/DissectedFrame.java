package io.metaroce.dissector;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.Spec;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A dissected frame turned into plain values, so tests can compare frames after the capture is closed. */
record DissectedFrame(long number, String protocols, Map<String, List<Object>> fields, List<ExpertItem> expert,
                      IcrcStatus icrc, boolean truncated) {

    long num(String field) {
        Object v = first(field);
        if (v instanceof Boolean b) return b ? 1 : 0;
        return (Long) v;
    }

    Object first(String field) {
        List<Object> l = fields.get(field);
        if (l == null) throw new AssertionError("frame " + number + " has no " + field + " (" + protocols + ")");
        return l.get(0);
    }

    boolean has(String field) { return fields.containsKey(field); }

    static DissectedFrame of(Dissection d) {
        FrameFields ff = new FrameFields().of(d);
        Map<String, List<Object>> fields = new LinkedHashMap<>();
        for (FieldDef f : Spec.FIELDS) {
            int n = ff.count(f);
            for (int i = 0; i < n; i++) {
                Object v = ff.value(f, i);
                if (v instanceof MemorySegment s) v = s.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                fields.computeIfAbsent(f.name(), k -> new ArrayList<>()).add(v);
            }
        }
        return new DissectedFrame(d.number(), d.protocols(), fields, List.copyOf(d.expert()), d.icrcStatus(), d.truncated());
    }

    static List<DissectedFrame> read(Path capture) throws Exception {
        return read(capture, new Dissector());
    }

    static List<DissectedFrame> read(Path capture, Dissector dissector) throws Exception {
        List<DissectedFrame> out = new ArrayList<>();
        Dissection d = new Dissection();
        try (PacketSource src = CaptureFiles.open(capture)) {
            while (src.next()) {
                dissector.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                        src.fcsLength(), d);
                out.add(of(d));
            }
        }
        return out;
    }

    static Path vector(String name) {
        return Path.of("src/test/resources/vectors", name);
    }
}

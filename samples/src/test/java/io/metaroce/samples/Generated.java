package io.metaroce.samples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** A scenario generated in memory (capture bytes + truth), with helpers to walk its dissected frames. */
final class Generated {
    final String scenario;
    final byte[] capture;
    final byte[] truthBytes;
    final JsonNode truth;
    final Simulator.Result result;

    private static final Map<String, Generated> CACHE = new ConcurrentHashMap<>();

    private Generated(String scenario, Params params) {
        this.scenario = scenario;
        try {
            ByteArrayOutputStream c = new ByteArrayOutputStream(), t = new ByteArrayOutputStream();
            result = Simulator.run(scenario, params, c, true, t);
            capture = c.toByteArray();
            truthBytes = t.toByteArray();
            truth = new ObjectMapper().readTree(truthBytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A scenario with its default parameters (seed 1), generated once per test run. */
    static Generated of(String scenario) {
        return CACHE.computeIfAbsent(scenario, s -> new Generated(s, Simulator.params(s)));
    }

    static Generated with(String scenario, Params params) { return new Generated(scenario, params); }

    /** One dissected frame with its truth entry. */
    record Frame(long number, long time, long originalLength, Dissection d, JsonNode truth) {}

    /** Dissects every frame in order; the Dissection is reused, so consumers must not keep it. */
    void forEachFrame(Consumer<Frame> consumer) {
        Dissector dissector = new Dissector();
        Dissection d = new Dissection();
        JsonNode frames = truth.get("frames");
        try (PacketSource src = CaptureFiles.open(scenario, MemorySegment.ofArray(capture))) {
            int i = 0;
            while (src.next()) {
                dissector.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(),
                        src.linkType(), src.fcsLength(), d);
                consumer.accept(new Frame(src.frameNumber(), src.timestampNanos(), src.originalLength(), d,
                        frames.get(i++)));
            }
        } catch (Exception e) {
            throw new IllegalStateException(scenario + ": " + e.getMessage(), e);
        }
    }

    List<JsonNode> list(String field) {
        List<JsonNode> out = new ArrayList<>();
        truth.get(field).forEach(out::add);
        return out;
    }
}

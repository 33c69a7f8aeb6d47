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

    private static final io.metaroce.protocol.FieldDef IP_SRC = io.metaroce.dissector.FieldCatalog.get().field("ip.src"),
            IP_DST = io.metaroce.dissector.FieldCatalog.get().field("ip.dst"),
            IP6_SRC = io.metaroce.dissector.FieldCatalog.get().field("ipv6.src"),
            IP6_DST = io.metaroce.dissector.FieldCatalog.get().field("ipv6.dst");

    /** The spec §12 flow id of a dissected frame. */
    static String flowId(Dissection d) {
        io.metaroce.dissector.FrameFields ff = new io.metaroce.dissector.FrameFields().of(d);
        boolean v6 = d.ipVersion() == 6;
        Object src = ff.value(v6 ? IP6_SRC : IP_SRC, 0), dst = ff.value(v6 ? IP6_DST : IP_DST, 0);
        return src + ">" + dst + "/0x" + String.format("%06x", d.destQp());
    }

    /** A numeric catalogue field of a dissected frame (first occurrence), or def when absent. */
    static long field(Dissection d, String name, long def) {
        io.metaroce.protocol.FieldDef f = io.metaroce.dissector.FieldCatalog.get().field(name);
        io.metaroce.dissector.FrameFields ff = new io.metaroce.dissector.FrameFields().of(d);
        return ff.count(f) == 0 ? def : ff.longValue(f, 0);
    }

    List<JsonNode> list(String field) {
        List<JsonNode> out = new ArrayList<>();
        truth.get(field).forEach(out::add);
        return out;
    }
}

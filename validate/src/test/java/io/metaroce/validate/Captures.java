package io.metaroce.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.samples.Params;
import io.metaroce.samples.Simulator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Simulator captures for the tests, generated once per JVM (scenario at a tap) into a temporary directory. */
final class Captures {
    private static final Map<String, Path> MADE = new ConcurrentHashMap<>();
    private static Path dir;

    private Captures() {}

    static synchronized Path dir() {
        if (dir == null) {
            try {
                dir = Files.createTempDirectory("metaroce-validate-test");
                dir.toFile().deleteOnExit();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return dir;
    }

    /** The capture of a scenario with its default parameters, taken at tap (sender, receiver, mirror or null: default). */
    static Path of(String scenario, String tap) {
        return MADE.computeIfAbsent(scenario + "@" + tap, k -> {
            try {
                Params p = Simulator.params(scenario);
                if (tap != null) p.set("tap", tap);
                Path cap = dir().resolve(scenario + (tap == null ? "" : "-" + tap) + ".pcapng");
                Path truth = dir().resolve(scenario + (tap == null ? "" : "-" + tap) + ".truth.json");
                Simulator.run(scenario, p, cap, truth);
                cap.toFile().deleteOnExit();
                truth.toFile().deleteOnExit();
                return cap;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    static JsonNode truth(Path capture) throws IOException {
        String n = capture.getFileName().toString().replace(".pcapng", ".truth.json");
        return new ObjectMapper().readTree(capture.resolveSibling(n).toFile());
    }
}

package io.metaroce.gui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The bundled sample captures and their ground truth (samples/captures/NAME.pcapng + NAME.truth.json). */
final class Samples {
    private Samples() { }

    static Path dir() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path c = p.resolve("samples/captures");
            if (Files.isDirectory(c)) return c;
        }
        throw new IllegalStateException("samples/captures not found above " + Path.of("").toAbsolutePath());
    }

    static Path capture(String name) { return dir().resolve(name + ".pcapng"); }

    static JsonNode truth(String name) {
        try {
            return new ObjectMapper().readTree(dir().resolve(name + ".truth.json").toFile());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Frame numbers the truth labels with this key (e.g. "retransmission"). */
    static List<Integer> labelled(String name, String label) {
        List<Integer> out = new ArrayList<>();
        for (JsonNode f : truth(name).get("frames")) if (f.has("labels") && f.get("labels").has(label)) out.add(f.get("n").asInt());
        return out;
    }

    static int frames(String name) { return truth(name).get("capture").get("frames").asInt(); }
}

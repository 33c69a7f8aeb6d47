package io.metaroce.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The captures committed under samples/captures are exactly what the simulator generates now (regenerate
 * them with {@code GenerateSamples} after a change), each under 1 MB, and samples/README.md describes each.
 */
class CommittedSamplesTest {
    static final Path DIR = Path.of("captures");

    static Stream<String> scenarios() { return Simulator.scenarios().stream(); }

    @ParameterizedTest
    @MethodSource("scenarios")
    void committedCaptureAndTruthEqualAFreshGeneration(String scenario) throws IOException {
        Path capture = DIR.resolve(scenario + GenerateSamples.CAPTURE_SUFFIX);
        Path truth = DIR.resolve(scenario + GenerateSamples.TRUTH_SUFFIX);
        assertTrue(Files.exists(capture), capture + " missing: run GenerateSamples");
        Generated g = Generated.of(scenario);
        assertArrayEquals(g.capture, Files.readAllBytes(capture), capture + " differs from a fresh generation");
        assertArrayEquals(g.truthBytes, Files.readAllBytes(truth), truth + " differs from a fresh generation");
        assertTrue(Files.size(capture) < 1_000_000, capture + " is not under 1 MB");
        assertTrue(Files.size(truth) < 1_000_000, truth + " is not under 1 MB");
    }

    @Test
    void readmeDescribesEveryScenario() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        for (String s : Simulator.scenarios()) assertTrue(readme.contains("`" + s + "`"), "README lacks " + s);
    }
}

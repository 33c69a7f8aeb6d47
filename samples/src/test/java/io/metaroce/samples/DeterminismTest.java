package io.metaroce.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Same scenario, same parameters, same seed: the same bytes; another seed: other bytes. */
class DeterminismTest {

    @ParameterizedTest
    @ValueSource(strings = {"rocev2-gbn-loss", "metaroce-spray-lossy-path", "capture-gaps-truncated"})
    void sameSeedGivesIdenticalCaptureAndTruth(String scenario) {
        Generated a = Generated.with(scenario, Simulator.params(scenario).set("seed", "42"));
        Generated b = Generated.with(scenario, Simulator.params(scenario).set("seed", "42"));
        assertTrue(a.capture.length > 1000, "capture too small");
        assertArrayEquals(a.capture, b.capture, "capture bytes differ between two runs with seed 42");
        assertArrayEquals(a.truthBytes, b.truthBytes, "truth bytes differ between two runs with seed 42");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocev2-gbn-loss", "metaroce-spray-lossy-path"})
    void otherSeedGivesOtherCapture(String scenario) {
        Generated a = Generated.with(scenario, Simulator.params(scenario).set("seed", "42"));
        Generated b = Generated.with(scenario, Simulator.params(scenario).set("seed", "43"));
        assertFalse(Arrays.equals(a.capture, b.capture), "seeds 42 and 43 gave the same capture");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sender", "receiver", "mirror"})
    void tapChoiceDoesNotChangeWhatTheNetworkDid(String tap) {
        // the tap has its own random stream: the per-flow truth counters are the same at every tap
        Generated base = Generated.with("rocev2-gbn-loss", Simulator.params("rocev2-gbn-loss"));
        Generated other = Generated.with("rocev2-gbn-loss", Simulator.params("rocev2-gbn-loss").set("tap", tap));
        for (int i = 0; i < base.truth.get("flows").size(); i++) {
            org.junit.jupiter.api.Assertions.assertEquals(base.truth.get("flows").get(i).get("counters"),
                    other.truth.get("flows").get(i).get("counters"), "flow " + i + " counters at tap " + tap);
        }
    }
}

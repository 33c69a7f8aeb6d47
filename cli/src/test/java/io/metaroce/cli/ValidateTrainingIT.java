package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * validate's two AOT caches (the plain {@code validate FILE} and every other form) are trained on the bundled samples
 * with problems too ({@link AotTraining}): a capture with findings takes their classes from the cache instead of
 * opening the jar at the first finding and reading them from it (conformance-violations.pcapng: 30 classes, 0.44 ->
 * 0.32 s wall; docs/benchmarks.md, "End of the twenty-second session"). The JVM's class-loading log says where each
 * class came from.
 */
class ValidateTrainingIT {
    @Test
    void aCaptureWithFindingsReadsNoClassFromTheJar() {
        String capture = Launcher.CAPTURES.resolve("conformance-violations.pcapng").toString();
        for (List<String> args : List.of(List.of("validate", capture), List.of("validate", capture, "-T", "json"))) {
            Launcher.Run run = Launcher.run(Launcher.Call.of(args).env(Map.of("METAROCE_JAVA_OPTS", "-Xlog:class+load=info:stdout")));
            List<String> lines = run.out().lines().toList();
            assertTrue(lines.stream().anyMatch(l -> l.contains("io.metaroce.validate.Finding source: shared objects file")),
                    args + ": a finding's class from the cache");
            assertEquals(List.of(), AotCacheIT.classesFromTheJar(lines.stream()), args.toString());
        }
    }
}

package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.Launcher;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * analyze's AOT cache is trained on the bundled samples with problems too ({@link AotTraining}): a capture with
 * retransmissions finds its event classes in the cache, instead of reading and verifying them from the jar at every
 * start (docs/benchmarks.md, "helper start, tenth session"). The JVM's class-loading log says where each came from.
 */
class AnalyzeTrainingIT {
    @Test
    void aCaptureWithRetransmissionsFindsItsEventClassesInTheCache() {
        Launcher.Run run = Launcher.run(Launcher.Call.of("analyze", "-r", Launcher.CAPTURES.resolve("rocev2-gbn-loss.pcapng").toString())
                .env(Map.of("METAROCE_JAVA_OPTS", "-Xlog:class+load=info:stdout")));
        String out = run.out();
        for (String c : new String[] {"io.metaroce.analysis.AnalysisEvent$Retransmission", "io.metaroce.analysis.Flow$PendingRetx",
                "io.metaroce.analysis.diagnosis.Finding"}) {
            assertTrue(out.contains(c + " source: shared objects file"), c + " from the cache:\n"
                    + out.lines().filter(l -> l.contains(c + " ")).findFirst().orElse("(not loaded)"));
        }
    }
}

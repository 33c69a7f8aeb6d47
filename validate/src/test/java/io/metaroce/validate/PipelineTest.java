package io.metaroce.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Large captures run the stream rules and the analysis on a second thread: the findings must not change. */
class PipelineTest {

    private static List<String> findings(Path cap, long pipelineFrom) {
        FileResult r = FileValidator.validate(cap, ValidateSettings.defaults(), true, null,
                io.metaroce.analysis.AnalysisSession.Options.RESULTS, pipelineFrom);
        return r.findings().stream().map(f -> f.rule() + "@" + f.frame() + ":" + f.severity() + ":" + f.message()).toList();
    }

    @Test
    void sameFindingsOnOneOrTwoThreads() {
        for (String[] s : new String[][] {{"conformance-violations", null}, {"metaroce-spray-lossy-path", "receiver"},
                {"rocev2-ecn-cnp", null}, {"rocev2-gbn-loss", "mirror"}}) {
            Path cap = Captures.of(s[0], s[1]);
            assertEquals(findings(cap, Long.MAX_VALUE), findings(cap, 0), s[0]);
        }
    }
}

package io.metaroce.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.FlowSummary;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * validate's pass leaves out the flow statistics it never reports (AnalysisSession#withoutStatistics: the open
 * messages, the ACK round-trip and message-completion distributions), and its findings are those of a pass that
 * keeps them ({@code index --rules}' pass, {@link FileValidator#inSession}). Fails when validate's pass keeps the
 * statistics again (the messages are counted) and when leaving them out changes a finding.
 */
class WithoutStatisticsTest {
    private static final Path SAMPLES = Path.of("../samples/captures");

    private static List<String> lines(FileResult r) {
        return r.findings().stream().map(f -> f.rule() + "@" + f.frame() + ":" + f.severity() + ":" + f.flow() + ":" + f.message()).toList();
    }

    @Test
    void validateKeepsNoMessagesAndFindsTheSame() throws Exception {
        long messages = 0, findings = 0;
        for (String name : List.of("rocev2-clean", "rocev2-gbn-loss", "rocev2-read-atomic", "rocev2-rnr", "rocev2-ecn-cnp",
                "conformance-violations", "metaroce-spray-lossy-path", "metaroce-incast-credit", "rocev2-retry-exhausted")) {
            Path cap = SAMPLES.resolve(name + ".pcapng");
            FileResult plain = FileValidator.validate(cap, ValidateSettings.defaults(), false, null);
            assertEquals(null, plain.error, name);
            assertNotNull(plain.analysis, name);
            FileValidator.InSession s = FileValidator.inSession(cap, ValidateSettings.defaults(), AnalysisSession.Options.RESULTS, null);
            var result = s.session().run(cap);
            FileResult kept = s.finish(result);
            assertEquals(lines(kept), lines(plain), name);
            findings += plain.findings().size();
            for (int i = 0; i < result.flows().size(); i++) {
                FlowSummary with = result.flows().get(i), without = plain.analysis.flows().get(i);
                assertEquals(with.id(), without.id(), name);
                if (with.srcQps() == null) {
                    messages += with.counters().messages();
                    assertEquals(0, without.counters().messages(), name + " " + with.id());
                }
                assertEquals(null, without.latency().ackRtt(), name + " " + with.id());
                assertEquals(with.counters().acks(), without.counters().acks(), name + " " + with.id());
            }
        }
        assertTrue(messages > 100 && findings > 20, "not vacuous: " + messages + " messages, " + findings + " findings");
    }
}

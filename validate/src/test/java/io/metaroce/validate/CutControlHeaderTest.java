package io.metaroce.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSession;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MetaRoCE control packet cut by the snap length before its extended header has none of that header's fields:
 * the rules must not judge it on the values an earlier frame left in its frame slot (found on damaged copies of the
 * samples, where a cut MR-SACK got MR-ACK-001 "covers PSN 16777215" and MR-ACK-004 on two threads and not on one).
 */
class CutControlHeaderTest {

    @Test
    void aControlPacketCutBeforeItsHeaderIsNotJudgedOnAnotherFramesFields(@TempDir Path dir) throws Exception {
        BuiltCapture c = new BuiltCapture();
        for (int p = 0; p < 10; p++) {
            c.add(BuiltCapture.v1(0x04, false, BuiltCapture.A, BuiltCapture.B).payload(64).set("bth.psn", p));
        }
        // Frame 11: a good MR-SACK; 12: one whose base_psn equals cum_psn (MR-ACK-004, read from its header); 13 and
        // 14: MR-SACKs cut right after their MRTH, whose slots hold frame 12's fields (one thread) or none (two).
        c.add(sack(5, 6));
        c.add(sack(5, 5));
        int headers = 14 + 20 + 8 + 12 + 16; // Ethernet, IPv4, UDP, BTH, MRTH: the SACKETH is not captured
        c.addCut(sack(5, 5), headers);
        c.addCut(sack(9, 9).set("bth.psn", 8), headers);
        Path cap = c.write(dir.resolve("cut-sack.pcap"));
        for (long pipelineFrom : new long[] {Long.MAX_VALUE, 0}) {
            FileResult r = FileValidator.validate(cap, ValidateSettings.defaults(), false, null,
                    AnalysisSession.Options.RESULTS, pipelineFrom);
            assertEquals(null, r.error(), r.error());
            List<String> ack = r.findings().stream().filter(f -> f.rule().startsWith("MR-ACK"))
                    .map(f -> f.rule() + "@" + f.frame()).toList();
            // Not vacuous: the rule reads a whole header (frame 12).
            assertTrue(ack.contains("MR-ACK-004@12"), "pipelineFrom " + pipelineFrom + ": " + ack);
            assertTrue(ack.stream().noneMatch(a -> a.endsWith("@13") || a.endsWith("@14")),
                    "pipelineFrom " + pipelineFrom + ": a cut MR-SACK judged: " + ack);
            // The analysis engine reads the two whole MR-SACKs alone (AnalysisEngine#control).
            long sacks = r.analysis.flows().stream().mapToLong(f -> f.counters().sacks()).sum();
            assertEquals(2, sacks, "pipelineFrom " + pipelineFrom + ": MR-SACKs the engine read");
            assertEquals(2, r.truncated, "pipelineFrom " + pipelineFrom + ": " + r.findings());
        }
    }

    private static io.metaroce.dissector.FrameBuilder sack(int cum, int base) {
        return BuiltCapture.v1(0xE0, false, BuiltCapture.B, BuiltCapture.A).set("bth.psn", 9)
                .set("sacketh.cum_psn", cum).set("sacketh.base_psn", base);
    }
}

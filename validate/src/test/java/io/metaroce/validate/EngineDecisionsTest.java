package io.metaroce.validate;

import static io.metaroce.validate.BuiltCapture.A;
import static io.metaroce.validate.BuiltCapture.B;
import static io.metaroce.validate.BuiltCapture.v2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules take the analysis engine's decisions instead of making their own: a capture duplicate (§11 f) is
 * the engine's call, and the frame rules' findings on it are dropped with it (reported once, at the first copy).
 */
class EngineDecisionsTest {
    @TempDir
    Path dir;

    @Test
    void aCaptureDuplicateIsJudgedOnceAsTheEngineDecides() throws Exception {
        BuiltCapture c = new BuiltCapture();
        // A reserved BTH bit set (MR-HDR-003) on the first packet, which the capture then shows twice.
        c.add(v2(0x0A, A, B).payload(256).set("bth.psn", 100).set("reth.dma_length", 512).set("bth.resv6", 1));
        c.add(v2(0x0A, A, B).payload(256).set("bth.psn", 100).set("reth.dma_length", 512).set("bth.resv6", 1), 100);
        c.add(v2(0x08, A, B).payload(256).set("bth.psn", 101));
        Path f = c.write(dir.resolve("dup.pcap"));
        for (long pipelineFrom : new long[] {Long.MAX_VALUE, 0}) {
            FileResult r = FileValidator.validate(f, new ValidateSettings.Builder().tap("host:10.0.0.1").build(), false, null,
                    io.metaroce.analysis.AnalysisSession.Options.RESULTS, pipelineFrom);
            assertNull(r.error(), r.error());
            assertEquals(1, r.duplicates, "the engine's duplicate");
            assertEquals(1L, ((Number) r.analysis.capture().get("duplicates")).longValue());
            List<Finding> hdr = r.findings().stream().filter(x -> x.rule().equals("MR-HDR-003")).toList();
            assertEquals(1, hdr.size(), r.findings().toString());
            assertEquals(1, hdr.get(0).frame());
            assertEquals(0, r.findings().stream().filter(x -> x.rule().startsWith("MR-RTX")).count(), r.findings().toString());
        }
    }
}

package io.metaroce.validate;

import static io.metaroce.validate.BuiltCapture.A;
import static io.metaroce.validate.BuiltCapture.B;
import static io.metaroce.validate.BuiltCapture.v2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.FlowSummary;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * validate and analyze judge a capture with one set of stream thresholds and one flow id: a PSN jump is a gap
 * for both or a new stream for both (they used to disagree between 2^16 and 2^20), and every finding names a
 * flow the analysis reports.
 */
class OneStateMachineTest {
    private static final String DATA = "10.0.0.1>10.0.0.2/0x000021";
    @TempDir
    Path dir;

    private FileResult run(int jump) throws Exception {
        BuiltCapture c = new BuiltCapture();
        int psn = 100;
        for (int i = 0; i < 4; i++) c.add(v2(0x0A, A, B).payload(256).set("bth.psn", psn++).set("reth.dma_length", 256));
        psn += jump;
        for (int i = 0; i < 4; i++) c.add(v2(0x0A, A, B).payload(256).set("bth.psn", psn++).set("reth.dma_length", 256));
        Path f = c.write(dir.resolve("jump" + jump + ".pcap"));
        FileResult r = FileValidator.validate(f, new ValidateSettings.Builder().tap("host:10.0.0.1").build(), false, null);
        assertNull(r.error(), r.error());
        return r;
    }

    private static long gaps(FileResult r) {
        FlowSummary f = r.analysis.flow(DATA);
        return f.counters().psnGaps();
    }

    private static long seq001(FileResult r) {
        return r.findings().stream().filter(x -> x.rule().equals("MR-SEQ-001")).count();
    }

    @Test
    void aJumpWithinTheLimitIsAGapForBoth() throws Exception {
        FileResult r = run(1000);
        assertEquals(1, gaps(r), "analyze: a gap");
        assertEquals(1, seq001(r), "validate: MR-SEQ-001 at the sender's tap " + r.findings());
    }

    @Test
    void aJumpBeyondTheLimitIsANewStreamForBoth() throws Exception {
        // 100,000 PSNs: above 2^16, below the 2^20 validate used to have.
        FileResult r = run(100_000);
        assertEquals(0, gaps(r), "analyze: a new stream");
        assertEquals(0, seq001(r), "validate: no gap either " + r.findings());
    }

    @Test
    void findingsNameTheAnalysisFlows() throws Exception {
        FileResult r = run(1000);
        Set<String> ids = r.analysis.flows().stream().map(FlowSummary::id).collect(Collectors.toSet());
        assertTrue(ids.contains(DATA), ids.toString());
        for (Finding x : r.findings()) if (x.flow() != null) assertTrue(ids.contains(x.flow()), x.toString());
    }
}

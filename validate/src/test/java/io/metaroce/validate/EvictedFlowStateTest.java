package io.metaroce.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSession;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14.3: the rules' state of a flow goes when the analysis evicts the flow (more QPs than its flow bound).
 * Before, every QP of the capture kept its {@link FlowState} and its PSN columns to the end of the pass, so that
 * validate of 10^6 single-packet QPs ran out of memory under -Xmx1g whatever the engine's bound.
 */
class EvictedFlowStateTest {
    private static final int QPS = 40, BOUND = 8;

    /** QP 0x100 + i sends a two-packet WRITE (First, Last) at 10 us intervals; every fifth has a bad ICRC on its Last. */
    private static Path capture(Path dir) throws Exception {
        BuiltCapture c = new BuiltCapture();
        for (int i = 0; i < QPS; i++) {
            c.add(BuiltCapture.v2(0x06, BuiltCapture.A, BuiltCapture.B).payload(256).set("bth.dest_qp", 0x100 + i)
                    .set("bth.psn", 100).set("reth.dma_length", 512));
            io.metaroce.dissector.FrameBuilder last = BuiltCapture.v2(0x08, BuiltCapture.A, BuiltCapture.B).payload(256)
                    .set("bth.dest_qp", 0x100 + i).set("bth.psn", 101);
            c.add(i % 5 == 0 ? last.corruptIcrc() : last);
        }
        return c.write(dir.resolve("qps.pcap"));
    }

    private static RuleEngine run(Path cap, int bound) throws Exception {
        ValidateSettings vs = ValidateSettings.defaults();
        RuleEngine rules = new RuleEngine(vs, false);
        AnalysisSession s = new AnalysisSession(vs.analysis.withCheckIcrc(false).withMaxFlows(bound), AnalysisSession.Options.RESULTS)
                .onFrame(rules);
        s.run(cap);
        rules.finish(0);
        return rules;
    }

    @Test
    void theRuleStateOfEvictedFlowsGoesWithThem(@TempDir Path dir) throws Exception {
        Path cap = capture(dir);
        RuleEngine all = run(cap, 1 << 16), bounded = run(cap, BOUND);
        assertEquals(QPS, all.flowList.size());
        assertEquals(0, all.evictedStates);
        assertTrue(bounded.flowList.size() <= BOUND, "states held: " + bounded.flowList.size());
        assertEquals(QPS, bounded.flowList.size() + bounded.evictedStates, "each flow's state made once, dropped at most once");
        assertTrue(bounded.byId.size() <= BOUND, "by id: " + bounded.byId.size());
        for (FlowState fl : bounded.flowList) {
            assertTrue(!fl.evicted && bounded.byId.get(fl.id) == fl, fl.id);
        }
        // The evicted flows' state is gone: the QPs of the capture's start are in neither table.
        assertNull(bounded.byId.get(all.flowList.get(0).id));
        // What the rules found does not depend on the bound here (no finding waited on a flow's later frames).
        assertEquals(findings(all), findings(bounded));
        assertEquals(QPS / 5, findings(bounded).size());
    }

    private static List<String> findings(RuleEngine r) {
        return r.findings.list().stream().map(f -> f.rule() + "@" + f.frame() + " " + f.flow() + ": " + f.message()).toList();
    }
}

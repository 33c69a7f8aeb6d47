package io.metaroce.validate;

import static io.metaroce.validate.BuiltCapture.A;
import static io.metaroce.validate.BuiltCapture.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.FrameBuilder;
import io.metaroce.dissector.Icrc;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A frame the decoder's short cut takes leaves its slot's {@link FrameExtra} alone: the decoding thread writes only where
 * the frame starts in the capture's mapping (RuleEngine#fastAt), and the analysis thread works out from the frame's facts
 * where its extension headers, payload and ICRC lie (RuleEngine#extraOf), which MR-RTX-002 compares between a
 * retransmission and its first copy. Retransmissions that differ only in their RETH, or only in their payload's last
 * byte, must be told apart as the dissection's path tells them, on one thread and on two.
 */
class FastSlotsTest {

    /** A WRITE First (RETH) and Last, then each sent again: the First with another RETH address, the Last with its last payload byte changed. */
    private static Path capture(Path dir) throws Exception {
        FrameBuilder first = BuiltCapture.v2(0x06, A, B).payload(256).set("bth.psn", 100).set("reth.dma_length", 512)
                .set("reth.virtual_address", 0x1000);
        FrameBuilder last = BuiltCapture.v2(0x08, A, B).payload(256).set("bth.psn", 101);
        byte[] changed = last.build();
        changed[changed.length - 5] ^= 0x01; // the payload's last byte (no pad: 256 bytes), before the ICRC
        long icrc = new Icrc().overIp(MemorySegment.ofArray(changed), 14, 20, false, 14 + 20 + 8, changed.length - 4);
        for (int k = 0; k < 4; k++) changed[changed.length - 4 + k] = (byte) (icrc >>> (8 * k));
        BuiltCapture c = new BuiltCapture().add(first).add(last)
                .add(BuiltCapture.v2(0x06, A, B).payload(256).set("bth.psn", 100).set("reth.dma_length", 512)
                        .set("reth.virtual_address", 0x2000))
                .add(changed);
        return c.write(dir.resolve("rtx.pcap"));
    }

    private static RuleEngine run(Path cap, boolean fast, long pipelineFrom) throws Exception {
        ValidateSettings vs = ValidateSettings.defaults();
        RuleEngine rules = new RuleEngine(vs, false);
        rules.fast = fast;
        new AnalysisSession(vs.analysis, AnalysisSession.Options.RESULTS).onFrame(rules).pipelineFrom(pipelineFrom).run(cap);
        rules.finish(0);
        return rules;
    }

    private static List<String> rtx(RuleEngine r) {
        return r.findings.list().stream().filter(f -> f.rule().equals("MR-RTX-002")).map(f -> f.frame() + ": " + f.message()).toList();
    }

    @Test
    void aTakenFrameLeavesItsSlotAndItsBytesAreComparedAsBefore(@TempDir Path dir) throws Exception {
        Path cap = capture(dir);
        List<String> expected = List.of(
                "3: PSN 100 sent again with different extension headers (RETH, ImmDt, IETH, ...) than its first copy",
                "4: PSN 101 sent again with different payload bytes than its first copy");
        assertEquals(expected, rtx(run(cap, false, Long.MAX_VALUE)), "the dissection's path");
        for (long pipelineFrom : new long[] {Long.MAX_VALUE, 0}) {
            RuleEngine rules = run(cap, true, pipelineFrom);
            assertEquals(4, rules.fastTaken(), "every frame takes the short cut");
            assertEquals(expected, rtx(rules), "the short cut's path, pipelineFrom " + pipelineFrom);
            for (int slot = 0; slot < AnalysisSession.FRAME_SLOTS; slot++) {
                assertFalse(rules.slot(slot).roce, "slot " + slot + " written by a taken frame");
            }
        }
        // The dissection's path writes the slots (the check above is not vacuous).
        RuleEngine full = run(cap, false, 0);
        assertTrue(full.slot(0).roce);
    }
}

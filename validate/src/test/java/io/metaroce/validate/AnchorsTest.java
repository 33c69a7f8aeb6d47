package io.metaroce.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.RuleIds;
import io.metaroce.protocol.Spec;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Findings point at bytes (ExpertItem-style anchors): every planted violation of the conformance scenario is
 * anchored at its frame, on a header the frame holds, and a field anchor's bytes hold that field's value as the
 * dissector reads it. Rule ids are the spec's ({@link RuleIds}).
 */
class AnchorsTest {

    @Test
    void plantedViolationsPointAtTheFieldTheyBreak() throws Exception {
        Path cap = Captures.of("conformance-violations", null);
        FileResult r = FileValidator.validate(cap, ValidateSettings.defaults(), false, null);
        Map<String, Finding> byRuleFrame = new HashMap<>();
        for (Finding f : r.findings()) byRuleFrame.putIfAbsent(f.rule() + "@" + f.frame(), f);
        Set<String> ids = Spec.RULES.stream().map(x -> x.id()).collect(Collectors.toSet());
        for (Finding f : r.findings()) assertTrue(ids.contains(f.rule()), f.rule());
        Map<Long, Dissection> frames = dissect(cap, r.findings().stream().map(Finding::frame).collect(Collectors.toSet()));
        int anchored = 0;
        for (JsonNode v : Captures.truth(cap).get("violations")) {
            String rule = v.get("rule").asText();
            long frame = v.get("frame").asLong();
            Finding f = byRuleFrame.get(rule + "@" + frame);
            assertNotNull(f, rule + " at frame " + frame + " " + r.findings());
            assertNotNull(f.anchor(), "anchor of " + f);
            anchored++;
        }
        // The MR-DIAG rules are the analyzer's diagnoses, shown by the fault scenarios (DiagnosisRulesTest), not planted here.
        long planted = Spec.RULES.stream().filter(x -> !x.diagnosis()).count();
        assertEquals(planted, anchored, "every rule is planted once and anchored");
        for (Finding f : r.findings()) if (f.anchor() != null) check(f, frames.get(f.frame()));
    }

    /**
     * Rules whose finding falls on a frame other than the one being judged when it is decided (the ordered
     * message checks run behind the newest PSN, a SACK is judged against the one sent after it, a CE mark once
     * its window passed, a timeout retransmission once the engine's held event comes): anchored all the same,
     * on the field they are about, and their SARIF result has the bytes as region inside the frame.
     */
    private static final Map<String, String> LATE = Map.of(RuleIds.MR_SEQ_002, "bth.opcode", RuleIds.MR_SEQ_003, "payload",
            RuleIds.MR_SEQ_004, "reth.dma_length", RuleIds.MR_SEQ_005, "mrth.msg_id", RuleIds.MR_ACK_004,
            "sacketh.base_psn", RuleIds.MR_CC_002, "ip.ecn", RuleIds.MR_RTX_005, "bth.psn");

    @Test
    void lateRulesAreAnchoredOnTheirFieldAndInSarif() throws Exception {
        Path cap = Captures.of("conformance-violations", null);
        FileResult r = FileValidator.validate(cap, ValidateSettings.defaults(), false, null);
        Map<String, Long> planted = new HashMap<>();
        for (JsonNode v : Captures.truth(cap).get("violations")) planted.put(v.get("rule").asText(), v.get("frame").asLong());
        Map<Long, Dissection> frames = dissect(cap, Set.copyOf(planted.values()));
        Map<String, Object> sarif = Reports.sarifTree(List.of(r), ValidateSettings.defaults());
        JsonNode results = new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(sarif).get("runs").get(0).get("results");
        for (var e : LATE.entrySet()) {
            long frame = planted.get(e.getKey());
            Finding f = r.findings().stream().filter(x -> x.rule().equals(e.getKey()) && x.frame() == frame).findFirst()
                    .orElseThrow(() -> new AssertionError(e.getKey() + " at " + frame + " " + r.findings()));
            assertNotNull(f.anchor(), "anchor of " + f);
            assertEquals(e.getValue(), f.anchor().field() != null ? f.anchor().field() : f.anchor().header(), f.toString());
            check(f, frames.get(frame));
            JsonNode res = null;
            for (JsonNode x : results) {
                if (x.get("ruleId").asText().equals(e.getKey()) && x.get("properties").get("frame").asLong() == frame) res = x;
            }
            assertNotNull(res, "SARIF result of " + f);
            JsonNode phys = res.get("locations").get(0).get("physicalLocation");
            assertNotNull(phys.get("region"), res.toString());
            JsonNode ctx = phys.get("contextRegion");
            assertNotNull(ctx, "the frame as context: " + res);
            long start = phys.get("region").get("byteOffset").asLong(), len = phys.get("region").get("byteLength").asLong();
            assertTrue(start >= ctx.get("byteOffset").asLong() && start + len <= ctx.get("byteOffset").asLong()
                    + ctx.get("byteLength").asLong(), "region inside the frame: " + res);
        }
    }

    /** The anchor lies on a header of the frame, and a whole-byte field's bytes hold the value the dissector reads. */
    private static void check(Finding f, Dissection d) {
        Anchor a = f.anchor();
        assertTrue(a.offset() >= 0 && a.length() > 0 && a.offset() + a.length() <= d.capturedLength(), f + " " + a);
        if (a.header().equals("icrc") || a.header().equals("payload")) return;
        HeaderDef h = Spec.HEADERS.stream().filter(x -> x.id().equals(a.header())).findFirst().orElseThrow();
        int off = d.offsetOf(h.index());
        assertTrue(off >= 0, f + ": the frame holds no " + a.header());
        assertTrue(a.offset() >= off && a.offset() + a.length() <= off + h.size(), f + " " + a + " within " + a.header() + " at " + off);
        if (a.field() == null) return;
        FieldDef fd = Spec.FIELDS.stream().filter(x -> x.name().equals(a.field())).findFirst().orElseThrow();
        assertEquals(h.index(), fd.header(), a.field());
        if (fd.bitOffset() % 8 == 0 && fd.bitWidth() % 8 == 0 && fd.bitWidth() <= 64 && fd.mask() == 0) {
            long raw = 0;
            for (int i = 0; i < a.length(); i++) raw = raw << 8 | (d.data().get(ValueLayout.JAVA_BYTE, a.offset() + i) & 0xFF);
            assertEquals(fd.readLong(d.data(), off), raw, f + ": the bytes at " + a);
        }
    }

    /** The wanted frames, each dissected into its own Dissection (the capture mapping stays open for the test). */
    private static Map<Long, Dissection> dissect(Path cap, Set<Long> wanted) throws Exception {
        Map<Long, Dissection> out = new HashMap<>();
        PacketSource src = CaptureFiles.open(cap);
        Dissector dis = new Dissector(new DissectorConfig(Set.of(Spec.ROCE_UDP_PORT), true));
        while (src.next()) {
            if (!wanted.contains(src.frameNumber())) continue;
            Dissection d = new Dissection();
            dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                    src.fcsLength(), d);
            out.put(src.frameNumber(), d);
        }
        return out;
    }

    @Test
    void sarifRegionIsTheAnchoredBytesInsideTheFrame() throws Exception {
        Path cap = Captures.of("conformance-violations", null);
        FileResult r = FileValidator.validate(cap, ValidateSettings.defaults(), false, null);
        Map<String, Object> sarif = Reports.sarifTree(List.of(r), ValidateSettings.defaults());
        JsonNode run = new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(sarif).get("runs").get(0);
        int withContext = 0;
        for (JsonNode res : run.get("results")) {
            JsonNode phys = res.get("locations").get(0).get("physicalLocation");
            JsonNode anchor = res.get("properties").get("anchor");
            if (anchor == null) {
                assertTrue(phys.get("contextRegion") == null, res.toString());
                continue;
            }
            JsonNode region = phys.get("region"), frame = phys.get("contextRegion");
            assertEquals(frame.get("byteOffset").asLong() + anchor.get("offset").asLong(), region.get("byteOffset").asLong());
            assertEquals(anchor.get("length").asLong(), region.get("byteLength").asLong());
            assertEquals(frame.get("startLine").asLong(), region.get("startLine").asLong());
            withContext++;
        }
        assertTrue(withContext > 0);
    }
}

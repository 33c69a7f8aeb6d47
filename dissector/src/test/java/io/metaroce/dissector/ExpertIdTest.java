package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.protocol.Bth;
import io.metaroce.protocol.Expert;
import io.metaroce.protocol.ExpertDef;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.OpcodeRangeDef;
import io.metaroce.protocol.RuleDef;
import io.metaroce.protocol.RuleIds;
import io.metaroce.protocol.Spec;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Expert items carry a stable id from the spec's expert table and an anchor in the frame; the dissector emits
 * them only through the generated {@link Expert} constants; rule ids are generated constants too.
 */
class ExpertIdTest {

    private static Dissection dissect(byte[] frame) {
        return new Dissector().dissect(MemorySegment.ofArray(frame), 1, 0, frame.length, 1, -1, new Dissection());
    }

    @Test
    void theGeneratedTableIsConsistent() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < Expert.ALL.size(); i++) {
            ExpertDef d = Expert.ALL.get(i);
            assertEquals(i, d.index());
            assertTrue(ids.add(d.id()), "duplicate " + d.id());
            assertSame(d, Expert.byId(d.id()));
            if (d.rule() != null) assertTrue(Spec.RULES.stream().anyMatch(r -> r.id().equals(d.rule())), d.id() + " -> " + d.rule());
        }
        assertEquals("MR-FRAME-001", RuleIds.MR_FRAME_001);
        assertEquals(Spec.RULES.stream().map(RuleDef::id).toList().size(), RuleIds.class.getFields().length);
        for (OpcodeRangeDef r : Spec.OPCODE_RANGES) assertEquals(r.severity(), r.expert().severity(), r.id());
    }

    @Test
    void aBadIcrcIsAnchoredOnTheIcrcBytes() {
        byte[] frame = new FrameBuilder().opcode(0x04, 0).payload(16).corruptIcrc().build();
        Dissection d = dissect(frame);
        ExpertItem e = only(d, Expert.ICRC_BAD);
        assertEquals("icrc.bad", e.id());
        assertEquals(RuleIds.MR_FRAME_001, e.rule());
        assertEquals(ExpertItem.Group.CHECKSUM, e.group());
        assertEquals(frame.length - 4, e.offset());
        assertEquals(4, e.length());
    }

    @Test
    void aWrongIpVersionIsAnchoredOnItsField() {
        byte[] frame = new FrameBuilder().opcode(0x04, 0).payload(16).set("ip.version", 5).build();
        Dissection d = dissect(frame);
        ExpertItem e = only(d, Expert.IP_VERSION_BAD);
        assertEquals(Ip.HEADER, d.layerHeader(e.layer()));
        assertEquals(Ip.F_VERSION, e.field());
        assertFalse(e.hasRange());
    }

    @Test
    void aReservedOpcodeGetsTheRangesExpertOnTheOpcodeField() {
        byte[] frame = new FrameBuilder().opcode(0x04, 0).payload(16).set("bth.opcode", 0xC3).build();
        Dissection d = dissect(frame);
        ExpertItem e = only(d, Expert.BTH_OPCODE_RESERVED);
        assertEquals(Bth.HEADER, d.layerHeader(e.layer()));
        assertEquals(Bth.F_OPCODE, e.field());
        assertEquals(RuleIds.MR_HDR_002, e.rule());
    }

    @Test
    void theDissectorNamesNoSeverityOrGroupItself() throws Exception {
        // Every item goes through a spec id: no severity/group literals in the dissector's emitting code.
        Path src = Path.of("src/main/java/io/metaroce/dissector/Dissector.java");
        String text = Files.readString(src);
        assertNotNull(text);
        for (String banned : List.of("Severity.ERROR", "Severity.NOTE", "Severity.WARN", "Group.", "new ExpertItem("))
            assertFalse(text.contains(banned), "Dissector.java mentions " + banned);
    }

    private static ExpertItem only(Dissection d, ExpertDef def) {
        List<ExpertItem> l = d.expert().stream().filter(e -> e.def() == def).toList();
        assertEquals(1, l.size(), d.expert().toString());
        return l.getFirst();
    }
}

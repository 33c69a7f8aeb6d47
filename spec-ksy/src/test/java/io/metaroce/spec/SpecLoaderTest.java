package io.metaroce.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.spec.SpecModel.Field;
import io.metaroce.spec.SpecModel.Spec;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The loader takes only the keys it knows, so a typo or an unquoted comma in the YAML cannot lose data silently. */
class SpecLoaderTest {
    private static String yaml() throws Exception {
        return Files.readString(Path.of("metaroce-v1.yaml"), StandardCharsets.UTF_8);
    }

    private static Spec load(String text) { return SpecLoader.parse(new StringReader(text)); }

    private static Field field(Spec spec, String header, String id) {
        for (var h : spec.headers()) if (h.id().equals(header)) for (Field f : h.fields()) if (f.id().equals(id)) return f;
        for (var h : spec.pseudo()) if (h.id().equals(header)) for (Field f : h.fields()) if (f.id().equals(id)) return f;
        throw new AssertionError(header + "." + id);
    }

    @Test
    void anUnquotedCommaInAFlowMapIsRejectedWithItsPathAndKey() throws Exception {
        String text = yaml().replace("label: Pad count, ws: infiniband.bth.padcnt, doc: pad bytes before the ICRC}",
                "label: Pad count, ws: infiniband.bth.padcnt, doc: pad bytes, before the ICRC}");
        SpecException e = assertThrows(SpecException.class, () -> load(text));
        assertTrue(e.getMessage().contains("headers.bth.fields[3] (pad_cnt)"), e.getMessage());
        assertTrue(e.getMessage().contains("unknown key 'before the ICRC'"), e.getMessage());
    }

    @Test
    void aMisspelledKeyIsRejectedAtEveryLevel() throws Exception {
        String y = yaml();
        record Case(String from, String to, String path, String key) {}
        for (Case c : new Case[] {
                new Case("  roce-udp-port: 4791", "  roce-udp-prot: 4791", "meta", "roce-udp-prot"),
                new Case("    title: Ethernet II\n", "    titel: Ethernet II\n", "headers.eth", "titel"),
                new Case("{id: kind, mask: 0x60,", "{id: kind, msk: 0x60, mask: 0x60,", "subfields[0]", "msk"),
                new Case("  rc:  {base: 0x00,", "  rc:  {bsae: 1, base: 0x00,", "transports.rc", "bsae"),
                new Case("{id: MR-FRAME-001, severity: error,", "{id: MR-FRAME-001, severty: x, severity: error,", "rules[0]", "severty"),
                new Case("0: {id: not_ect, label: Not-ECT}", "0: {id: not_ect, label: Not-ECT, lable: x}", "enums.ecn.0", "lable"),
                new Case("\nrules:\n", "\nrulez: []\nrules:\n", "top level", "rulez")}) {
            assertTrue(y.contains(c.from()), c.from());
            SpecException e = assertThrows(SpecException.class, () -> load(y.replace(c.from(), c.to())), c.to());
            assertTrue(e.getMessage().contains(c.path()) && e.getMessage().contains("'" + c.key() + "'"), e.getMessage());
        }
    }

    @Test
    void theValuesThatWereCutAtACommaAreWhole() throws Exception {
        Spec spec = load(yaml());
        assertEquals("0 RoCEv2, 1 MetaRoCE v1 (A1)", field(spec, "bth", "tver").doc());
        assertEquals("good, bad, or unchecked (frame cut by the snap length, IPv6 extension headers)",
                field(spec, "icrc", "status").doc());
        assertEquals("Message completion time, on the frame that completes it (ns)",
                field(spec, "analysis", "message_completion_ns").label());
    }

    @Test
    void aRuleIsAConformanceRuleUnlessItsKindSaysDiagnosis() throws Exception {
        Spec spec = load(yaml());
        for (var r : spec.rules()) assertEquals(r.id().startsWith("MR-DIAG-") ? "diagnosis" : "conformance", r.kind(), r.id());
        String bad = yaml().replace("{id: MR-DIAG-001, severity: warn, kind: diagnosis,", "{id: MR-DIAG-001, severity: warn, kind: diagnostic,");
        SpecException e = assertThrows(SpecException.class, () -> load(bad));
        assertTrue(e.getMessage().contains("MR-DIAG-001: kind must be conformance or diagnosis"), e.getMessage());
    }
}

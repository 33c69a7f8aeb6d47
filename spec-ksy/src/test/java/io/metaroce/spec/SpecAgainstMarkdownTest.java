package io.metaroce.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.spec.SpecModel.Field;
import io.metaroce.spec.SpecModel.Header;
import io.metaroce.spec.SpecModel.Opcode;
import io.metaroce.spec.SpecModel.Rule;
import io.metaroce.spec.SpecModel.Spec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The YAML is derived from the normative markdown (spec-ksy/metaroce-v1.md, a copy of
 * shared/spec/metaroce-v1.md): this test reads the markdown's tables and checks the YAML against
 * them: BTH and MRTH bit layouts (§2, §3), SACKETH offsets (§7), header sizes (§6, §7), the opcode
 * grid (§5), the control opcodes (§7) and the rule catalogue (§11).
 */
class SpecAgainstMarkdownTest {
    private static final Spec SPEC = load();
    private static final List<String> MD = lines();

    static Spec load() {
        try {
            return SpecLoader.load(Path.of("metaroce-v1.yaml"));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static List<String> lines() {
        try {
            return Files.readAllLines(Path.of("metaroce-v1.md"));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Rows of the first table after the line starting with heading. */
    static List<String[]> table(String heading) {
        int i = 0;
        while (i < MD.size() && !MD.get(i).startsWith(heading)) i++;
        assertTrue(i < MD.size(), "markdown has no " + heading);
        while (!MD.get(i).startsWith("|")) i++;
        i += 2; // header row and separator
        List<String[]> rows = new ArrayList<>();
        for (; i < MD.size() && MD.get(i).startsWith("|"); i++) {
            String[] cells = MD.get(i).split("\\|", -1);
            String[] trimmed = new String[cells.length - 2];
            for (int k = 1; k < cells.length - 1; k++) trimmed[k - 1] = cells[k].trim();
            rows.add(trimmed);
        }
        return rows;
    }

    static Field field(String header, String id) {
        for (Field f : SPEC.header(header).fields()) if (f.id().equals(id)) return f;
        throw new AssertionError(header + " has no field " + id);
    }

    /** Checks rows of (offset, mask, field) against the YAML's bit layout. */
    static void checkBitTable(String header, List<String[]> rows) {
        for (String[] r : rows) {
            String off = r[0], mask = r[1], name = r[2];
            int start, width;
            if (mask.isEmpty()) {
                String[] range = off.split("-");
                start = Integer.parseInt(range[0]) * 8;
                width = (Integer.parseInt(range[range.length - 1]) - Integer.parseInt(range[0]) + 1) * 8;
            } else {
                int m = Integer.decode(mask);
                start = Integer.parseInt(off) * 8 + Integer.numberOfLeadingZeros(m) - 24;
                width = Integer.bitCount(m);
            }
            Field f = field(header, name);
            assertEquals(start, f.bitOffset(), header + "." + name + " bit offset");
            assertEquals(width, f.bits(), header + "." + name + " width");
        }
    }

    @Test
    void bthAndMrthLayoutsMatchTheMarkdown() {
        checkBitTable("bth", table("## 2. Base Transport Header"));
        checkBitTable("mrth", table("## 3. MetaRoCE Transport Header"));
        assertEquals(12, SPEC.header("bth").size());
        assertEquals(16, SPEC.header("mrth").size());
    }

    @Test
    void sackethOffsetsAndSizesMatchTheMarkdown() {
        for (String[] r : table("SACKETH, 24 bytes")) {
            Field f = field("sacketh", r[2]);
            assertEquals(Integer.parseInt(r[0]) * 8, f.bitOffset(), "sacketh." + r[2] + " offset");
            assertEquals(Integer.parseInt(r[1]) * 8, f.bits(), "sacketh." + r[2] + " size");
        }
        assertEquals(24, SPEC.header("sacketh").size());
    }

    @Test
    void extensionHeaderSizesMatchTheMarkdown() {
        for (String[] r : table("## 6. IBTA extension headers")) {
            String id = r[0].toLowerCase();
            assertEquals(Integer.parseInt(r[1]), SPEC.header(id).size(), id + " size");
        }
        Map<String, Integer> control = Map.of("sacketh", 24, "nacketh", 8, "crediteth", 8, "mrcnpeth", 8, "probeeth", 8);
        control.forEach((id, size) -> assertEquals(size, SPEC.header(id).size(), id));
        Map<String, String> renamed = Map.of("flags", "spray", "reserved", "resv24");
        for (String[] r : table("### 4.1 MetaRoCE connection parameters")) {
            String name = r[2].split("[:, ]")[0].trim();
            Field f = field("mrcm", renamed.getOrDefault(name, name));
            assertEquals(Integer.parseInt(r[0]) * 8, f.bitOffset(), "mrcm." + name + " offset");
            if (!name.equals("flags")) assertEquals(Integer.parseInt(r[1]) * 8, f.bits(), "mrcm." + name + " size");
        }
        assertEquals(field("mrcm", "spray").bitOffset() + 1, field("mrcm", "credit").bitOffset(), "flags: 0x80 spray, 0x40 credit");
        assertEquals(12, SPEC.header("mrcm").size());
    }

    @Test
    void opcodeGridMatchesTheMarkdown() {
        Map<Integer, Opcode> v0 = new HashMap<>(), v1 = new HashMap<>();
        for (Opcode op : SpecLoader.expandOpcodes(SPEC)) {
            if (op.tver().contains(0)) v0.put(op.code(), op);
            if (op.tver().contains(1)) v1.put(op.code(), op);
        }
        int checked = 0;
        for (String[] r : table("## 5. Opcodes and headers")) {
            // columns: op | operation | RC | UC | RD | UD | XRC | headers
            for (int col = 2; col <= 6; col++) {
                if (r[col].equals("-")) continue;
                int code = Integer.decode(r[col]);
                Opcode op = v0.get(code);
                assertNotNull(op, "opcode " + r[col] + " (" + r[1] + ") missing");
                String operation = r[1].replaceAll(" \\(.*\\)", "");
                assertTrue(op.label().toUpperCase().endsWith(operation.toUpperCase()), op.label() + " vs " + r[1]);
                checked++;
            }
            if (!r[2].equals("-")) assertNotNull(v1.get(Integer.decode(r[2])), "RC opcode " + r[2] + " must exist under tver 1");
        }
        assertTrue(checked > 80, "checked " + checked);
        for (String[] r : table("## 7. MetaRoCE control packets")) {
            Opcode op = v1.get(Integer.decode(r[0]));
            assertNotNull(op, r[0]);
            assertEquals(r[1], op.label());
            assertEquals(List.of(r[2].replaceAll(" .*", "").toLowerCase()), op.chain());
        }
        assertEquals("cnp", v0.get(0x81).id());
        assertEquals(List.of("reth"), v1.get(0x07).sprayChain());
        assertEquals(List.of("reth", "immdt"), v1.get(0x09).sprayChain());
        assertEquals(List.of("rdeth", "deth", "reth"), v0.get(0x46).chain(), "RD requests: RDETH, DETH, then the RC-form headers");
        assertEquals(List.of("rdeth", "aeth"), v0.get(0x4D).chain(), "RD responses: RDETH, then the RC-form headers");
        assertEquals(List.of("aeth"), v0.get(0xAD).chain(), "XRC responses carry no XRCETH");
        assertEquals(List.of("xrceth", "reth"), v0.get(0xA6).chain());
    }

    @Test
    void ruleCatalogueMatchesTheMarkdown() {
        List<String[]> rows = table("## 11. Conformance rules");
        assertEquals(rows.size(), SPEC.rules().size());
        for (int i = 0; i < rows.size(); i++) {
            Rule r = SPEC.rules().get(i);
            assertEquals(rows.get(i)[0], r.id());
            assertEquals(rows.get(i)[1], r.severity(), r.id());
            assertEquals(rows.get(i)[2], r.text(), r.id());
        }
    }

    @Test
    void everyHeaderFillsWholeBytesAndNamesAreUnique() {
        for (Header h : SPEC.headers()) assertEquals(0, h.sizeBits() % 8, h.id());
        Pattern p = Pattern.compile("[a-z][a-z0-9_]*");
        for (Header h : SPEC.headers()) for (Field f : h.fields()) {
            Matcher m = p.matcher(f.id());
            assertTrue(m.matches(), h.id() + "." + f.id());
        }
    }
}

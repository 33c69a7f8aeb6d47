package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.testsupport.PauseFrames;
import io.metaroce.testsupport.Tools;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 802.3x PAUSE and 802.1Qbb PFC frames (MAC Control, EtherType 0x8808): every macc field of every frame of the vectors
 * (XOFF on several classes, XON, PAUSE, an unknown opcode, a cut frame, one behind a VLAN tag, a reserved enable bit)
 * agrees with tshark's, and the frames tshark marks get an expert item here.
 */
class MacControlTest {
    @TempDir
    Path tmp;

    /** tshark's name -> ours. */
    private static final Map<String, String> FIELDS = new LinkedHashMap<>();

    static {
        FIELDS.put("macc.opcode", "macc.opcode");
        FIELDS.put("macc.pause_time", "macc_pause.pause_time");
        FIELDS.put("macc.cbfc.enbv", "macc_cbfc.enbv");
        for (int c = 0; c < 8; c++) FIELDS.put("macc.cbfc.enbv.c" + c, "macc_cbfc.enbv.c" + c);
        for (int c = 0; c < 8; c++) FIELDS.put("macc.cbfc.pause_time.c" + c, "macc_cbfc_times.c" + c);
    }

    private static Dissection dissect(byte[] frame) {
        return new Dissector().dissect(MemorySegment.ofArray(frame), 1, 0, frame.length, 1, -1, new Dissection());
    }

    @Test
    void everyMaccFieldAgreesWithTshark() throws Exception {
        Path file = PauseFrames.write(tmp.resolve("pause-pfc.pcap"), PauseFrames.vectors());
        List<DissectedFrame> ours = DissectedFrame.read(file);
        assertEquals(PauseFrames.vectors().size(), ours.size());
        List<String> args = new ArrayList<>(List.of("-r", file.toString(), "-T", "fields", "-E", "separator=/t", "-e", "frame.number"));
        for (String f : FIELDS.keySet()) args.addAll(List.of("-e", f));
        List<String> tshark = Tools.tshark(tmp, List.of(), args.toArray(String[]::new));
        if (tshark == null) return;   // not installed (an error on CI, where Tools insists)
        assertEquals(ours.size(), tshark.size(), String.join("\n", tshark));
        int compared = 0;
        for (int i = 0; i < ours.size(); i++) {
            String[] cols = tshark.get(i).split("\t", -1);
            DissectedFrame f = ours.get(i);
            int c = 1;
            for (var e : FIELDS.entrySet()) {
                String theirs = cols[c++];
                String where = "frame " + f.number() + " " + e.getKey() + " (" + f.protocols() + ")";
                if (theirs.isEmpty()) {
                    assertFalse(f.has(e.getValue()), where + ": tshark has none");
                    continue;
                }
                long expected = theirs.startsWith("0x") ? Long.parseLong(theirs.substring(2), 16) : Long.parseLong(theirs);
                assertEquals(expected, f.num(e.getValue()), where);
                compared++;
            }
        }
        // 2 PFC frames with 17 fields each at least, the PAUSE frames, the cut one's vector: most fields were compared.
        assertTrue(compared > 100, "compared " + compared);
    }

    @Test
    void pauseAndPfcDecodeWithTsharksSummary() {
        Dissection pause = dissect(PauseFrames.pause(PauseFrames.SWITCH_B, 65535));
        assertEquals("eth:macc:macc_pause", pause.protocols());
        assertTrue(pause.expert().isEmpty(), pause.expert().toString());
        assertEquals("MAC CTRL", FrameSummary.protocol(pause, FrameSummary.Style.LINE));
        assertEquals("02:00:00:00:00:0b", FrameSummary.source(pause, FrameSummary.Style.LINE));
        assertEquals("01:80:c2:00:00:01", FrameSummary.destination(pause, FrameSummary.Style.LINE));
        assertEquals("Pause: pause_time: 65535 quanta", FrameSummary.info(pause, FrameSummary.Style.LINE));

        Dissection pfc = dissect(PauseFrames.tagged(PauseFrames.pfc(PauseFrames.SWITCH_A, 0x18, 0, 0, 0, 65535, 256), 3, 100));
        assertEquals("eth:vlan:macc:macc_cbfc:macc_cbfc_times", pfc.protocols());
        assertTrue(pfc.expert().isEmpty(), pfc.expert().toString());
        assertEquals("Class Based Flow Control [CBFC] Pause", FrameSummary.info(pfc, FrameSummary.Style.LINE));
        DissectedFrame f = DissectedFrame.of(pfc);
        assertEquals(0x18, f.num("macc_cbfc.enbv"));
        assertEquals(1, f.num("macc_cbfc.enbv.c3"));
        assertEquals(65535, f.num("macc_cbfc_times.c3"));
        assertEquals(256, f.num("macc_cbfc_times.c4"));
    }

    @Test
    void unknownOpcodeCutFrameAndReservedBitsAreExpertItems() {
        Dissection unknown = dissect(PauseFrames.frame(PauseFrames.SWITCH_B, 0x0203, 0x1234));
        assertEquals("eth:macc", unknown.protocols());
        assertEquals(List.of("macc.opcode_unknown"), ids(unknown));
        assertTrue(FrameSummary.info(unknown, FrameSummary.Style.LINE).startsWith("Unknown [MAC Control opcode 0x0203"));

        // Cut inside the pause times: the vector is there (tshark shows it too), the times are not.
        byte[] cut = java.util.Arrays.copyOf(PauseFrames.pfc(PauseFrames.SWITCH_A, 0x08, 0, 0, 0, 500), 21);
        Dissection c = dissect(cut);
        assertEquals("eth:macc:macc_cbfc", c.protocols());
        assertEquals(List.of("frame.header_truncated"), ids(c));
        assertTrue(c.expert().getFirst().message().startsWith("PFC class pause times truncated: 16 bytes needed, 3 left"),
                c.expert().toString());
        // Cut inside the opcode, and inside a PAUSE's pause time.
        assertEquals(List.of("frame.header_truncated"), ids(dissect(java.util.Arrays.copyOf(cut, 15))));
        Dissection shortPause = dissect(java.util.Arrays.copyOf(PauseFrames.pause(PauseFrames.SWITCH_B, 9), 17));
        assertEquals("eth:macc", shortPause.protocols());
        assertEquals(List.of("frame.header_truncated"), ids(shortPause));

        Dissection reserved = dissect(PauseFrames.pfc(PauseFrames.SWITCH_A, 0x0108, 1, 2, 3, 4));
        assertEquals(List.of("macc.enbv_reserved"), ids(reserved));
        assertEquals("eth:macc:macc_cbfc:macc_cbfc_times", reserved.protocols());
    }

    /** The GUI's field tree (Kaitai's parse) agrees with the dissector's on every vector frame, none "not read by Kaitai". */
    @Test
    void theKaitaiTreeAgreesWithTheFlyweights() {
        FrameFields ff = new FrameFields();
        List<String> problems = new ArrayList<>();
        long fields = 0;
        for (PauseFrames.Frame fr : PauseFrames.vectors()) {
            Dissection d = dissect(fr.bytes());
            String ctx = d.protocols() + ": ";
            FrameTree flyweight = FrameTree.of(d, ff.of(d));
            KaitaiLayers k = KaitaiFrameTree.parse(d);
            FrameTree kaitai = KaitaiFrameTree.of(d, ff, k);
            FrameTreeTest.check(kaitai, d, ctx);
            fields += KaitaiFrameTreeTest.compare(flyweight, kaitai, k, d, ctx, problems)[0];
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        assertTrue(fields > 100, "fields compared: " + fields);
    }

    private static List<String> ids(Dissection d) {
        return d.expert().stream().map(ExpertItem::id).toList();
    }
}

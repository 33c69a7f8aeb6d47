package io.metaroce.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.FlowSummary;
import io.metaroce.analysis.FrameList;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Documents built from a real analysis of a bundled sample. */
class FlowDocumentsTest {
    private static final Path SPRAY = Path.of("../samples/captures/metaroce-spray-lossy-path.pcapng");
    private static final IndexedCapture CAP = new IndexedCapture("/x/spray.pcapng", 1234, "ab".repeat(32), "pcapng",
            "mirror", 1L, 2L, 3L);

    @Test
    void aFlowDocumentCarriesItsCountersPathsAndOffsets() throws Exception {
        AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, new AnalysisSession.Options(false, false, true));
        s.run(SPRAY);
        FlowSummary f = s.flows().stream().filter(x -> x.metaRoce() != null && x.counters().retransmittedPackets() > 0)
                .findFirst().orElseThrow();
        FrameList frames = s.framesOf(f.id());
        List<FlowDocument> docs = FlowDocuments.of(CAP, f, frames, Set.of("retransmission"), Set.of("MR-RTX-001"), 1_000_000);
        assertEquals(1, docs.size());
        FlowDocument d = docs.get(0);
        assertEquals(FlowSchema.KIND_FLOW, d.kind());
        assertEquals(CAP.hash() + "/" + f.id() + "#0", d.id());
        assertEquals(f.counters().retransmittedPackets(), d.getLong("retransmitted_packets"));
        assertEquals(f.counters().packets(), d.getLong("packets"));
        assertEquals((long) f.destQp(), d.getLong("dest_qp"));
        assertArrayEquals(frames.offsets(), d.offsets());
        assertArrayEquals(frames.frames(), d.frames());
        assertEquals(List.of("MR-RTX-001"), d.values("rules"));
        for (FlowSummary.PathSummary p : f.metaRoce().paths().values())
            assertEquals(p.packets(), d.getLong(FlowSchema.pathField(p.id(), "packets")));
        assertFalse(d.values(FlowSchema.PATH_IDS).isEmpty());
    }

    @Test
    void longFlowsAreSplitUnderOneRoot() throws Exception {
        AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, new AnalysisSession.Options(false, false, true));
        s.run(SPRAY);
        FlowSummary f = s.flows().stream().max((a, b) -> Long.compare(a.counters().packets(), b.counters().packets())).orElseThrow();
        FrameList frames = s.framesOf(f.id());
        int split = Math.max(1, frames.size() / 3);
        List<FlowDocument> docs = FlowDocuments.of(CAP, f, frames, Set.of(), Set.of(), split);
        assertTrue(docs.size() >= 3);
        List<Long> all = new ArrayList<>();
        for (FlowDocument d : docs) {
            assertEquals(FlowDocuments.rootId(CAP.hash(), f.id()), d.getString(FlowSchema.ROOT_ID));
            assertEquals((long) docs.size(), d.getLong(FlowSchema.PARTS));
            for (long o : d.offsets()) all.add(o);
        }
        assertEquals(FlowSchema.KIND_PART, docs.get(1).kind());
        assertNull(docs.get(1).get("packets"), "counters live in the flow document only, so sums count each flow once");
        assertEquals(f.id(), docs.get(1).getString(FlowSchema.FLOW));
        assertEquals(java.util.Arrays.stream(frames.offsets()).boxed().toList(), all);
        // The parts' lists are the recording's bytes, copied: they must be PackedLongs' encoding of each range.
        for (int p = 0; p < docs.size(); p++) {
            int from = p * split, to = Math.min(frames.size(), from + split);
            assertArrayEquals(PackedLongs.encode(frames.offsets(), from, to), (byte[]) docs.get(p).get(FlowSchema.OFFSETS), "part " + p);
            assertArrayEquals(PackedLongs.encode(frames.frames(), from, to), (byte[]) docs.get(p).get(FlowSchema.FRAMES), "part " + p);
        }
    }

    @Test
    void theBuilderRefusesWhatTheSchemaDoesNotHold() {
        FlowDocument.Builder b = FlowDocument.builder();
        assertThrows(IllegalArgumentException.class, () -> b.put("nakz", 1L));
        assertThrows(IllegalArgumentException.class, () -> b.put("naks", "1"));
        assertThrows(IllegalArgumentException.class, () -> b.put("src", "not-an-ip"));
        assertThrows(IllegalArgumentException.class, () -> b.put("rules", "X"));
        assertThrows(IllegalStateException.class, b::build);
    }
}

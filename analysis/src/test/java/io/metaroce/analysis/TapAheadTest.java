package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSettings.Tap;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.DissectorConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * validate's pre-read of {@code --tap auto} made ahead, on the thread that opens a big capture while the program sets
 * itself up ({@link TapAhead}): a pass with frame stages over the source that prefetch opened takes that choice instead
 * of reading the first frames again, and it is the tap its own pre-read would have chosen, down to the frame where
 * the pre-read stops; a choice made for other RoCE ports, or for a source the pass did not take, is left alone.
 */
@Timeout(300)
class TapAheadTest {
    private static Path file;
    private static final DissectorConfig DC = new DissectorConfig(AnalysisSettings.DEFAULT.rocePorts(), false);

    /**
     * The first PRESCAN_FRAMES RoCE frames are one host pair (10.0.0.1 sends with an initial TTL), then a second pair
     * that makes it a mirror had more been read; big enough for CaptureFiles.prefetch to open it ahead.
     */
    @BeforeAll
    static void write() throws Exception {
        Cap c = new Cap();
        for (int i = 0; i < Analyzer.PRESCAN_FRAMES; i++) {
            c.add(1_000, i % 2 == 0 ? Pkt.of(Pkt.SEND_ONLY).from("10.0.0.1", "10.0.0.2").qp(0x11).psn(i / 2).payload(3_200).ttl(64)
                    : Pkt.of(Pkt.ACK).from("10.0.0.2", "10.0.0.1").qp(0x12).psn(i / 2).aeth(0, 31, 0).ttl(62));
        }
        for (int i = 0; i < 1_000; i++) c.add(1_000, Pkt.of(Pkt.SEND_ONLY).from("10.0.0.3", "10.0.0.4").qp(0x21).psn(i).payload(1_000));
        file = c.write();
        assertTrue(Files.size(file) >= CaptureFiles.PREFETCH_MIN_BYTES, Files.size(file) + " bytes");
    }

    @AfterEach
    void clear() {
        TapAhead.clearForTests();
    }

    @Test
    void thePassTakesTheChoiceMadeAheadOnTheSourceThePrefetchOpened() throws Exception {
        TapChoice pre = Analyzer.resolveTap(file, DC);
        assertEquals("host:10.0.0.1", pre.tap().toString(), pre.how());
        CaptureFiles.prefetch(file, Analyzer.tapAhead(file, DC));
        Stages st = run();
        assertEquals(pre.tap(), st.tap);
        assertEquals(pre.how(), st.how);
        assertNull(TapAhead.pendingForTests(), "taken by the pass");
    }

    @Test
    void aChoiceForOtherPortsIsNotTaken() throws Exception {
        // Made for ports that also decode 4792: the pass (default ports) reads ahead itself; the same tap.
        DissectorConfig other = new DissectorConfig(Set.of(4791, 4792), false);
        CaptureFiles.prefetch(file, Analyzer.tapAhead(file, other));
        Stages st = run();
        assertEquals("host:10.0.0.1", st.tap.toString(), st.how);
        assertNotNull(TapAhead.pendingForTests(), "not taken");
    }

    @Test
    void aChoiceForASourceThePassDidNotOpenIsNotTaken() throws Exception {
        CaptureFiles.prefetch(file, Analyzer.tapAhead(file, DC));
        // Someone else takes the prefetched source: the pass opens the file anew and reads ahead itself.
        try (io.metaroce.capture.PacketSource taken = CaptureFiles.open(file)) {
            assertNotNull(taken.mapping());
            Stages st = run();
            assertEquals("host:10.0.0.1", st.tap.toString(), st.how);
        }
        assertNotNull(TapAhead.pendingForTests(), "not taken");
    }

    @Test
    void aSourceWithoutAMappingIsLeftToThePass() throws Exception {
        TapAhead a = TapAhead.of(file, DC);
        byte[] bytes = Files.readAllBytes(file);
        try (io.metaroce.capture.PacketSource s = CaptureFiles.open("in memory", java.lang.foreign.MemorySegment.ofArray(bytes))) {
            // A heap segment is no file mapping: nothing is read ahead (it would open the file and wait for itself).
            if (s.mapping() == null) {
                a.accept(s);
                assertNull(TapAhead.take(s, file, DC));
            }
        }
        // Over a mapped source it is made and taken once.
        try (io.metaroce.capture.PacketSource s = CaptureFiles.open(file)) {
            a.accept(s);
            assertSame(a, TapAhead.pendingForTests());
            assertEquals(Analyzer.resolveTap(file, DC), TapAhead.take(s, file, DC));
            assertNull(TapAhead.take(s, file, DC), "once");
        }
    }

    /** A pass with frame stages (validate's shape: the tap is resolved before the first frame) over file. */
    private static Stages run() throws Exception {
        Stages st = new Stages();
        AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT.withCheckIcrc(false), AnalysisSession.Options.RESULTS);
        s.onFrame(st);
        s.run(file);
        assertTrue(st.frames > Analyzer.PRESCAN_FRAMES, "the whole capture, " + st.frames);
        return st;
    }

    private static final class Stages implements AnalysisSession.FrameStages {
        Tap tap;
        String how;
        long frames;

        @Override
        public void begin(Tap t, String h) {
            tap = t;
            how = h;
        }

        @Override
        public void decoded(Dissection d, FrameFacts f, int fcsLength, int slot) {}

        @Override
        public void analyzed(FrameFacts f, int slot, FrameOutcome outcome) { frames++; }
    }
}

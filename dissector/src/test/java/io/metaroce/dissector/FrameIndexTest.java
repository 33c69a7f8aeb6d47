package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.PacketSource;
import io.metaroce.capture.PcapWriter;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Frame N through the index is frame N of a streaming pass, on every bundled sample and on damaged copies. */
class FrameIndexTest {

    @Test
    void frameNThroughTheIndexIsFrameNOfTheStream() throws Exception {
        long frames = 0;
        for (Path p : FrameTreeTest.sampleCaptures()) {
            try (PacketSource forIndex = CaptureFiles.open(p); PacketSource stream = CaptureFiles.open(p)) {
                FrameIndex ix = FrameIndex.build(forIndex);
                assertFalse(ix.cancelled());
                assertEquals(List.of(), ix.problems(), p.toString());
                Dissector a = new Dissector(), b = new Dissector();
                Dissection da = new Dissection(), db = new Dissection();
                int n = 0;
                while (stream.next()) {
                    n++;
                    String ctx = p.getFileName() + "#" + n;
                    assertEquals(stream.frameNumber(), n, ctx);
                    assertEquals(stream.timestampNanos(), ix.timeNanos(n), ctx);
                    assertEquals(stream.originalLength(), ix.originalLength(n), ctx);
                    assertEquals(stream.capturedLength(), ix.capturedLength(n), ctx);
                    assertEquals(stream.linkType(), ix.linkType(n), ctx);
                    assertEquals(stream.fcsLength(), ix.fcsLength(n), ctx);
                    assertEquals(stream.interfaceId(), ix.interfaceId(n), ctx);
                    assertEquals(stream.recordOffset(), ix.recordOffset(n), ctx);
                    assertEquals(stream.comment(), ix.comment(n), ctx);
                    assertArrayEquals(stream.data().toArray(ValueLayout.JAVA_BYTE), ix.bytes(n), ctx);
                    a.dissect(stream.data(), stream.frameNumber(), stream.timestampNanos(), stream.originalLength(),
                            stream.linkType(), stream.fcsLength(), da);
                    ix.dissect(n, b, db);
                    assertEquals(json(da), json(db), ctx);
                }
                assertEquals(n, ix.size(), p.toString());
                frames += n;
            }
        }
        assertTrue(frames > 1000);
    }

    @Test
    void relativeAndDeltaTimesAreThoseOfAStreamingPassInAnyOrder() throws Exception {
        Path p = FrameTreeTest.sampleCaptures().getFirst();
        var rel = FieldCatalog.get().field("frame.time_relative");
        var delta = FieldCatalog.get().field("frame.time_delta");
        try (PacketSource src = CaptureFiles.open(p)) {
            FrameIndex ix = FrameIndex.build(src);
            Dissector dissector = new Dissector();
            Dissection d = new Dissection();
            FrameFields ff = new FrameFields();
            for (int n = ix.size(); n >= 1; n--) {
                ff.of(ix.dissect(n, dissector, d));
                assertEquals(ix.timeNanos(n) - ix.timeNanos(1), ff.longValue(rel, 0), "#" + n);
                assertEquals(n == 1 ? 0 : ix.timeNanos(n) - ix.timeNanos(n - 1), ff.longValue(delta, 0), "#" + n);
            }
        }
    }

    @Test
    void framesAreReadInAnyOrder() throws Exception {
        Path p = FrameTreeTest.sampleCaptures().getFirst();
        try (PacketSource src = CaptureFiles.open(p)) {
            FrameIndex ix = FrameIndex.build(src);
            List<String> forward = new ArrayList<>();
            Dissector dissector = new Dissector();
            Dissection d = new Dissection();
            for (int n = 1; n <= ix.size(); n++) forward.add(json(ix.dissect(n, dissector, d)));
            for (int n = ix.size(); n >= 1; n--) assertEquals(forward.get(n - 1), json(ix.dissect(n, dissector, d)), "#" + n);
            assertThrows(IndexOutOfBoundsException.class, () -> ix.data(0));
            assertThrows(IndexOutOfBoundsException.class, () -> ix.data(ix.size() + 1));
        }
    }

    @Test
    void aCutCaptureIndexesEveryReadableFrameAndReportsTheDamage(@TempDir Path tmp) throws Exception {
        int cuts = 0;
        for (Path p : FrameTreeTest.sampleCaptures()) {
            byte[] whole = Files.readAllBytes(p);
            for (double at : new double[] {0.37, 0.81}) {
                int len = (int) (whole.length * at);
                Path cut = tmp.resolve("cut-" + len + "-" + p.getFileName());
                Files.write(cut, Arrays.copyOf(whole, len));
                int streamed = 0;
                List<CaptureProblem> streamProblems;
                try (PacketSource s = CaptureFiles.open(cut)) {
                    while (s.next()) streamed++;
                    streamProblems = List.copyOf(s.problems());
                }
                try (PacketSource s = CaptureFiles.open(cut)) {
                    FrameIndex ix = FrameIndex.build(s);
                    assertEquals(streamed, ix.size(), cut.toString());
                    assertEquals(streamProblems, ix.problems(), cut.toString());
                    assertFalse(ix.problems().isEmpty(), cut + ": the damage is reported");
                    Dissection d = new Dissection();
                    for (int n = 1; n <= ix.size(); n++) ix.dissect(n, new Dissector(), d);
                }
                cuts++;
            }
        }
        assertTrue(cuts >= 30);
    }

    @Test
    void progressIsReportedAndACancelledBuildStopsPromptly(@TempDir Path tmp) throws Exception {
        // A capture of a few thousand frames (the bundled samples are smaller than a few check intervals).
        Path biggest = tmp.resolve("many.pcap");
        int most = 5 * FrameIndex.CHECK_EVERY + 17;
        byte[] frame = new FrameBuilder().opcode(0x04, 0).payload(64).build();
        try (PcapWriter w = PcapWriter.create(biggest, CaptureFormat.PCAP_NS, 1, 65535)) {
            for (int i = 0; i < most; i++) w.write(1_000_000_000L + i, frame);
        }
        List<Integer> seen = new ArrayList<>();
        AtomicLong lastPosition = new AtomicLong(-1);
        try (PacketSource s = CaptureFiles.open(biggest)) {
            FrameIndex ix = FrameIndex.build(s, (frames, position, size) -> {
                assertTrue(position >= lastPosition.get() && position <= size);
                lastPosition.set(position);
                seen.add(frames);
            }, () -> false);
            assertEquals(most, ix.size());
            assertEquals(most, seen.getLast());
            assertEquals(Files.size(biggest), lastPosition.get(), "the last report is the whole file");
            assertTrue(seen.size() >= most / FrameIndex.CHECK_EVERY);
        }
        try (PacketSource s = CaptureFiles.open(biggest)) {
            AtomicInteger reports = new AtomicInteger();
            FrameIndex ix = FrameIndex.build(s, (f, p, z) -> reports.incrementAndGet(), () -> reports.get() >= 2);
            assertTrue(ix.cancelled());
            assertEquals(2 * FrameIndex.CHECK_EVERY, ix.size(), "stops at the first check after the cancel");
        }
        try (PacketSource s = CaptureFiles.open(biggest)) {
            FrameIndex ix = FrameIndex.build(s, null, () -> true);
            assertTrue(ix.cancelled());
            assertEquals(0, ix.size());
        }
    }

    private static String json(Dissection d) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ByteOut out = new ByteOut(bytes)) {
            new FrameJson(out, false).frame(d, new FrameFields().of(d));
        }
        return bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}

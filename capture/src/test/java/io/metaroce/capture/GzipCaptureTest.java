package io.metaroce.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gzip-compressed captures open as their uncompressed selves (tshark reads them too), through a temporary copy
 * ({@link Spools}); damaged gzip data keeps what was readable and says where it stops.
 */
class GzipCaptureTest {
    @TempDir
    Path dir;

    /** Each frame's number, time, lengths, link type and bytes, as one line per frame. */
    private static List<String> frames(Path file) throws CaptureException {
        List<String> out = new ArrayList<>();
        try (PacketSource s = CaptureFiles.open(file)) {
            while (s.next()) {
                out.add(s.frameNumber() + " " + s.timestampNanos() + " " + s.capturedLength() + " " + s.originalLength()
                        + " " + s.linkType() + " " + Arrays.hashCode(TestSupport.data(s)));
            }
        }
        return out;
    }

    private static byte[] gzip(byte[]... members) throws Exception {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] m : members) {
            ByteArrayOutputStream one = new ByteArrayOutputStream();
            try (GZIPOutputStream z = new GZIPOutputStream(one)) {
                z.write(m);
            }
            all.write(one.toByteArray());
        }
        return all.toByteArray();
    }

    @Test
    void aGzipCaptureReadsAsTheCaptureItself() throws Exception {
        for (String name : List.of("roce_v4_oracle.pcap", "roce_v4_oracle.pcapng")) {
            Path plain = ReferenceCapturesTest.resource(name);
            Path gz = TestSupport.write(dir, name + ".gz", gzip(Files.readAllBytes(plain)));
            assertTrue(CaptureFiles.isGzip(gz));
            List<String> expected = frames(plain);
            assertEquals(25, expected.size());
            assertEquals(expected, frames(gz), name);
            // Opened again (the tap's pre-read, the pass, the report): the same copy, the same frames.
            assertEquals(expected, frames(gz), name + ", second open");
            try (PacketSource s = CaptureFiles.open(gz)) {
                assertEquals(List.of(), s.problems());
                assertEquals(Files.size(plain), s.mapping().byteSize(), "the uncompressed content is what is mapped");
                // A second reader over the first one's mapping (validate's pre-read of --tap auto) reads the copy.
                try (PacketSource second = CaptureFiles.open(gz, s.mapping())) {
                    List<byte[]> a = new ArrayList<>();
                    while (second.next()) a.add(TestSupport.data(second));
                    assertEquals(25, a.size());
                    assertTrue(s.next());
                    assertArrayEquals(TestSupport.data(s), a.getFirst());
                }
            }
        }
    }

    @Test
    void concatenatedGzipMembersAreOneStreamAsGunzipSays() throws Exception {
        // Two pcapng sections, each its own gzip member: one capture of two sections.
        byte[] ng = Files.readAllBytes(ReferenceCapturesTest.resource("roce_v4_oracle.pcapng"));
        Path gz = TestSupport.write(dir, "two.pcapng.gz", gzip(ng, ng));
        List<String> one = frames(ReferenceCapturesTest.resource("roce_v4_oracle.pcapng"));
        List<String> both = frames(gz);
        assertEquals(50, both.size());
        for (int i = 0; i < 25; i++) assertEquals(one.get(i).substring(one.get(i).indexOf(' ')), both.get(i + 25).substring(both.get(i + 25).indexOf(' ')));
    }

    @Test
    void gzipDataCutShortKeepsEveryReadableFrameAndSaysWhereItStops() throws Exception {
        Path plain = ReferenceCapturesTest.resource("roce_v4_oracle.pcap");
        byte[] z = gzip(Files.readAllBytes(plain));
        Path cut = TestSupport.write(dir, "cut.pcap.gz", Arrays.copyOf(z, z.length * 2 / 3));
        List<String> expected = frames(plain), got = new ArrayList<>();
        List<CaptureProblem> problems;
        try (PacketSource s = CaptureFiles.open(cut)) {
            while (s.next()) got.add(s.frameNumber() + " " + s.timestampNanos() + " " + s.capturedLength() + " "
                    + s.originalLength() + " " + s.linkType() + " " + Arrays.hashCode(TestSupport.data(s)));
            problems = s.problems();
        }
        assertTrue(got.size() > 5 && got.size() < 25, got.size() + " frames");
        assertEquals(expected.subList(0, got.size()), got, "every frame before the cut, as it is");
        assertTrue(problems.getFirst().message().startsWith("the gzip data ends early or is damaged (Unexpected end of ZLIB input stream)"),
                problems.toString());
    }

    @Test
    void gzipDataDamagedFromTheStartOrEmptyIsRefusedInPlainWords() throws Exception {
        Path bad = TestSupport.write(dir, "bad.pcap.gz", new byte[] {0x1F, (byte) 0x8B, 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x'});
        CaptureException e = assertThrows(CaptureException.class, () -> CaptureFiles.open(bad));
        assertEquals(bad + ": gzip-compressed, but its data is damaged from the start (Unsupported compression method)", e.getMessage());
        Path empty = TestSupport.write(dir, "empty.pcap.gz", gzip(new byte[0]));
        e = assertThrows(CaptureException.class, () -> CaptureFiles.open(empty));
        assertEquals(empty + ": empty after decompression", e.getMessage());
        Path text = TestSupport.write(dir, "text.pcap.gz", gzip("hello, world\n".getBytes()));
        e = assertThrows(CaptureException.class, () -> CaptureFiles.open(text));
        assertEquals(text + ": not a pcap or pcapng file (first bytes 68 65 6c 6c)", e.getMessage());
    }
}

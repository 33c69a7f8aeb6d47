package io.metaroce.capture;

import static io.metaroce.capture.TestSupport.data;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Captures built to hurt the reader (issue 14, item 3): each must end with a clear problem, keep every readable
 * frame, and never throw. Reading is in memory except for the sparse file past 4 GiB.
 */
class HostileCaptureTest {
    @TempDir
    Path dir;

    private static final byte[] F1 = Blocks.frame(60, 1), F2 = Blocks.frame(64, 2);

    /** Frames read until next() says false: their bytes, and the problems at the end. */
    private record Read(List<byte[]> frames, List<Long> times, List<CaptureProblem> problems) {
        String problemText() {
            return problems.toString();
        }
    }

    private static Read read(byte[] file) throws CaptureException {
        try (PacketSource s = CaptureFiles.open("hostile", MemorySegment.ofArray(file))) {
            List<byte[]> frames = new ArrayList<>();
            List<Long> times = new ArrayList<>();
            while (s.next()) {
                frames.add(data(s));
                times.add(s.timestampNanos());
            }
            assertFalse(s.next());
            return new Read(frames, times, s.problems());
        }
    }

    private static Blocks section() {
        return new Blocks(ByteOrder.LITTLE_ENDIAN).shb(ByteOrder.LITTLE_ENDIAN).idb(1, 0);
    }

    /** A block header claiming 0, 3, 13 (not a multiple of 4) or 2^31 bytes: the frame before it is kept. */
    @ParameterizedTest
    @ValueSource(longs = {0, 3, 13, 0x8000_0000L})
    void pcapngBlockLengthIsDamage(long length) throws Exception {
        Blocks b = section().epb(0, 1, F1, F1.length);
        long at = b.size();
        byte[] file = b.u32(6).u32(length).u32(0).u32(0).epb(0, 2, F2, F2.length).bytes();
        Read r = read(file);
        assertEquals(1, r.frames().size());
        assertArrayEquals(F1, r.frames().get(0));
        assertEquals(1, r.problems().size(), r.problemText());
        CaptureProblem p = r.problems().get(0);
        assertEquals(at, p.offset());
        String expected = length < 0x8000_0000L ? "bad block length " + length : "truncated block at byte " + at;
        assertTrue(p.message().startsWith(expected), p.message());
    }

    /** An EPB before any IDB (and one naming interface 7 of a one-interface section) is skipped; later frames are kept. */
    @Test
    void packetForAnInterfaceWithoutIdb() throws Exception {
        Blocks b = new Blocks(ByteOrder.LITTLE_ENDIAN).shb(ByteOrder.LITTLE_ENDIAN);
        long orphan = b.size();
        b.epb(0, 1, F1, F1.length).idb(1, 0);
        long wrongId = b.size();
        byte[] file = b.epb(7, 2, F1, F1.length).epb(0, 3, F2, F2.length).bytes();
        Read r = read(file);
        assertEquals(1, r.frames().size());
        assertArrayEquals(F2, r.frames().get(0));
        assertEquals(List.of(orphan, wrongId), r.problems().stream().map(CaptureProblem::offset).toList());
        assertTrue(r.problems().get(0).message().contains("refers to interface 0 but section 0 has 0 interface(s); block skipped"),
                r.problemText());
        assertTrue(r.problems().get(1).message().contains("refers to interface 7"), r.problemText());
    }

    /** Snap length 2^32-1 (pcap header and IDB) is only a number: frames read normally, nothing reported. */
    @Test
    void snapLengthFourGibibytesMinusOne() throws Exception {
        byte[] pcap = new Blocks(ByteOrder.LITTLE_ENDIAN).pcapHeader(false, -1, 1)
                .pcapRecord(1, 0, F1, F1.length).pcapRecord(2, 0, F2, F2.length).bytes();
        byte[] pcapng = new Blocks(ByteOrder.LITTLE_ENDIAN).shb(ByteOrder.LITTLE_ENDIAN).idb(1, -1)
                .epb(0, 1, F1, F1.length).epb(0, 2, F2, F2.length).bytes();
        for (byte[] file : List.of(pcap, pcapng)) {
            Read r = read(file);
            assertEquals(2, r.frames().size());
            assertTrue(r.problems().isEmpty(), r.problemText());
            try (PacketSource s = CaptureFiles.open("hostile", MemorySegment.ofArray(file))) {
                s.next();
                assertEquals(0xFFFF_FFFFL, s.stats().interfaces().get(0).snapLength());
            }
        }
    }

    /** if_tsresol 0xFF (2^-127 s) and 0x7F (10^-127 s): ticks below a nanosecond give time 0, no overflow. */
    @ParameterizedTest
    @ValueSource(ints = {0xFF, 0x7F})
    void extremeTimestampResolution(int resolution) throws Exception {
        byte[] file = new Blocks(ByteOrder.LITTLE_ENDIAN).shb(ByteOrder.LITTLE_ENDIAN)
                .idb(1, 0, 9, (byte) resolution).epb(0, -1L, F1, F1.length).epb(0, 1, F2, F2.length).bytes();
        Read r = read(file);
        assertEquals(2, r.frames().size());
        assertEquals(List.of(0L, 0L), r.times());
        assertTrue(r.problems().isEmpty(), r.problemText());
    }

    /** Time going backwards: frames stay in file order with the times the file gives (as tshark shows them). */
    @Test
    void timeGoingBackwards() throws Exception {
        byte[] file = new Blocks(ByteOrder.LITTLE_ENDIAN).pcapHeader(false, 65535, 1)
                .pcapRecord(100, 0, F1, F1.length).pcapRecord(50, 0, F2, F2.length).pcapRecord(0, 0, F1, F1.length).bytes();
        Read r = read(file);
        assertEquals(List.of(100_000_000_000L, 50_000_000_000L, 0L), r.times());
        assertArrayEquals(F2, r.frames().get(1));
        assertTrue(r.problems().isEmpty(), r.problemText());
    }

    /**
     * A zero-length record and records longer than the snap length are kept whole (libpcap and tshark read them
     * too; the dissector then says what is wrong with the frame), in pcap and pcapng.
     */
    @Test
    void zeroLengthAndOverSnapLengthRecords() throws Exception {
        byte[] big = Blocks.frame(9000, 3);
        byte[] pcap = new Blocks(ByteOrder.LITTLE_ENDIAN).pcapHeader(false, 128, 1)
                .pcapRecord(1, 0, new byte[0], 0).pcapRecord(2, 0, big, big.length).pcapRecord(3, 0, F1, F1.length).bytes();
        byte[] pcapng = new Blocks(ByteOrder.LITTLE_ENDIAN).shb(ByteOrder.LITTLE_ENDIAN).idb(1, 128)
                .epb(0, 1, new byte[0], 0).epb(0, 2, big, big.length).spb(big.length, big).epb(0, 3, F1, F1.length).bytes();
        for (byte[] file : List.of(pcap, pcapng)) {
            Read r = read(file);
            assertEquals(0, r.frames().get(0).length);
            assertArrayEquals(big, r.frames().get(1));
            assertArrayEquals(F1, r.frames().getLast());
            assertTrue(r.problems().isEmpty(), r.problemText());
        }
    }

    /**
     * A classic pcap whose records lie past 2^32 bytes, without writing 4 GiB: 17 records of 255 MiB whose data
     * are holes of a sparse file (they cost no disk), then a real frame past 4 GiB and a cut record at the end.
     */
    @Test
    void classicPcapPastFourGibibytes() throws Exception {
        Path file = dir.resolve("sparse.pcap");
        long hole = 255L << 20;
        long last;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.write(new Blocks(ByteOrder.LITTLE_ENDIAN).pcapHeader(false, -1, 1).bytes());
            long pos = PcapReader.FILE_HEADER_LENGTH;
            for (int i = 0; i < 17; i++) {
                raf.seek(pos);
                raf.write(new Blocks(ByteOrder.LITTLE_ENDIAN).u32(i).u32(0).u32(hole).u32(hole).bytes());
                pos += 16 + hole;
            }
            last = pos;
            raf.seek(pos);
            raf.write(new Blocks(ByteOrder.LITTLE_ENDIAN).pcapRecord(99, 0, F1, F1.length)
                    .u32(100).u32(0).u32(1000).u32(1000).raw(F2).bytes());
        }
        assertTrue(last > 0x1_0000_0000L);
        try (PacketSource s = CaptureFiles.open(file)) {
            for (int i = 0; i < 17; i++) {
                assertTrue(s.next());
                assertEquals(hole, s.capturedLength());
            }
            assertTrue(s.next());
            assertEquals(last, s.recordOffset());
            assertEquals(last + 16, s.dataOffset());
            assertEquals(18, s.frameNumber());
            assertEquals(99_000_000_000L, s.timestampNanos());
            assertArrayEquals(F1, data(s));
            assertFalse(s.next());
            assertEquals(1, s.problems().size(), s.problems().toString());
            assertEquals("truncated record at byte " + (last + 16 + F1.length) + ": header says 1000 bytes, "
                    + F2.length + " left", s.problems().get(0).message());
        }
    }
}

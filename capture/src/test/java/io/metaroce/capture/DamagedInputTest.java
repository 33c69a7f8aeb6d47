package io.metaroce.capture;

import static io.metaroce.capture.TestSupport.data;
import static io.metaroce.capture.TestSupport.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DamagedInputTest {
    @TempDir
    Path dir;

    private static final byte[][] FRAMES = {Blocks.frame(60, 1), Blocks.frame(75, 2), Blocks.frame(42, 3)};

    /** A 3-frame pcap and the file offsets where each record starts and ends. */
    private static byte[] threeFramePcap(List<long[]> records) {
        Blocks b = new Blocks(ByteOrder.LITTLE_ENDIAN).pcapHeader(false, 65535, 1);
        for (int i = 0; i < FRAMES.length; i++) {
            long start = b.size();
            b.pcapRecord(100 + i, 0, FRAMES[i], FRAMES[i].length);
            records.add(new long[] {start, b.size()});
        }
        return b.bytes();
    }

    private static byte[] threeFramePcapng(List<long[]> packets, List<Long> boundaries) {
        Blocks b = new Blocks(ByteOrder.BIG_ENDIAN);
        b.shb(ByteOrder.BIG_ENDIAN, 1, "c");
        boundaries.add((long) b.size());
        b.idb(1, 0, 2, "if");
        boundaries.add((long) b.size());
        for (int i = 0; i < FRAMES.length; i++) {
            long start = b.size();
            b.epb(0, 100 + i, FRAMES[i], FRAMES[i].length, 1, "frame " + i);
            packets.add(new long[] {start, b.size()});
            boundaries.add((long) b.size());
        }
        b.isb(0, 0, 5, 9L);
        boundaries.add((long) b.size());
        return b.bytes();
    }

    @Test
    void pcapCutAtEveryBytePosition() throws Exception {
        List<long[]> records = new ArrayList<>();
        byte[] full = threeFramePcap(records);
        for (int cut = 0; cut <= full.length; cut++) {
            Path file = write(dir, "cut.pcap", Arrays.copyOf(full, cut));
            if (cut < 4) {
                CaptureException e = assertThrows(CaptureException.class, () -> CaptureFiles.open(file));
                assertTrue(e.getMessage().startsWith(file.toString() + ": "), e.getMessage());
                continue;
            }
            int whole = 0;
            long damagedAt = cut < 24 ? 0 : -1;
            for (long[] r : records) {
                if (r[1] <= cut) {
                    whole++;
                } else if (r[0] < cut && damagedAt < 0) {
                    damagedAt = r[0];
                }
            }
            checkCut(file, cut, whole, damagedAt);
        }
    }

    @Test
    void pcapngCutAtEveryBytePosition() throws Exception {
        List<long[]> packets = new ArrayList<>();
        List<Long> boundaries = new ArrayList<>();
        byte[] full = threeFramePcapng(packets, boundaries);
        for (int cut = 0; cut <= full.length; cut++) {
            Path file = write(dir, "cut.pcapng", Arrays.copyOf(full, cut));
            if (cut < 4) {
                assertThrows(CaptureException.class, () -> CaptureFiles.open(file));
                continue;
            }
            int whole = 0;
            for (long[] p : packets) {
                if (p[1] <= cut) {
                    whole++;
                }
            }
            long damagedAt = -1;
            if (!boundaries.contains((long) cut)) {
                long start = 0;
                for (long b : boundaries) {
                    if (b < cut) {
                        start = b;
                    }
                }
                damagedAt = start;
            }
            checkCut(file, cut, whole, damagedAt);
        }
    }

    /** Opens a cut file: the whole frames come back intact, then one problem names the damaged record. */
    private static void checkCut(Path file, int cut, int wholeFrames, long damagedAt) throws Exception {
        try (PacketSource s = CaptureFiles.open(file)) {
            int n = 0;
            while (s.next()) {
                assertArrayEquals(FRAMES[n], data(s), "cut " + cut + " frame " + (n + 1));
                n++;
            }
            assertEquals(wholeFrames, n, "frames before cut at " + cut);
            assertFalse(s.next());
            List<CaptureProblem> problems = s.problems();
            if (damagedAt < 0) {
                assertTrue(problems.isEmpty(), "cut " + cut + " is a clean end: " + problems);
            } else {
                assertEquals(1, problems.size(), "cut " + cut + ": " + problems);
                assertEquals(damagedAt, problems.get(0).offset(), "cut " + cut + ": " + problems);
                assertTrue(problems.get(0).message().contains("byte " + damagedAt), problems.get(0).message());
                assertTrue(problems.get(0).message().contains("truncated"), problems.get(0).message());
            }
        }
    }

    @Test
    void truncatedRecordMessage() throws Exception {
        byte[] bytes = new Blocks(ByteOrder.LITTLE_ENDIAN).pcapHeader(false, 65535, 1)
                .pcapRecord(1, 0, FRAMES[0], 60)
                .u32(2).u32(0).u32(1514).u32(1514).raw(new byte[900]).bytes();
        try (PacketSource s = CaptureFiles.open(write(dir, "t.pcap", bytes))) {
            assertTrue(s.next());
            assertFalse(s.next());
            assertEquals(List.of(new CaptureProblem(100, "truncated record at byte 100: header says 1514 bytes, 900 left")),
                    s.problems());
        }
    }

    @Test
    void implausibleCapturedLengthStopsWithoutAllocating() throws Exception {
        byte[] bytes = new Blocks(ByteOrder.BIG_ENDIAN).pcapHeader(true, 65535, 1)
                .pcapRecord(1, 0, FRAMES[0], 60)
                .u32(2).u32(0).u32(0x7FFF_FFF0L).u32(60).raw(new byte[64]).bytes();
        try (PacketSource s = CaptureFiles.open(write(dir, "huge.pcap", bytes))) {
            assertTrue(s.next());
            assertFalse(s.next());
            assertEquals(100, s.problems().get(0).offset());
            assertTrue(s.problems().get(0).message().contains("sanity limit"), s.problems().toString());
        }
    }

    @Test
    void pcapngFramingDamage() throws Exception {
        Blocks base = new Blocks(ByteOrder.LITTLE_ENDIAN);
        base.shb(ByteOrder.LITTLE_ENDIAN).idb(1, 0).epb(0, 1, FRAMES[0], 60);
        int damaged = base.size();
        byte[] good = base.epb(0, 2, FRAMES[1], 75).epb(0, 3, FRAMES[2], 42).bytes();

        byte[] badLength = good.clone();
        ByteBuffer.wrap(badLength).order(ByteOrder.LITTLE_ENDIAN).putInt(damaged + 4, 13);
        expectOneFrameThen(badLength, damaged, "bad block length 13");

        byte[] tooSmall = good.clone();
        ByteBuffer.wrap(tooSmall).order(ByteOrder.LITTLE_ENDIAN).putInt(damaged + 4, 8);
        expectOneFrameThen(tooSmall, damaged, "bad block length 8");

        byte[] mismatch = good.clone();
        int epbLength = 32 + 76;
        ByteBuffer.wrap(mismatch).order(ByteOrder.LITTLE_ENDIAN).putInt(damaged + epbLength - 4, 4);
        expectOneFrameThen(mismatch, damaged, "block total length mismatch");

        byte[] huge = good.clone();
        ByteBuffer.wrap(huge).order(ByteOrder.LITTLE_ENDIAN).putInt(damaged + 4, 0xFFFF_FFF0);
        expectOneFrameThen(huge, damaged, "truncated block at byte " + damaged);

        byte[] badMagic = good.clone();
        ByteBuffer.wrap(badMagic).putInt(8, 0x12345678);
        CaptureException e = assertThrows(CaptureException.class,
                () -> CaptureFiles.open(write(dir, "magic.pcapng", badMagic)));
        assertTrue(e.getMessage().contains("byte-order magic is 12 34 56 78"), e.getMessage());
    }

    private void expectOneFrameThen(byte[] bytes, long offset, String text) throws Exception {
        try (PacketSource s = CaptureFiles.open(write(dir, "d.pcapng", bytes))) {
            assertTrue(s.next());
            assertArrayEquals(FRAMES[0], data(s));
            assertFalse(s.next());
            assertEquals(1, s.problems().size(), s.problems().toString());
            assertEquals(offset, s.problems().get(0).offset());
            assertTrue(s.problems().get(0).message().contains(text), s.problems().toString());
        }
    }

    /** A packet block whose length fields are intact but whose captured length overruns it is skipped. */
    @Test
    void inconsistentPacketBlockIsSkipped() throws Exception {
        Blocks b = new Blocks(ByteOrder.LITTLE_ENDIAN);
        b.shb(ByteOrder.LITTLE_ENDIAN).idb(1, 0);
        int bad = b.size();
        b.epb(0, 1, FRAMES[0], 60);
        b.epb(0, 2, FRAMES[1], 75);
        byte[] bytes = b.bytes();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(bad + 20, 61); // captured 61 > room 60
        try (PacketSource s = CaptureFiles.open(write(dir, "skip.pcapng", bytes))) {
            assertTrue(s.next());
            assertArrayEquals(FRAMES[1], data(s));
            assertEquals(1, s.frameNumber());
            assertFalse(s.next());
            assertEquals(bad, s.problems().get(0).offset());
        }
    }

    @Test
    void notACaptureFile() throws Exception {
        Path txt = write(dir, "x.txt", "Hello, world\n".getBytes());
        CaptureException e = assertThrows(CaptureException.class, () -> CaptureFiles.open(txt));
        assertEquals(txt + ": not a pcap or pcapng file (first bytes 48 65 6c 6c)", e.getMessage());

        Path empty = write(dir, "empty.pcap", new byte[0]);
        e = assertThrows(CaptureException.class, () -> CaptureFiles.open(empty));
        assertEquals(empty + ": empty file", e.getMessage());

        Path tiny = write(dir, "tiny.pcap", new byte[] {(byte) 0xd4, (byte) 0xc3});
        e = assertThrows(CaptureException.class, () -> CaptureFiles.open(tiny));
        assertTrue(e.getMessage().contains("too short") && e.getMessage().contains("d4 c3"), e.getMessage());

        Path gz = write(dir, "c.pcap.gz", new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0});
        e = assertThrows(CaptureException.class, () -> CaptureFiles.open(gz));
        assertTrue(e.getMessage().contains("gzip"), e.getMessage());

        e = assertThrows(CaptureException.class, () -> CaptureFiles.open(dir.resolve("missing.pcap")));
        assertTrue(e.getMessage().endsWith("missing.pcap: no such file"), e.getMessage());

        e = assertThrows(CaptureException.class, () -> CaptureFiles.open(dir));
        assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
    }

    @Test
    void closeIsIdempotentAndStopsIteration() throws Exception {
        List<long[]> records = new ArrayList<>();
        PacketSource s = CaptureFiles.open(write(dir, "c.pcap", threeFramePcap(records)));
        assertTrue(s.next());
        s.close();
        s.close();
        assertFalse(s.next());
        assertThrows(IllegalStateException.class, () -> s.data().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
    }

    /** Random bytes, some behind a valid magic: open may refuse, but next()/close() never throw or loop. */
    @Test
    void randomGarbageNeverThrowsOrHangs() throws Exception {
        SplittableRandom random = new SplittableRandom(0x5EED_0001L);
        byte[][] prefixes = {
            {}, {(byte) 0xd4, (byte) 0xc3, (byte) 0xb2, (byte) 0xa1}, {(byte) 0xa1, (byte) 0xb2, 0x3c, 0x4d},
            {0x0a, 0x0d, 0x0d, 0x0a}, {0x0a, 0x0d, 0x0d, 0x0a, 0, 0, 0, 0x1c, 0x1a, 0x2b, 0x3c, 0x4d},
            {0x0a, 0x0d, 0x0d, 0x0a, 0x1c, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a, 1, 0, 0, 0},
        };
        Path file = dir.resolve("garbage");
        for (int i = 0; i < 3000; i++) {
            byte[] prefix = prefixes[random.nextInt(prefixes.length)];
            byte[] bytes = new byte[prefix.length + random.nextInt(400)];
            random.nextBytes(bytes);
            System.arraycopy(prefix, 0, bytes, 0, prefix.length);
            drain(bytes, i % 20 == 0 ? file : null, "garbage iteration " + i);
        }
    }

    /** Valid files with random byte flips, cuts, insertions and deletions. */
    @Test
    void mutatedFilesNeverThrowOrHang() throws Exception {
        List<byte[]> seeds = new ArrayList<>();
        seeds.add(threeFramePcap(new ArrayList<>()));
        seeds.add(threeFramePcapng(new ArrayList<>(), new ArrayList<>()));
        try (InputStream in = getClass().getResourceAsStream("/pcaps/roce_v4_oracle.pcapng")) {
            seeds.add(in.readAllBytes());
        }
        ByteArrayOutputStream sim = new ByteArrayOutputStream();
        try (PcapngWriter w = PcapngWriter.create(sim)) {
            w.addInterface(1, 0, "a", 4);
            w.addInterface(101, 64);
            for (int i = 0; i < 6; i++) {
                w.write(i % 2, i, Blocks.frame(50 + i, i), 0, 50 + i, 50 + i, i % 3 == 0 ? "c" + i : null);
            }
            w.writeStatistics(0, 9, 1, 2, 3);
        }
        seeds.add(sim.toByteArray());

        SplittableRandom random = new SplittableRandom(0x5EED_0002L);
        Path file = dir.resolve("mutant");
        for (int i = 0; i < 5000; i++) {
            byte[] bytes = seeds.get(random.nextInt(seeds.size())).clone();
            int edits = 1 + random.nextInt(6);
            for (int e = 0; e < edits && bytes.length > 0; e++) {
                int at = random.nextInt(bytes.length);
                switch (random.nextInt(5)) {
                    case 0 -> bytes[at] = (byte) random.nextInt(256);
                    case 1 -> bytes[at] ^= (byte) (1 << random.nextInt(8));
                    case 2 -> bytes = Arrays.copyOf(bytes, at);
                    case 3 -> { // insert random bytes
                        byte[] ins = new byte[1 + random.nextInt(8)];
                        random.nextBytes(ins);
                        byte[] n = new byte[bytes.length + ins.length];
                        System.arraycopy(bytes, 0, n, 0, at);
                        System.arraycopy(ins, 0, n, at, ins.length);
                        System.arraycopy(bytes, at, n, at + ins.length, bytes.length - at);
                        bytes = n;
                    }
                    default -> { // overwrite a 32-bit field with an extreme value
                        if (at + 4 <= bytes.length) {
                            int[] extremes = {0, -1, 0x7FFF_FFFF, 0x8000_0000, 12, 0x1000_0000};
                            ByteBuffer.wrap(bytes).putInt(at, extremes[random.nextInt(extremes.length)]);
                        }
                    }
                }
            }
            drain(bytes, i % 20 == 0 ? file : null, "mutation iteration " + i);
        }
    }

    /**
     * Reads every frame of {@code bytes}, from memory or, every so often, through a file mapping (slower, so
     * only a sample: the walking code is the same).
     */
    private static void drain(byte[] bytes, Path file, String what) throws IOException {
        long size = bytes.length;
        PacketSource s;
        try {
            if (file != null) {
                Files.write(file, bytes);
                s = CaptureFiles.open(file);
            } else {
                s = CaptureFiles.open(what, MemorySegment.ofArray(bytes));
            }
        } catch (CaptureException e) {
            return; // refusing a non-capture is fine
        } catch (RuntimeException e) {
            throw new AssertionError(what + ": open threw " + e, e);
        }
        try (s) {
            long frames = 0;
            long bound = size / 12 + 2; // every frame consumes at least 12 bytes of the file
            while (s.next()) {
                if (++frames > bound) {
                    fail(what + ": more frames than the file can hold, looping?");
                }
                s.data().byteSize();
                s.comment();
                assertTrue(s.dataOffset() + s.capturedLength() <= size, what);
                assertTrue(s.capturedLength() >= 0 && s.capturedLength() <= MappedCapture.MAX_CAPTURED_LENGTH, what);
            }
            assertEquals(frames, s.stats().framesRead(), what);
            s.problems().forEach(p -> assertTrue(p.message().contains("byte"), p.message()));
        } catch (RuntimeException e) {
            throw new AssertionError(what + ": " + e, e);
        }
    }
}

package io.metaroce.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The content hashes are the standard ones (the CRCs' check values on "123456789", zlib's crc32 and {@code xxh128sum}'s
 * and {@code sha256sum}'s of the same bytes), across the reader's 1 MB chunks, and a stored hash is checked by its own
 * algorithm.
 */
class CaptureIdentityTest {
    @TempDir
    Path tmp;

    /** 3 MB + 12,345 bytes, byte i = (31 i + 7) mod 256: several read chunks and a partial last one. */
    private Path patterned() throws Exception {
        byte[] b = new byte[3 * 1024 * 1024 + 12_345];
        for (int i = 0; i < b.length; i++) b[i] = (byte) (i * 31 + 7);
        return Files.write(tmp.resolve("patterned.bin"), b);
    }

    @Test
    void contentHashIsCrc32cThenCrc32() throws Exception {
        assertEquals("0000000000000000", CaptureIdentity.contentHash(Files.createFile(tmp.resolve("empty"))));
        // The check values of CRC-32C (Castagnoli) and CRC-32 (IEEE), both of "123456789".
        assertEquals("e3069283cbf43926", CaptureIdentity.contentHash(Files.writeString(tmp.resolve("check"), "123456789")));
        // The CRC-32 half is zlib's crc32 of the same bytes (Python's zlib.crc32).
        assertEquals("f9a20e2143ec89ed", CaptureIdentity.contentHash(patterned()));
    }

    @Test
    void fedInPiecesTheHashIsTheFilesHash() throws Exception {
        Path f = patterned();
        byte[] b = Files.readAllBytes(f);
        CaptureIdentity.ContentHasher h = new CaptureIdentity.ContentHasher();
        java.util.Random r = new java.util.Random(7);
        for (int at = 0; at < b.length; ) {
            int n = Math.min(b.length - at, r.nextInt(70_000));
            byte[] piece = new byte[n + 5];
            System.arraycopy(b, at, piece, 3, n);
            h.accept(piece, 3, n);
            at += n;
        }
        assertEquals(b.length, h.bytes());
        assertEquals(CaptureIdentity.contentHash(f), h.hash());
    }

    @Test
    void xxh3IsXxh3128AsXxh128sumPrintsIt() throws Exception {
        assertEquals("99aa06d3014798d86001c324468d497f", CaptureIdentity.xxh3(Files.createFile(tmp.resolve("empty"))));
        assertEquals("cd00638ef1d667add7a0f31f69f06236", CaptureIdentity.xxh3(patterned()));
    }

    @Test
    void sha256IsStillTheStandardOne() throws Exception {
        assertEquals("5484bbdbfa09aaf96421d09d2c57be9d4fdbffe2ef1d33964a754591a0ac11ba", CaptureIdentity.sha256(patterned()));
    }

    @Test
    void aStoredHashIsCheckedByTheAlgorithmItsLengthNames() throws Exception {
        Path f = patterned();
        long size = Files.size(f);
        IndexedCapture now = new IndexedCapture(f.toString(), size, CaptureIdentity.contentHash(f), "pcap", null, null, null, 0);
        IndexedCapture before = new IndexedCapture(f.toString(), size, CaptureIdentity.sha256(f), "pcap", null, null, null, 0);
        IndexedCapture xxh3 = new IndexedCapture(f.toString(), size, CaptureIdentity.xxh3(f), "pcap", null, null, null, 0);
        assertEquals(CaptureIdentity.HASH_DIGITS, now.hash().length());
        assertEquals(CaptureIdentity.SHA256_DIGITS, before.hash().length());
        assertEquals(CaptureIdentity.XXH3_DIGITS, xxh3.hash().length());
        assertNull(CaptureIdentity.changedSince(now));
        assertNull(CaptureIdentity.changedSince(before), "an index written with SHA-256 still finds its capture unchanged");
        assertNull(CaptureIdentity.changedSince(xxh3), "an index written with XXH3-128 still finds its capture unchanged");
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {0x5A}), size - 1);  // same size, other content
        }
        assertEquals("changed since it was indexed (its content hash differs)", CaptureIdentity.changedSince(now));
        assertEquals("changed since it was indexed (its content hash differs)", CaptureIdentity.changedSince(before));
        assertEquals("changed since it was indexed (its content hash differs)", CaptureIdentity.changedSince(xxh3));
    }

    @Test
    void aHashOfAnyOtherShapeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new IndexedCapture("/x", 1, "abc", "pcap", null, null, null, 0));
        assertThrows(IllegalArgumentException.class, () -> new IndexedCapture("/x", 1, "CD00638EF1D667ADD7A0F31F69F06236", "pcap", null, null, null, 0));
    }
}

package io.metaroce.index;

import com.dynatrace.hash4j.hashing.HashValue128;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * What makes a capture the same capture for the flow index: its content hash, so a copy or a renamed file is
 * recognised, and a file rewritten in place is not mistaken for the one indexed. Every front end that reads a
 * capture at its indexed offsets ({@code metaroce index} and {@code extract}, the GUI's flow search) checks it
 * here, so they agree on when a capture is no longer the one indexed.
 *
 * <p>Captures are indexed with CRC-32C and CRC-32 of the whole file (16 hex digits): the hash guards against a changed
 * or swapped file, not against an attacker. The two generator polynomials share no factor, so the pair is the
 * remainder modulo their product, a degree-64 CRC: every change confined to 64 consecutive bits is found, and any
 * other change escapes with odds of 2^-64. Both checksums are the CPU's own instructions (the JDK's intrinsics, under
 * the quick compiler too): 733 MB in 0.03 s of CPU against 0.16-0.17 s for XXH3-128 (its loop and the copy it
 * needs), which was more than a third of what {@code index} costs beyond {@code analyze} (docs/benchmarks.md, "helper
 * ixcpu, fifteenth session"). Indexes written before hold XXH3-128 (32 hex digits) or SHA-256 (64): the length of a
 * stored hash says which algorithm checks it ({@link #hashLike}), so they are still read, extracted from and
 * re-indexed.
 */
public final class CaptureIdentity {
    private CaptureIdentity() {}

    /** Hex digits of the content hash captures are indexed with now (CRC-32C, then CRC-32). */
    public static final int HASH_DIGITS = 16;
    /** Hex digits of the XXH3-128 content hashes of indexes written before the CRC pair. */
    public static final int XXH3_DIGITS = 32;
    /** Hex digits of the SHA-256 content hashes of indexes written before XXH3-128. */
    public static final int SHA256_DIGITS = 64;
    private static final int READ_CHUNK = 1 << 20;

    /** Whether a file starts like a pcap (either byte order, µs or ns) or pcapng capture. */
    public static boolean looksLikeCapture(Path file) {
        // A pipe or a device is no capture file (and reading one could wait forever).
        if (!Files.isRegularFile(file)) return false;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(4);
            while (b.hasRemaining() && ch.read(b) > 0) { /* fill */ }
            if (b.hasRemaining()) return false;
            int m = b.flip().getInt();
            return m == 0xA1B2C3D4 || m == 0xD4C3B2A1 || m == 0xA1B23C4D || m == 0x4D3CB2A1 || m == 0xA1B2CD34
                    || m == 0x34CDB2A1 || m == 0x0A0D0D0A;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The content hash a capture is indexed with: CRC-32C of the whole file, then its CRC-32 (java.util.zip's, as
     * zlib's crc32 computes it), each as 8 lowercase hex digits.
     */
    public static String contentHash(Path file) throws IOException {
        ContentHasher h = new ContentHasher();
        readChunks(file, h::accept);
        return h.hash();
    }

    /**
     * The content hash ({@link #contentHash}) of bytes fed in file order, a block at a time: {@code metaroce index}
     * feeds it from the analysis pass's own read of the file (the analysis session's content stream), so that a
     * large capture is not read a second time for its hash.
     */
    public static final class ContentHasher {
        private final CRC32C castagnoli = new CRC32C();
        private final CRC32 ieee = new CRC32();
        private long bytes;

        /** The next n bytes of the file are {@code block[0, n)}. */
        public void accept(byte[] block, int n) {
            accept(block, 0, n);
        }

        /** The next n bytes of the file are {@code block[offset, offset + n)}. */
        public void accept(byte[] block, int offset, int n) {
            castagnoli.update(block, offset, n);
            ieee.update(block, offset, n);
            bytes += n;
        }

        /** Bytes fed so far: the whole file when this equals its size. */
        public long bytes() { return bytes; }

        /** The hash of the bytes fed so far, as {@link #contentHash} prints it. */
        public String hash() {
            return HexFormat.of().toHexDigits((int) castagnoli.getValue()) + HexFormat.of().toHexDigits((int) ieee.getValue());
        }
    }

    /**
     * XXH3-128 (seed 0) of the file's content as 32 lowercase hex digits, high 64 bits first, as {@code xxh128sum}
     * prints it: the content hash of indexes written before the CRC pair. By a loop of its own ({@link Xxh3Stream}),
     * which runs faster than hash4j's under the quick compiler alone.
     */
    public static String xxh3(Path file) throws IOException {
        Xxh3Stream stream = new Xxh3Stream();
        readChunks(file, (bytes, n) -> stream.update(bytes, 0, n));
        HashValue128 v = stream.digest();
        return HexFormat.of().toHexDigits(v.getMostSignificantBits()) + HexFormat.of().toHexDigits(v.getLeastSignificantBits());
    }

    /** SHA-256 of the file's content as 64 lowercase hex digits: the content hash of indexes written before. */
    public static String sha256(Path file) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
        readChunks(file, (bytes, n) -> md.update(bytes, 0, n));
        return HexFormat.of().formatHex(md.digest());
    }

    /** What {@link #readChunks} hands each chunk to: the first n bytes of the array are the file's next bytes. */
    private interface ChunkSink {
        void accept(byte[] bytes, int n);
    }

    /**
     * Reads the whole file in order, a chunk at a time, into a heap buffer: the hashes read a byte[] fastest, and the
     * copy from the page cache is cheap beside them.
     */
    private static void readChunks(Path file, ChunkSink sink) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(READ_CHUNK);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (ch.read(b) > 0 || b.position() > 0) {
                b.flip();
                sink.accept(b.array(), b.limit());
                b.clear();
            }
        }
    }

    /** Whether a stored hash is of the algorithm captures are indexed with now (else XXH3-128 or SHA-256, of an older index). */
    public static boolean isCurrent(String indexedHash) { return indexedHash.length() == HASH_DIGITS; }

    /**
     * Whether a stored hash is one {@link #hashLike} can check: the lowercase hex digits of the CRC pair (16), of
     * XXH3-128 (32) or of SHA-256 (64).
     */
    public static boolean isKnownHash(String hash) {
        return hash != null && switch (hash.length()) {
            case HASH_DIGITS, XXH3_DIGITS, SHA256_DIGITS -> hash.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f');
            default -> false;
        };
    }

    /** The file's content hash by the algorithm of {@code indexedHash}, told by its length, so the two compare. */
    public static String hashLike(Path file, String indexedHash) throws IOException {
        return switch (indexedHash.length()) {
            case HASH_DIGITS -> contentHash(file);
            case XXH3_DIGITS -> xxh3(file);
            default -> sha256(file);
        };
    }

    public static long size(Path file) throws IOException { return Files.size(file); }

    /**
     * Why a capture cannot be read as it was indexed (gone, other size, other content), or null when it is the
     * same file. The size is compared first: a changed file is usually found without hashing it.
     */
    public static String changedSince(IndexedCapture cap) throws IOException {
        Path p = Path.of(cap.path());
        if (!Files.isRegularFile(p)) return "moved or deleted since it was indexed";
        if (Files.size(p) != cap.size()) return "changed since it was indexed (" + Files.size(p) + " bytes, indexed with " + cap.size() + ")";
        if (!hashLike(p, cap.hash()).equals(cap.hash())) return "changed since it was indexed (its content hash differs)";
        return null;
    }
}

package io.metaroce.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What makes a capture the same capture for the flow index: its content hash (SHA-256), so a copy or a
 * renamed file is recognised, and a file rewritten in place is not mistaken for the one indexed. Every front end
 * that reads a capture at its indexed offsets ({@code metaroce index} and {@code extract}, the GUI's flow search)
 * checks it here, so they agree on when a capture is no longer the one indexed.
 */
public final class CaptureIdentity {
    private CaptureIdentity() {}

    /** Whether a file starts like a pcap (either byte order, µs or ns) or pcapng capture. */
    public static boolean looksLikeCapture(Path file) {
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

    /** SHA-256 of the file's content as 64 lowercase hex digits. */
    public static String sha256(Path file) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocateDirect(1 << 20);
            while (ch.read(b) > 0 || b.position() > 0) {
                b.flip();
                md.update(b);
                b.clear();
            }
        }
        return HexFormat.of().formatHex(md.digest());
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
        if (!sha256(p).equals(cap.hash())) return "changed since it was indexed (its content hash differs)";
        return null;
    }
}

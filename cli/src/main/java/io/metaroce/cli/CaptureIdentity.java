package io.metaroce.cli;

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
 * renamed file is recognised, and a file rewritten in place is not mistaken for the one indexed.
 */
final class CaptureIdentity {
    private CaptureIdentity() {}

    /** Whether a file starts like a pcap (either byte order, µs or ns) or pcapng capture. */
    static boolean looksLikeCapture(Path file) {
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
    static String sha256(Path file) throws IOException {
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

    static long size(Path file) throws IOException { return Files.size(file); }
}

package io.metaroce.capture;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;

/**
 * Captures that cannot be mapped as they are: standard input ({@code -r -}) and gzip-compressed files
 * ({@code capture.pcap.gz}), which tshark reads as well. Each is copied, decompressed when it is gzip, into a
 * temporary file once per process, and that file is what the readers map and read ({@link CaptureFiles#open(Path)}):
 * a capture is read several times in a run (the tap's pre-read, the pass, the HTML report's frames), and standard
 * input can be read only once. Memory stays flat (the copy streams through a 1 MiB buffer); the disk holds the
 * capture's uncompressed size until the process ends (the files are deleted at exit).
 *
 * <p>Why not a streaming reader: every reader here maps its file (random access for the report's frames, the index's
 * offsets, the GUI's packet list), so a stream would need a second implementation of both formats for one use.
 */
final class Spools {
    private Spools() {}

    /** The name standard input goes by on a command line, as in tshark. */
    static final String STDIN = "-";

    /** What a source became: its temporary copy, and the problem its end had (a gzip stream cut short), or null. */
    record Spool(Path copy, CaptureProblem problem) {}

    private static final ConcurrentHashMap<Path, Spool> SPOOLED = new ConcurrentHashMap<>();

    /** Whether file is read through a copy: standard input, or a regular file that starts like gzip data. */
    static boolean needed(Path file) {
        return isStdin(file) || isGzip(file);
    }

    static boolean isStdin(Path file) {
        return file.toString().equals(STDIN);
    }

    static boolean isGzip(Path file) {
        if (!Files.isRegularFile(file)) return false;
        try (InputStream in = Files.newInputStream(file)) {
            return in.read() == 0x1F && in.read() == 0x8B;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The copy of file (made on the first call, the same one after), to be opened as a capture named name.
     *
     * @throws CaptureException when nothing could be copied: the input is empty, its gzip data is corrupt from the
     *     start, or the temporary file cannot be written (its directory is named: {@code java.io.tmpdir}, TMPDIR)
     */
    static Spool of(Path file, String name) throws CaptureException {
        try {
            return SPOOLED.computeIfAbsent(file.toAbsolutePath().normalize(), f -> {
                try {
                    return copy(file, name);
                } catch (CaptureException e) {
                    throw new IllegalStateException(e);
                }
            });
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof CaptureException c) throw c;
            throw e;
        }
    }

    private static Spool copy(Path file, String name) throws CaptureException {
        Path copy;
        try {
            copy = Files.createTempFile("metaroce-spool-", ".capture");
        } catch (IOException e) {
            throw new CaptureException(name + ": cannot make a temporary copy to read it from (" + e.getMessage()
                    + "; set TMPDIR to a writable directory)", e);
        }
        copy.toFile().deleteOnExit();
        long written = 0;
        String cut = null;
        try (InputStream raw = isStdin(file) ? System.in : Files.newInputStream(file);
             InputStream head = new java.io.BufferedInputStream(raw, 1 << 16);
             OutputStream out = Files.newOutputStream(copy)) {
            head.mark(2);
            boolean gzip = head.read() == 0x1F && head.read() == 0x8B;
            head.reset();
            InputStream in = head;
            if (gzip) {
                try {
                    in = new GZIPInputStream(head, 1 << 16);     // reads the gzip header
                } catch (EOFException | java.util.zip.ZipException e) {
                    cut = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
                    in = null;
                }
            }
            byte[] buffer = new byte[1 << 20];
            while (in != null) {
                int n;
                try {
                    n = in.read(buffer);
                } catch (EOFException | java.util.zip.ZipException e) {
                    // The gzip data ends early or is damaged: what was decompressed before is kept (principle: lose
                    // nothing that was readable), and the run says where the capture stops.
                    cut = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
                    break;
                }
                if (n < 0) break;
                try {
                    out.write(buffer, 0, n);
                } catch (IOException e) {
                    throw new CaptureException(name + ": cannot write its temporary copy " + copy + " ("
                            + e.getMessage() + "; set TMPDIR to a directory with room for the uncompressed capture)", e);
                }
                written += n;
            }
        } catch (CaptureException e) {
            deleteQuietly(copy);
            throw e;
        } catch (java.nio.file.NoSuchFileException e) {
            deleteQuietly(copy);
            throw new CaptureException(name + ": no such file", e);
        } catch (IOException e) {
            deleteQuietly(copy);
            throw new CaptureException(name + ": cannot read: " + e.getMessage(), e);
        }
        if (written == 0) {
            deleteQuietly(copy);
            if (cut != null) throw new CaptureException(name + ": gzip-compressed, but its data is damaged from the start (" + cut + ")");
            throw new CaptureException(name + (isStdin(file) ? ": empty input" : ": empty after decompression"));
        }
        CaptureProblem problem = cut == null ? null
                : new CaptureProblem(written, "the gzip data ends early or is damaged (" + cut + "): the capture is read up to"
                        + " byte " + written + " of its uncompressed content");
        return new Spool(copy, problem);
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // Left for deleteOnExit.
        }
    }
}

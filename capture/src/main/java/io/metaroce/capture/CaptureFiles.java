package io.metaroce.capture;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;

/**
 * Entry point for reading capture files. The format is recognised from the magic number, not the file name.
 *
 * <p>The whole file is memory-mapped once ({@code FileChannel.map} into a shared {@link Arena}). Mapping costs
 * address space, not memory: pages are loaded on touch and can be dropped by the OS, so resident memory stays
 * flat whatever the file size, and segments can be sliced with long offsets beyond 2 GiB. The reader's own pass in
 * file order reads the file through read(2) as well, into its read-ahead window, which costs far less than touching
 * every page of the mapping on some machines (MappedCapture's {@code in}).
 */
public final class CaptureFiles {
    private static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private static final int PCAP_US = 0xA1B2C3D4;
    private static final int PCAP_NS = 0xA1B23C4D;
    private static final int PCAP_MODIFIED = 0xA1B2CD34; // Kuznetzov's patched libpcap, 24-byte record headers
    private static final int PCAPNG_SHB = 0x0A0D0D0A;

    private CaptureFiles() {
    }

    /**
     * Opens a pcap or pcapng file for reading.
     *
     * <p>A file that starts like a capture but is cut short or damaged still opens; its damage is reported by
     * {@link PacketSource#problems()}. Only files that cannot be a capture at all are refused.
     *
     * @throws CaptureException if the file is missing, unreadable, empty, or not a pcap/pcapng file; the
     *                          message starts with the file name and says which
     */
    public static PacketSource open(Path file) throws CaptureException {
        Prefetch p = prefetched;
        if (p != null && p.file.equals(file)) {
            prefetched = null;
            boolean interrupted = false;
            while (true) {
                try {
                    p.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) Thread.currentThread().interrupt();
            if (p.source != null) return p.source;
        }
        return openNow(file);
    }

    /**
     * The smallest capture {@link #prefetch} opens ahead (below it the opening is a few milliseconds, less than a
     * thread costs to start). A compile-time constant, so a caller can compare a file's size with it without initialising this class.
     */
    public static final long PREFETCH_MIN_BYTES = 32L << 20;

    /**
     * Opens a capture file on another thread now, for the first {@link #open(Path)} of the same path to take: a
     * command line that names one big capture lets the file be opened and mapped (and the foreign-memory API set up)
     * while the program sets itself up (the second core is idle then). A file
     * that is small or cannot be opened is left to that open, which reports it as usual; one prefetch at a time
     * (a second replaces the first, which is then only closed at exit).
     */
    public static void prefetch(Path file) {
        prefetch(file, null);
    }

    /**
     * As {@link #prefetch(Path)}, and then, on the same thread and only when it opened the file, {@code then} with the
     * opened source: work that needs the file ahead (validate's pre-read of {@code --tap auto}). The first {@link
     * #open(Path)} of the path waits for it as for the opening. {@code then} must not move the source (it may read the
     * file through a second reader over {@link PacketSource#mapping()}, {@link #open(Path, MemorySegment)}); what it
     * throws is dropped, the source is handed over all the same.
     */
    public static void prefetch(Path file, java.util.function.Consumer<PacketSource> then) {
        Prefetch p = new Prefetch(file, then);
        prefetched = p;
        p.start();
    }

    /** The source the pending {@link #prefetch} opened (once it has), not taken; null when there is none. For tests. */
    static PacketSource prefetchedSource() throws InterruptedException {
        Prefetch p = prefetched;
        if (p == null) return null;
        p.join();
        return p.source;
    }

    /** The file {@link #prefetch} opens, until an {@link #open(Path)} takes it. */
    private static volatile Prefetch prefetched;

    private static final class Prefetch extends Thread {
        final Path file;
        /** What runs with the opened source before open() takes it; null for nothing. */
        private final java.util.function.Consumer<PacketSource> then;
        /** The opened source; null when the file was small or could not be opened. Read after join(). */
        PacketSource source;

        Prefetch(Path file, java.util.function.Consumer<PacketSource> then) {
            super("metaroce-prefetch");
            setDaemon(true);
            this.file = file;
            this.then = then;
        }

        @Override
        public void run() {
            try {
                if (Files.isRegularFile(file) && Files.size(file) >= PREFETCH_MIN_BYTES) source = openNow(file);
            } catch (IOException | RuntimeException e) {
                // Left to open(), which reports it.
            }
            if (source != null && then != null) {
                try {
                    then.accept(source);
                } catch (RuntimeException | Error e) {
                    // Only work ahead: whoever takes the source does it again (and meets the error there, if any).
                }
            }
        }
    }

    private static PacketSource openNow(Path file) throws CaptureException {
        String name = file.toString();
        if (Files.isDirectory(file)) {
            throw new CaptureException(name + ": is a directory, not a capture file");
        }
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw new CaptureException(name + ": not a regular file (pipes and devices cannot be memory-mapped;"
                    + " save the capture to a file first)");
        }
        Arena arena = Arena.ofShared();
        try {
            MemorySegment mapping;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                long size = channel.size();
                if (size == 0) {
                    throw new CaptureException(name + ": empty file");
                }
                // The mapping outlives the channel; it is released when the arena closes.
                mapping = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            }
            PacketSource source = forMapping(name, arena, mapping);
            arena = null; // now owned by the source
            if (source instanceof MappedCapture m) {
                // The reader's window comes through read(2), the mapping stays for what is read out of order
                // (MappedCapture.in says why); a file that cannot be opened again is copied out of the mapping.
                RandomAccessFile in = openToRead(file);
                if (in != null) m.readThrough(in);
            }
            return source;
        } catch (CaptureException e) {
            throw e;
        } catch (NoSuchFileException e) {
            // tshark reads standard input for "-r -"; here "-: no such file" read as if the file had gone missing.
            if (name.equals("-")) {
                throw new CaptureException("-: standard input cannot be read (captures are memory-mapped);"
                        + " save the capture to a file first", e);
            }
            throw new CaptureException(name + ": no such file", e);
        } catch (IOException | UnsupportedOperationException e) {
            throw new CaptureException(name + ": cannot read: " + e.getMessage(), e);
        } finally {
            if (arena != null) {
                arena.close();
            }
        }
    }

    /** The file open for reading, or null when it cannot be (gone or changed since it was mapped). */
    private static RandomAccessFile openToRead(Path file) {
        try {
            return new RandomAccessFile(file.toFile(), "r");
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Reads a capture that is already in memory (received over a socket, embedded in a test, a slice of a
     * larger mapping). Same rules as {@link #open(Path)}; {@code name} is only used in messages. The segment is
     * not copied: it must stay accessible while the source is used, and {@link PacketSource#close()} does not
     * release it.
     *
     * @throws CaptureException if the bytes are empty or not a pcap/pcapng capture
     */
    public static PacketSource open(String name, MemorySegment contents) throws CaptureException {
        if (contents.byteSize() == 0) {
            throw new CaptureException(name + ": empty file");
        }
        return forMapping(name, null, contents.asReadOnly());
    }

    /**
     * A second reader over the mapping of {@code file} that a caller already has open (from {@link #open(Path)}, via
     * {@link PacketSource#mapping()}): the file is neither opened as a capture nor mapped again, and the mapping stays
     * the caller's (closing this reader does not release it). Its window comes through read(2) of the file, as the
     * first reader's does ({@link MappedCapture#in}); a file that cannot be opened again is copied out of the
     * mapping. Why not {@link #open(String, MemorySegment)}: validate's pre-read of {@code --tap auto} read its 20,000
     * frames (14.6 MB of the 1 M-frame capture) that way, copying out of pages of the mapping that nothing had
     * touched yet, interpreted, on the main thread before the pass: perf samples of that copy there, 8 interleaved
     * runs each, median 11.3 ms before, 0 after, the kernel's share of the same stretch 84 -> 77 ms (the read(2) of
     * those 14.6 MB in place of faulting the mapping in; docs/benchmarks.md, helper val, seventeenth session).
     *
     * @throws CaptureException as {@link #open(String, MemorySegment)}
     */
    public static PacketSource open(Path file, MemorySegment mapping) throws CaptureException {
        PacketSource source = open(file.toString(), mapping);
        if (source instanceof MappedCapture m) {
            RandomAccessFile in = openToRead(file);
            if (in != null) m.readThrough(in);
        }
        return source;
    }

    private static PacketSource forMapping(String name, Arena arena, MemorySegment mapping) throws CaptureException {
        long size = mapping.byteSize();
        if (size < 4) {
            throw new CaptureException(name + ": too short to be a pcap or pcapng file (" + size + " byte"
                    + (size == 1 ? "" : "s") + ": " + firstBytes(mapping) + ")");
        }
        int magic = mapping.get(BE_INT, 0);
        if (magic == PCAP_US || magic == PCAP_NS) {
            return new PcapReader(arena, mapping, ByteOrder.BIG_ENDIAN, magic == PCAP_NS);
        }
        if (Integer.reverseBytes(magic) == PCAP_US || Integer.reverseBytes(magic) == PCAP_NS) {
            return new PcapReader(arena, mapping, ByteOrder.LITTLE_ENDIAN, Integer.reverseBytes(magic) == PCAP_NS);
        }
        if (magic == PCAPNG_SHB) {
            return new PcapngReader(name, arena, mapping);
        }
        throw new CaptureException(name + ": " + describeUnknown(magic) + " (first bytes " + firstBytes(mapping) + ")");
    }

    /** A more helpful reason for formats people commonly mistake for pcap. */
    private static String describeUnknown(int magic) {
        if (magic == PCAP_MODIFIED || Integer.reverseBytes(magic) == PCAP_MODIFIED) {
            return "modified (Kuznetzov) pcap is not supported; convert it with: editcap -F pcap in out";
        }
        if ((magic >>> 16) == 0x1F8B) {
            return "gzip-compressed; decompress it first (gunzip)";
        }
        if (magic == 0x28B52FFD) {
            return "zstd-compressed; decompress it first (zstd -d)";
        }
        return "not a pcap or pcapng file";
    }

    private static String firstBytes(MemorySegment mapping) {
        byte[] head = new byte[(int) Math.min(4, mapping.byteSize())];
        MemorySegment.copy(mapping, ValueLayout.JAVA_BYTE, 0, head, 0, head.length);
        return HexFormat.ofDelimiter(" ").formatHex(head);
    }
}

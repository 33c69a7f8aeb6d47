package io.metaroce.capture.live;

import io.metaroce.capture.InterfaceStatistics;
import io.metaroce.capture.PcapngWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Writes the frames of a {@link LiveCapture} as pcapng, optionally as a ring of files (dumpcap's {@code -b}):
 * each file has a section header with the tool and the OS, one Interface Description Block per interface
 * (name, description, the capture filter, nanosecond timestamps, snap length), the frames as Enhanced Packet
 * Blocks and, when it is closed, one Interface Statistics Block per interface with libpcap's counters since
 * the capture started. Or as classic pcap (dumpcap's {@code -P}): a file header (microsecond timestamps, the
 * interface's link type and snap length, as dumpcap writes) and the records, no names, filter or statistics;
 * pcap holds one interface, so that several are written as pcapng, as dumpcap does ({@link #pcap()} says which).
 * Runs on the consumer thread only.
 */
public final class LiveFileWriter implements AutoCloseable {
    /**
     * Ring-buffer and stop limits; 0 means none.
     *
     * @param fileBytes  start a new file once the current one reaches this size (-b filesize)
     * @param fileNanos  start a new file after this long (-b duration)
     * @param keepFiles  keep only the newest N files (-b files)
     */
    public record Ring(long fileBytes, long fileNanos, int keepFiles) {
        public static final Ring NONE = new Ring(0, 0, 0);

        public boolean rotates() {
            return fileBytes > 0 || fileNanos > 0;
        }
    }

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");

    private final LiveCapture capture;
    private final Path base;
    private final OutputStream stdout;
    private final Ring ring;
    private final String application;
    private final Deque<Path> kept = new ArrayDeque<>();
    private final List<Path> created = new ArrayList<>();
    private PcapngWriter writer;
    /** The file's writer when it is pcap (then writer is null): {@link #pcap}. */
    private io.metaroce.capture.PcapWriter pcapWriter;
    private final boolean pcap;
    private Path current;
    private long fileStartNanos;
    private long[] writtenInFile;
    private long written;
    private int fileNumber;

    /**
     * @param base        the -w file; with a ring, files are named base_NNNNN_YYYYmmddHHMMSS.ext as dumpcap does
     * @param stdout      when base is null, the stream to write one pcapng to (-w -)
     */
    public LiveFileWriter(LiveCapture capture, Path base, OutputStream stdout, Ring ring, String application) throws IOException {
        this(capture, base, stdout, ring, application, false);
    }

    /** As above; pcap: classic pcap files (dumpcap -P) when the capture has one interface, else pcapng. */
    public LiveFileWriter(LiveCapture capture, Path base, OutputStream stdout, Ring ring, String application, boolean pcap)
            throws IOException {
        this.pcap = pcap && capture.interfaceCount() == 1;
        this.capture = capture;
        this.base = base;
        this.stdout = stdout;
        this.ring = ring;
        this.application = application;
        openNext();
    }

    /** True when the files are classic pcap (asked for, and one interface), false: pcapng. */
    public boolean pcap() {
        return pcap;
    }

    private void openNext() throws IOException {
        fileNumber++;
        FileChannel ch = null;
        if (pcap) {
            java.nio.channels.WritableByteChannel out;
            if (base == null) out = Channels.newChannel(stdout);
            else {
                current = ring.rotates() ? ringName(fileNumber) : base;
                out = FileChannel.open(current, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
                created.add(current);
                kept.add(current);
            }
            pcapWriter = new io.metaroce.capture.PcapWriter(out, io.metaroce.capture.CaptureFormat.PCAP_US, capture.linkType(0),
                    capture.snapLength(0), ByteOrder.LITTLE_ENDIAN);
            writtenInFile = new long[1];
            fileStartNanos = System.nanoTime();
            while (ring.keepFiles() > 0 && kept.size() > ring.keepFiles()) Files.deleteIfExists(kept.removeFirst());
            return;
        }
        if (base == null) {
            writer = new PcapngWriter(Channels.newChannel(stdout), ByteOrder.LITTLE_ENDIAN, application, osName(), null);
        } else {
            current = ring.rotates() ? ringName(fileNumber) : base;
            ch = FileChannel.open(current, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
            created.add(current);
            kept.add(current);
            writer = new PcapngWriter(ch, ByteOrder.LITTLE_ENDIAN, application, osName(), null);
        }
        String filter = capture.settings().filter();
        for (int i = 0; i < capture.interfaceCount(); i++) {
            writer.addInterface(capture.linkType(i), capture.snapLength(i), capture.interfaceName(i),
                    capture.interfaceDescription(i), filter == null || filter.isBlank() ? null : filter, -1);
        }
        writtenInFile = new long[capture.interfaceCount()];
        fileStartNanos = System.nanoTime();
        while (ring.keepFiles() > 0 && kept.size() > ring.keepFiles()) Files.deleteIfExists(kept.removeFirst());
    }

    private Path ringName(int n) {
        String name = base.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name, ext = dot > 0 ? name.substring(dot) : ".pcapng";
        String stamp = LocalDateTime.now(ZoneId.systemDefault()).format(STAMP);
        return base.resolveSibling(String.format("%s_%05d_%s%s", stem, n, stamp, ext));
    }

    static String osName() {
        return System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    /** Writes one frame, first starting a new ring file when the current one is full or old enough. */
    public void write(LivePacket p) throws IOException {
        rotateIfDue();
        if (pcapWriter != null) pcapWriter.write(p.timestampNanos(), p.data(), 0, p.data().length, p.originalLength());
        else writer.write(p.interfaceIndex(), p.timestampNanos(), p.data(), 0, p.data().length, p.originalLength(), null);
        writtenInFile[p.interfaceIndex()]++;
        written++;
    }

    /** Starts a new file if -b duration says so even without traffic (call now and then). */
    public void rotateIfDue() throws IOException {
        if (!ring.rotates() || base == null) return;
        boolean full = ring.fileBytes() > 0 && fileBytes() >= ring.fileBytes() && framesInFile() > 0;
        boolean old = ring.fileNanos() > 0 && System.nanoTime() - fileStartNanos >= ring.fileNanos();
        if (full || old) {
            closeFile();
            openNext();
        }
    }

    /** Hands the frames written so far to the file (a viewer reads the file while the capture runs). */
    public void flush() throws IOException {
        if (writer != null) writer.flush();
        if (pcapWriter != null) pcapWriter.flush();
    }

    /** Bytes of the current file so far. */
    public long fileBytes() {
        return pcapWriter != null ? pcapWriter.bytesWritten() : writer.bytesWritten();
    }

    private long framesInFile() {
        return pcapWriter != null ? pcapWriter.framesWritten() : writer.framesWritten();
    }

    /** Frames written to all files. */
    public long written() {
        return written;
    }

    /** Files created, oldest first (some may have been deleted by -b files). */
    public List<Path> files() {
        return List.copyOf(created);
    }

    public Path currentFile() {
        return current;
    }

    private void closeFile() throws IOException {
        if (pcapWriter != null) {      // pcap has no statistics block
            pcapWriter.close();
            return;
        }
        try {
            writeStatistics(writer);
        } finally {
            writer.close();
        }
    }

    private void writeStatistics(PcapngWriter w) throws IOException {
        for (int i = 0; i < capture.interfaceCount(); i++) {
            InterfaceCounters c = capture.counters(i);
            String note = "written to this file: " + writtenInFile[i] + "; dropped by metaroce (consumer fell behind): "
                    + c.ourDropped();
            w.writeStatistics(i, c.takenNanos(), new InterfaceStatistics(c.startNanos(), c.takenNanos(),
                    c.ifReceived(), c.ifDropped(), c.received(), c.osDropped(), c.delivered(), note));
        }
    }

    /**
     * After a failed write (full disk): cuts the current file back to its last complete block, so that it is
     * valid up to the last frame written whole, then adds the statistics blocks if there is room for them (if
     * not, the cut stands). Returns the frames the file now holds; the writer is closed afterwards.
     */
    public long salvage() {
        if (pcapWriter != null) return salvagePcap();
        if (writer == null) return 0;
        List<Integer> snaps = writer.snapLengths();
        try {
            writer.close();
        } catch (IOException e) {
            // the same failure again: the file is repaired below
        }
        writer = null;
        if (current == null) return -1; // a pipe cannot be cut back
        try (FileChannel ch = FileChannel.open(current, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long good = PcapngWriter.completeBlocksLength(ch, ByteOrder.LITTLE_ENDIAN);
            ch.truncate(good);
            ch.position(good);
            try {
                PcapngWriter tail = PcapngWriter.continueSection(ch, ByteOrder.LITTLE_ENDIAN, snaps);
                writeStatistics(tail);
                tail.flush();
            } catch (IOException e) {
                ch.truncate(good);
            }
            return countFrames(ch);
        } catch (IOException e) {
            return -1;
        }
    }

    /** {@link #salvage()} of a pcap file: cut back to its last whole record (pcap has no statistics to add). */
    private long salvagePcap() {
        try {
            pcapWriter.close();
        } catch (IOException e) {
            // the same failure again: the file is repaired below
        }
        pcapWriter = null;
        if (current == null) return -1;
        try (FileChannel ch = FileChannel.open(current, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long n = 0, at = 24, size = ch.size();
            java.nio.ByteBuffer head = java.nio.ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            while (size - at >= 16) {
                head.clear();
                ch.read(head, at);
                long next = at + 16 + (head.getInt(8) & 0xFFFF_FFFFL);
                if (next > size) break;
                at = next;
                n++;
            }
            ch.truncate(Math.min(at, size));
            return size < 24 ? 0 : n;
        } catch (IOException e) {
            return -1;
        }
    }

    private static long countFrames(FileChannel ch) throws IOException {
        long n = 0, at = 0, size = ch.size();
        java.nio.ByteBuffer head = java.nio.ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        while (size - at >= 12) {
            head.clear();
            ch.read(head, at);
            if (head.getInt(0) == 6) n++;
            at += head.getInt(4) & 0xFFFF_FFFFL;
        }
        return n;
    }

    /** Writes the statistics blocks and closes the file (or the stream). */
    @Override
    public void close() throws IOException {
        if (writer == null && pcapWriter == null) return;
        try {
            closeFile();
        } finally {
            writer = null;
            pcapWriter = null;
        }
    }
}

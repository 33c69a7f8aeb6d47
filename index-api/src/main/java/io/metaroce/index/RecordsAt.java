package io.metaroce.index;

import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The packet records at given file offsets of a capture, read with positional reads instead of walking the file
 * (a flow's packets in a large capture are a few thousand records out of millions). The bytes read are the
 * file's own header blocks (pcap file header; pcapng section header and the interface descriptions before the
 * first packet) followed by the wanted records, and the project's capture reader parses that: link type, FCS,
 * time resolution, and every block kind come out exactly as when the whole file is read.
 *
 * <p>Not every capture can be read this way: a pcapng whose records refer to interfaces described only later
 * in the file (or in a later section) gets null from {@link #open} or {@link #NEEDS_FULL_READ} from {@link #read}
 * before any record is passed on, and the caller reads the file front to back instead.
 */
final class RecordsAt implements AutoCloseable {
    private static final int PCAPNG_SHB = 0x0A0D0D0A, IDB = 1, PB = 2, SPB = 3, EPB = 6;
    /** A record longer than this is not one the index pointed at (the largest snap length tools write is 256 KiB). */
    private static final long MAX_RECORD = 1 << 20;

    private final FileChannel ch;
    private final boolean pcapng;
    private final ByteOrder order;
    private final byte[] header;
    private final int interfaces;

    private RecordsAt(FileChannel ch, boolean pcapng, ByteOrder order, byte[] header, int interfaces) {
        this.ch = ch;
        this.pcapng = pcapng;
        this.order = order;
        this.header = header;
        this.interfaces = interfaces;
    }

    /** Opens a capture for positional reads; null when its layout needs a front-to-back read. */
    static RecordsAt open(Path file) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        try {
            ByteBuffer head = read(ch, 0, 24);
            if (head.remaining() < 24) return closed(ch);
            int magic = head.order(ByteOrder.BIG_ENDIAN).getInt(0);
            if (magic != PCAPNG_SHB) {
                ByteOrder o = magic == 0xA1B2C3D4 || magic == 0xA1B23C4D ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
                byte[] h = new byte[24];
                head.get(0, h);
                return new RecordsAt(ch, false, o, h, 1);
            }
            ByteOrder o = head.getInt(8) == 0x1A2B3C4D ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            // The section header and what follows it up to the first packet block (interface descriptions).
            long pos = 0, size = ch.size();
            int ifaces = 0;
            while (pos + 8 <= size) {
                ByteBuffer b = read(ch, pos, 8).order(o);
                int type = b.getInt(0);
                long len = Integer.toUnsignedLong(b.getInt(4));
                if (type == EPB || type == SPB || type == PB) break;
                if ((type == PCAPNG_SHB && pos > 0) || len < 12 || pos + len > size || pos + len > (64 << 20)) return closed(ch);
                if (type == IDB) ifaces++;
                pos += len;
            }
            ByteBuffer h = read(ch, 0, (int) pos);
            if (h.remaining() != pos) return closed(ch);
            byte[] hb = new byte[(int) pos];
            h.get(hb);
            return new RecordsAt(ch, true, o, hb, ifaces);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    private static RecordsAt closed(FileChannel ch) throws IOException {
        ch.close();
        return null;
    }

    private static ByteBuffer read(FileChannel ch, long at, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining() && ch.read(b, at + b.position()) > 0) { /* fill */ }
        return b.flip();
    }

    /** Told each record read, in the order of the offsets given. */
    interface Sink {
        void record(int index, PacketSource src) throws IOException;
    }

    /** What {@link #read} answers for a record whose interface is described later in the file (nothing read yet). */
    static final String NEEDS_FULL_READ = "a packet of an interface described later in the file";

    /**
     * Reads the records at the given offsets (rising), in chunks of at most {@code chunkBytes} of records.
     *
     * @return null when every record was read, {@link #NEEDS_FULL_READ}, else why not (a record that is not where
     *     the index put it)
     */
    String read(long[] offsets, int chunkBytes, Sink sink) throws IOException {
        // Every record is located before any is passed on, so a capture that needs a full read gets nothing twice.
        long[] lengths = new long[offsets.length];
        for (int i = 0; i < offsets.length; i++) {
            lengths[i] = recordLength(offsets[i]);
            if (lengths[i] == LATER_INTERFACE) return NEEDS_FULL_READ;
            if (lengths[i] < 0) return "no packet record at byte " + offsets[i];
        }
        int i = 0;
        while (i < offsets.length) {
            // The records of one chunk behind the header blocks, parsed as one small capture.
            ByteBuffer chunk = ByteBuffer.allocate(header.length + (int) Math.max(chunkBytes, lengths[i]));
            chunk.put(header);
            int first = i;
            while (i < offsets.length && chunk.remaining() >= lengths[i]) {
                ByteBuffer r = read(ch, offsets[i], (int) lengths[i]);
                if (r.remaining() != lengths[i]) return "the record at byte " + offsets[i] + " is cut short";
                chunk.put(r);
                i++;
            }
            String problem = parse(chunk.flip(), first, i - first, sink);
            if (problem != null) return problem;
        }
        return null;
    }

    private static final long LATER_INTERFACE = -2;

    /** The length of the packet record at an offset, -1 when there is none there, {@link #LATER_INTERFACE}. */
    private long recordLength(long at) throws IOException {
        ByteBuffer b = read(ch, at, 12).order(order);
        if (b.remaining() < 12) return -1;
        if (!pcapng) {
            long incl = Integer.toUnsignedLong(b.getInt(8));
            return incl > MAX_RECORD ? -1 : 16 + incl;
        }
        int type = b.getInt(0);
        long len = Integer.toUnsignedLong(b.getInt(4));
        if (type != EPB && type != SPB && type != PB) return -1;
        long iface = type == SPB ? 0 : type == PB ? Short.toUnsignedInt(b.getShort(8)) : Integer.toUnsignedLong(b.getInt(8));
        if (iface >= interfaces) return LATER_INTERFACE;
        return len < 12 || len > MAX_RECORD ? -1 : len;
    }

    private String parse(ByteBuffer bytes, int first, int n, Sink sink) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(bytes.remaining());
            seg.copyFrom(MemorySegment.ofBuffer(bytes));
            try (PacketSource src = CaptureFiles.open("records", seg)) {
                int k = 0;
                while (k < n && src.next()) sink.record(first + k++, src);
                if (k != n || src.next()) return "the records at the indexed offsets do not read as " + n + " packets";
            } catch (CaptureException e) {
                return e.getMessage();
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException { ch.close(); }
}

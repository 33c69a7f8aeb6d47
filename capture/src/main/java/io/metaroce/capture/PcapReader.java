package io.metaroce.capture;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Classic libpcap reader: a 24-byte file header, then records of a 16-byte header and the captured bytes.
 * Everything is read in place from the mapping; the only state is the cursor.
 */
final class PcapReader extends MappedCapture {
    static final int FILE_HEADER_LENGTH = 24;
    static final int RECORD_HEADER_LENGTH = 16;

    /** The record header is read as two little-endian longs: a constant layout, which the JIT folds (the file's own
     * byte order is an instance field, and a segment read through a layout that is not a constant stays a slow,
     * uninlined VarHandle call); a big-endian file's 32-bit fields are then byte-swapped. */
    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private final ValueLayout.OfInt u32;
    private final boolean bigEndian;
    private final boolean nanosecond;
    private final InterfaceState iface;
    private final int fcsLength;
    private long cursor = FILE_HEADER_LENGTH;

    PcapReader(Arena arena, MemorySegment file, ByteOrder order, boolean nanosecond) {
        super(arena, file, nanosecond ? CaptureFormat.PCAP_NS : CaptureFormat.PCAP_US);
        this.u32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(order);
        this.bigEndian = order == ByteOrder.BIG_ENDIAN;
        this.nanosecond = nanosecond;
        this.sectionCount = 1;
        if (fileSize < FILE_HEADER_LENGTH) {
            problem(0, "truncated pcap file header at byte 0: " + FILE_HEADER_LENGTH + " bytes needed, "
                    + fileSize + " present");
            finished = true;
            iface = null;
            fcsLength = -1;
            return;
        }
        long snapLength = u32(16);
        int linkTypeField = file.get(u32, 20);
        // Only the low 16 bits are the link type (as in libpcap's LT_LINKTYPE); the upper bits carry FCS info.
        iface = new InterfaceState(0, 0, linkTypeField & 0xFFFF, snapLength);
        fcsLength = LinkTypes.pcapFcsLength(linkTypeField);
        iface.fcsLength = fcsLength;
        iface.setTimestampFormat(nanosecond ? 9 : 6, 0);
        registerInterface(iface);
    }

    private long u32(long offset) {
        return Integer.toUnsignedLong(file.get(u32, offset));
    }

    /** The 32-bit record field in the low half of a little-endian read, in the file's byte order, unsigned. */
    private long field(long littleEndianHalf) {
        int v = (int) littleEndianHalf;
        return Integer.toUnsignedLong(bigEndian ? Integer.reverseBytes(v) : v);
    }

    @Override
    boolean advance() {
        long pos = cursor;
        long left = fileSize - pos;
        if (left == 0) {
            return false;
        }
        if (left < RECORD_HEADER_LENGTH) {
            problem(pos, "truncated record header at byte " + pos + ": " + RECORD_HEADER_LENGTH
                    + " bytes needed, " + left + " left");
            return false;
        }
        int w = inWindow(pos, RECORD_HEADER_LENGTH);
        long seconds, fraction, captured, original;
        if (w >= 0) {
            // The four little-endian ints written out: under C1 alone a helper of this size is a call per field.
            byte[] b = window;
            seconds = field((b[w] & 0xFF) | (b[w + 1] & 0xFF) << 8 | (b[w + 2] & 0xFF) << 16 | b[w + 3] << 24);
            fraction = field((b[w + 4] & 0xFF) | (b[w + 5] & 0xFF) << 8 | (b[w + 6] & 0xFF) << 16 | b[w + 7] << 24);
            captured = field((b[w + 8] & 0xFF) | (b[w + 9] & 0xFF) << 8 | (b[w + 10] & 0xFF) << 16 | b[w + 11] << 24);
            original = field((b[w + 12] & 0xFF) | (b[w + 13] & 0xFF) << 8 | (b[w + 14] & 0xFF) << 16 | b[w + 15] << 24);
        } else {
            long first = file.get(LE_LONG, pos);
            long second = file.get(LE_LONG, pos + 8);
            seconds = field(first);
            fraction = field(first >>> 32);
            captured = field(second);
            original = field(second >>> 32);
        }
        if (captured > MAX_CAPTURED_LENGTH) {
            problem(pos, "implausible record at byte " + pos + ": captured length " + captured
                    + " exceeds the " + (MAX_CAPTURED_LENGTH >> 20) + " MiB sanity limit (snaplen "
                    + iface.snapLength + ")");
            return false;
        }
        long available = left - RECORD_HEADER_LENGTH;
        if (captured > available) {
            problem(pos, "truncated record at byte " + pos + ": header says " + captured + " bytes, "
                    + available + " left");
            return false;
        }
        cursor = pos + RECORD_HEADER_LENGTH + captured;
        long nanos = seconds * 1_000_000_000L + (nanosecond ? fraction : fraction * 1_000L);
        CurrentFrame c = frame;
        if (c.number == 0) {
            setFrame(pos, nanos, pos + RECORD_HEADER_LENGTH, (int) captured, original, iface, fcsLength, -1, 0);
            return true;
        }
        // Every later record: only what changes from frame to frame (the interface, FCS length and the absent
        // comment are the file's), written here rather than through setFrame, a call per frame under C1 alone.
        c.number++;
        recordOffset = pos;
        c.timestampNanos = nanos;
        long data = pos + RECORD_HEADER_LENGTH;
        dataOffset = data;
        c.capturedLength = (int) captured;
        c.originalLength = original;
        c.bufferOffset = inWindow(data, (int) captured);
        iface.framesRead++;
        return true;
    }
}

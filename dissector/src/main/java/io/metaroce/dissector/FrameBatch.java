package io.metaroce.dissector;

import io.metaroce.capture.PacketSource;
import java.lang.foreign.MemorySegment;

/**
 * A run of consecutive frames of one capture, recorded as offsets into the capture mapping so that a
 * worker thread can dissect them while the reader fills the next batch. When the source has no mapping
 * (a live capture: see {@link PacketSource}), the batch copies the frames' bytes into a buffer it owns, since
 * the source may reuse its memory on the next frame. Reused, never shared by two threads at once.
 */
public final class FrameBatch {
    final int capacity;
    int size;
    long sequence;
    long captureStartNanos;
    MemorySegment mapping;
    /** The batch's own copy of the frames' bytes when the source has no mapping (grows, then is reused). */
    private MemorySegment owned = MemorySegment.NULL;
    private long ownedSize;
    final long[] number, timeNanos, originalLength, dataOffset;
    final int[] capturedLength, linkType, fcsLength, interfaceId;
    final String[] comment;

    FrameBatch(int capacity) {
        this.capacity = capacity;
        number = new long[capacity];
        timeNanos = new long[capacity];
        originalLength = new long[capacity];
        dataOffset = new long[capacity];
        capturedLength = new int[capacity];
        linkType = new int[capacity];
        fcsLength = new int[capacity];
        interfaceId = new int[capacity];
        comment = new String[capacity];
    }

    void clear(long sequence, MemorySegment mapping, long captureStartNanos) {
        this.sequence = sequence;
        this.captureStartNanos = captureStartNanos;
        this.mapping = mapping;
        ownedSize = 0;
        java.util.Arrays.fill(comment, 0, size, null);
        size = 0;
    }

    /** Records the source's current frame; false when the batch is full. */
    boolean add(PacketSource src) {
        int i = size++;
        number[i] = src.frameNumber();
        timeNanos[i] = src.timestampNanos();
        originalLength[i] = src.originalLength();
        capturedLength[i] = src.capturedLength();
        dataOffset[i] = mapping != null ? src.dataOffset() : copy(src.data(), capturedLength[i]);
        linkType[i] = src.linkType();
        fcsLength[i] = src.fcsLength();
        interfaceId[i] = src.interfaceId();
        comment[i] = src.comment();
        return size < capacity;
    }

    /** Appends n bytes of data to the owned buffer; returns where they start. */
    private long copy(MemorySegment data, int n) {
        if (ownedSize + n > owned.byteSize()) {
            MemorySegment bigger = MemorySegment.ofArray(new byte[(int) Math.min(Integer.MAX_VALUE - 8,
                    Math.max(ownedSize + n, Math.max(1 << 16, owned.byteSize() * 2)))]);
            MemorySegment.copy(owned, 0, bigger, 0, ownedSize);
            owned = bigger;
        }
        MemorySegment.copy(data, 0, owned, ownedSize, n);
        long at = ownedSize;
        ownedSize += n;
        return at;
    }

    public int size() { return size; }

    /** Position of this batch in the capture (0, 1, 2, ...). */
    public long sequence() { return sequence; }

    public long firstFrameNumber() { return size == 0 ? -1 : number[0]; }

    /** Time of the capture's first frame (for relative times), or Long.MIN_VALUE before any frame. */
    public long captureStartNanos() { return captureStartNanos; }

    /** The captured bytes of frame i of the batch (valid until the batch is reused). */
    public MemorySegment data(int i) { return (mapping != null ? mapping : owned).asSlice(dataOffset[i], capturedLength[i]); }

    /** Dissects frame i of the batch into out. */
    public Dissection dissect(int i, Dissector dissector, Dissection out) {
        dissector.dissect(data(i), number[i], timeNanos[i], originalLength[i], linkType[i], fcsLength[i], out);
        out.interfaceId = interfaceId[i];
        out.comment = comment[i];
        return out;
    }
}

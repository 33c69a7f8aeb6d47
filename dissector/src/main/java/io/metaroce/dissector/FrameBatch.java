package io.metaroce.dissector;

import io.metaroce.capture.PacketSource;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A run of consecutive frames of one capture, whose bytes the batch copies into a buffer it owns as the reader takes
 * them, so that a worker thread can dissect them while the reader fills the next batch: from the reader's read-ahead
 * window ({@link PacketSource#frameBuffer}) when it holds the frame, else from {@link PacketSource#data()} (a live
 * capture's memory may be reused on the next frame). Reused, never shared by two threads at once.
 *
 * <p>The batch used to keep a file's frames as offsets into the capture mapping, which the workers then read: every
 * page of the file touched through the mapping, which the reader itself no longer does (it reads the file by
 * read(2)). On this project's benchmark VM a first touch of a mapped page is expensive (docs/benchmarks.md, helper
 * speed, sixteenth session); the copy out of the window, which is in the reader's cache, is not.
 */
public final class FrameBatch {
    final int capacity;
    int size;
    long sequence;
    long captureStartNanos;
    /** Time of the frame before this batch (the capture's first frame for the first batch). */
    long previousNanos = Long.MIN_VALUE;
    /** The batch's own copy of the frames' bytes (grows, then is reused). */
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

    void clear(long sequence, long captureStartNanos) {
        this.sequence = sequence;
        this.captureStartNanos = captureStartNanos;
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
        int held = src.frameBufferOffset();
        dataOffset[i] = held >= 0 ? copy(src.frameBuffer(), held, capturedLength[i]) : copy(src.data(), capturedLength[i]);
        linkType[i] = src.linkType();
        fcsLength[i] = src.fcsLength();
        interfaceId[i] = src.interfaceId();
        comment[i] = src.comment();
        return size < capacity;
    }

    /** Appends n bytes of data to the owned buffer; returns where they start. */
    private long copy(MemorySegment data, int n) {
        room(n);
        MemorySegment.copy(data, 0, owned, ownedSize, n);
        long at = ownedSize;
        ownedSize += n;
        return at;
    }

    /** Appends the n bytes of buffer from offset on to the owned buffer; returns where they start. */
    private long copy(byte[] buffer, int offset, int n) {
        room(n);
        MemorySegment.copy(buffer, offset, owned, ValueLayout.JAVA_BYTE, ownedSize, n);
        long at = ownedSize;
        ownedSize += n;
        return at;
    }

    private void room(int n) {
        if (ownedSize + n > owned.byteSize()) {
            MemorySegment bigger = MemorySegment.ofArray(new byte[(int) Math.min(Integer.MAX_VALUE - 8,
                    Math.max(ownedSize + n, Math.max(1 << 16, owned.byteSize() * 2)))]);
            MemorySegment.copy(owned, 0, bigger, 0, ownedSize);
            owned = bigger;
        }
    }

    public int size() { return size; }

    /** Position of this batch in the capture (0, 1, 2, ...). */
    public long sequence() { return sequence; }

    public long firstFrameNumber() { return size == 0 ? -1 : number[0]; }

    /** Time of the capture's first frame (for relative times), or Long.MIN_VALUE before any frame. */
    public long captureStartNanos() { return captureStartNanos; }

    /** The captured bytes of frame i of the batch (valid until the batch is reused). */
    public MemorySegment data(int i) { return owned.asSlice(dataOffset[i], capturedLength[i]); }

    /** Dissects frame i of the batch into out. */
    public Dissection dissect(int i, Dissector dissector, Dissection out) {
        dissector.dissect(data(i), number[i], timeNanos[i], originalLength[i], linkType[i], fcsLength[i], out);
        out.interfaceId = interfaceId[i];
        out.firstTimeNanos = captureStartNanos;
        out.previousTimeNanos = i > 0 ? timeNanos[i - 1] : previousNanos == Long.MIN_VALUE ? timeNanos[0] : previousNanos;
        out.comment = comment[i];
        return out;
    }
}

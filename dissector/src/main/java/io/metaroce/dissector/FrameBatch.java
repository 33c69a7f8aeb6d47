package io.metaroce.dissector;

import io.metaroce.capture.PacketSource;
import java.lang.foreign.MemorySegment;

/**
 * A run of consecutive frames of one capture, recorded as offsets into the capture mapping so that a
 * worker thread can dissect them while the reader fills the next batch. Reused, never shared by two
 * threads at once.
 */
public final class FrameBatch {
    final int capacity;
    int size;
    long sequence;
    long captureStartNanos;
    /** Time of the frame before this batch (the capture's first frame for the first batch). */
    long previousNanos = Long.MIN_VALUE;
    MemorySegment mapping;
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
        java.util.Arrays.fill(comment, 0, size, null);
        size = 0;
    }

    /** Records the source's current frame; false when the batch is full. */
    boolean add(PacketSource src) {
        int i = size++;
        number[i] = src.frameNumber();
        timeNanos[i] = src.timestampNanos();
        originalLength[i] = src.originalLength();
        dataOffset[i] = src.dataOffset();
        capturedLength[i] = src.capturedLength();
        linkType[i] = src.linkType();
        fcsLength[i] = src.fcsLength();
        interfaceId[i] = src.interfaceId();
        comment[i] = src.comment();
        return size < capacity;
    }

    public int size() { return size; }

    /** Position of this batch in the capture (0, 1, 2, ...). */
    public long sequence() { return sequence; }

    public long firstFrameNumber() { return size == 0 ? -1 : number[0]; }

    /** Time of the capture's first frame (for relative times), or Long.MIN_VALUE before any frame. */
    public long captureStartNanos() { return captureStartNanos; }

    /** Dissects frame i of the batch into out. */
    public Dissection dissect(int i, Dissector dissector, Dissection out) {
        dissector.dissect(mapping.asSlice(dataOffset[i], capturedLength[i]), number[i], timeNanos[i], originalLength[i],
                linkType[i], fcsLength[i], out);
        out.interfaceId = interfaceId[i];
        out.firstTimeNanos = captureStartNanos;
        out.previousTimeNanos = i > 0 ? timeNanos[i - 1] : previousNanos == Long.MIN_VALUE ? timeNanos[0] : previousNanos;
        out.comment = comment[i];
        return out;
    }
}

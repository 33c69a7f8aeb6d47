package io.metaroce.dissector;

import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.PacketSource;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Random access to the frames of a capture file: frame N's time, lengths, link type and bytes without reading
 * the frames before it. Built once in one streaming pass over a {@link PacketSource}, as primitive columns
 * (about 50 bytes per frame, no object per frame), like the columns of a {@link FrameBatch}.
 *
 * <p>Frames are numbered from 1 as in {@code frame.number}. The index reads the bytes through the source's file
 * mapping, so the source must be file-backed ({@link PacketSource#mapping()} not null) and stay open while the
 * index is used; the index does not close it. After {@link #build} returns the index never changes, so any number
 * of threads may read it at once (each with its own {@link Dissector} and {@link Dissection}).
 *
 * <p>A damaged capture gives an index of every frame before the damage, and {@link #problems()} says where the
 * damage is. A cancelled build ({@link #cancelled()}) holds the frames read until the cancellation was seen.
 */
public final class FrameIndex {
    /** How often (in frames) the build reports progress and looks at the cancel flag: often enough to stop promptly. */
    static final int CHECK_EVERY = 1024;

    /** Told how far the build has got. */
    @FunctionalInterface
    public interface Progress {
        /**
         * @param frames frames indexed so far
         * @param position byte offset in the file reached so far
         * @param size the file's size in bytes
         */
        void progress(int frames, long position, long size);
    }

    private final MemorySegment mapping;
    private int size;
    private long[] timeNanos = new long[1024];
    private long[] originalLength = new long[1024];
    private long[] dataOffset = new long[1024];
    private long[] recordOffset = new long[1024];
    private int[] capturedLength = new int[1024];
    private int[] interfaceId = new int[1024];
    private int[] linkType = new int[1024];
    private byte[] fcsLength = new byte[1024];
    /** Only the frames that have a comment (rare): frame number to comment. */
    private final Map<Integer, String> comments = new HashMap<>();
    private boolean cancelled;
    private List<CaptureProblem> problems = List.of();

    private FrameIndex(MemorySegment mapping) { this.mapping = mapping; }

    /** Indexes every frame of src (which must be positioned before its first frame). */
    public static FrameIndex build(PacketSource src) { return build(src, null, null); }

    /**
     * Indexes every frame of src, reporting progress every {@value #CHECK_EVERY} frames and at the end, and stopping
     * early (with {@link #cancelled()} true) once cancel answers true.
     *
     * @param progress told how far the build has got, or null
     * @param cancel asked every {@value #CHECK_EVERY} frames whether to stop, or null
     * @throws IllegalArgumentException when src has no file mapping (a live source: use a {@link FramePipeline})
     * @throws IllegalStateException when the capture holds more frames than an index can number (2^31 - 1)
     */
    public static FrameIndex build(PacketSource src, Progress progress, BooleanSupplier cancel) {
        MemorySegment mapping = src.mapping();
        if (mapping == null) throw new IllegalArgumentException("a frame index needs a file-backed source (mapping() is null)");
        FrameIndex ix = new FrameIndex(mapping);
        long total = mapping.byteSize();
        while (true) {
            if (ix.size % CHECK_EVERY == 0) {
                if (progress != null && ix.size > 0) progress.progress(ix.size, src.recordOffset(), total);
                if (cancel != null && cancel.getAsBoolean()) {
                    ix.cancelled = true;
                    break;
                }
            }
            if (!src.next()) break;
            if (ix.size == Integer.MAX_VALUE) throw new IllegalStateException("more than " + Integer.MAX_VALUE + " frames");
            ix.add(src);
        }
        ix.problems = List.copyOf(src.problems());
        if (progress != null) progress.progress(ix.size, ix.cancelled ? ix.lastEnd() : total, total);
        ix.trim();
        return ix;
    }

    private void add(PacketSource src) {
        if (size == timeNanos.length) grow(size * 2);
        int i = size++;
        timeNanos[i] = src.timestampNanos();
        originalLength[i] = src.originalLength();
        dataOffset[i] = src.dataOffset();
        recordOffset[i] = src.recordOffset();
        capturedLength[i] = src.capturedLength();
        interfaceId[i] = src.interfaceId();
        linkType[i] = src.linkType();
        fcsLength[i] = (byte) src.fcsLength();
        String c = src.comment();
        if (c != null) comments.put(size, c);
    }

    private long lastEnd() { return size == 0 ? 0 : dataOffset[size - 1] + capturedLength[size - 1]; }

    private void trim() { if (size < timeNanos.length) grow(Math.max(size, 1)); }

    private void grow(int n) {
        timeNanos = Arrays.copyOf(timeNanos, n);
        originalLength = Arrays.copyOf(originalLength, n);
        dataOffset = Arrays.copyOf(dataOffset, n);
        recordOffset = Arrays.copyOf(recordOffset, n);
        capturedLength = Arrays.copyOf(capturedLength, n);
        interfaceId = Arrays.copyOf(interfaceId, n);
        linkType = Arrays.copyOf(linkType, n);
        fcsLength = Arrays.copyOf(fcsLength, n);
    }

    // ------------------------------------------------------------------ read access (frame numbers from 1)

    /** Frames in the index; valid frame numbers are 1..size(). */
    public int size() { return size; }

    /** The build stopped because it was cancelled; the index holds the frames read until then. */
    public boolean cancelled() { return cancelled; }

    /** Damage and inconsistencies the reader reported (empty for a sound capture). */
    public List<CaptureProblem> problems() { return problems; }

    private int row(int frame) {
        if (frame < 1 || frame > size) throw new IndexOutOfBoundsException("frame " + frame + " is not in 1.." + size);
        return frame - 1;
    }

    public long timeNanos(int frame) { return timeNanos[row(frame)]; }
    public long originalLength(int frame) { return originalLength[row(frame)]; }
    public int capturedLength(int frame) { return capturedLength[row(frame)]; }
    public int linkType(int frame) { return linkType[row(frame)]; }
    /** FCS bytes the file announces for the frame, -1 when unknown. */
    public int fcsLength(int frame) { return fcsLength[row(frame)]; }
    public int interfaceId(int frame) { return interfaceId[row(frame)]; }
    /** Offset of the frame's record (pcap) or block (pcapng) in the file: what a flow index stores. */
    public long recordOffset(int frame) { return recordOffset[row(frame)]; }
    /** Offset of the frame's captured bytes in the file. */
    public long dataOffset(int frame) { return dataOffset[row(frame)]; }
    /** The packet comment, or null. */
    public String comment(int frame) { return comments.get(row(frame) + 1); }

    /** The captured bytes of the frame: a slice of the file mapping, valid while the source is open. */
    public MemorySegment data(int frame) {
        int i = row(frame);
        return mapping.asSlice(dataOffset[i], capturedLength[i]);
    }

    /** A copy of the captured bytes of the frame. */
    public byte[] bytes(int frame) { return data(frame).toArray(ValueLayout.JAVA_BYTE); }

    /** Dissects the frame into out, as a streaming pass would have. */
    public Dissection dissect(int frame, Dissector dissector, Dissection out) {
        int i = row(frame);
        dissector.dissect(mapping.asSlice(dataOffset[i], capturedLength[i]), frame, timeNanos[i], originalLength[i],
                linkType[i], fcsLength[i], out);
        out.interfaceId = interfaceId[i];
        out.comment = comments.get(frame);
        // frame.time_relative and frame.time_delta as a streaming pass from frame 1 gives them (a GUI filters
        // and shows frames in any order).
        out.firstTimeNanos = timeNanos[0];
        out.previousTimeNanos = timeNanos[i > 0 ? i - 1 : 0];
        return out;
    }
}

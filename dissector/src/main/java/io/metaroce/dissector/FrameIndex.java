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
 * (about 14 bytes per frame, see {@link #memoryBytes()}; no object per frame), like the columns of a {@link FrameBatch}.
 *
 * <p>Frames are numbered from 1 as in {@code frame.number}. The index reads the bytes through the source's file
 * mapping, so the source must be file-backed ({@link PacketSource#mapping()} not null) and stay open while the
 * index is used; the index does not close it. After {@link #build} returns the index never changes, so any number
 * of threads may read it at once (each with its own {@link Dissector} and {@link Dissection}); only its
 * {@link #shiftTimes time shift} (the GUI's Edit > Time Shift) may be replaced, as one volatile write.
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
    // Narrow columns (about 14 bytes per frame; the spike's target for the whole GUI model is 64): every value is
    // exact, the rare one that does not fit its column is kept beside it in a LongEscapes table.
    private final BlockDeltaColumn timeNanos = new BlockDeltaColumn();
    private final BlockDeltaColumn dataOffset = new BlockDeltaColumn();
    /** dataOffset - recordOffset (the record or block header: 16 for pcap, 28 for a pcapng EPB), unsigned. */
    private byte[] headerLength = new byte[1024];
    private char[] capturedLength = new char[1024];
    private char[] originalLength = new char[1024];
    /** Index into {@link #interfaces}: the (interface, link type, FCS length) of the frame, unsigned. */
    private byte[] interfaceRef = new byte[1024];
    private final LongEscapes headerEscapes = new LongEscapes(), capturedEscapes = new LongEscapes(),
            originalEscapes = new LongEscapes(), interfaceEscapes = new LongEscapes();
    /** The distinct (interface id, link type, FCS length) of the capture: one or a few. */
    private Interface[] interfaces = new Interface[0];
    private int lastInterface = -1;
    private static final int BYTE_ESCAPE = 0xFF, CHAR_ESCAPE = 0xFFFF;

    private record Interface(int id, int linkType, int fcsLength) { }

    /** Only the frames that have a comment (rare): frame number to comment. */
    private final Map<Integer, String> comments = new HashMap<>();
    /** The frames with more than one comment (rarer still): frame number to all of them, in file order. */
    private final Map<Integer, List<String>> severalComments = new HashMap<>();
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
        if (size == capturedLength.length) grow(size * 2);
        int i = size++;
        timeNanos.add(src.timestampNanos());
        long data = src.dataOffset();
        dataOffset.add(data);
        long header = data - src.recordOffset();
        if (header >= 0 && header < BYTE_ESCAPE) headerLength[i] = (byte) header;
        else {
            headerLength[i] = (byte) BYTE_ESCAPE;
            headerEscapes.add(i, src.recordOffset());
        }
        capturedLength[i] = narrow(src.capturedLength(), i, capturedEscapes);
        originalLength[i] = narrow(src.originalLength(), i, originalEscapes);
        int ref = interfaceOf(src.interfaceId(), src.linkType(), src.fcsLength());
        if (ref < BYTE_ESCAPE) interfaceRef[i] = (byte) ref;
        else {
            interfaceRef[i] = (byte) BYTE_ESCAPE;
            interfaceEscapes.add(i, ref);
        }
        String c = src.comment();
        if (c != null) {
            comments.put(size, c);
            List<String> all = src.comments();
            if (all.size() > 1) severalComments.put(size, all);
        }
    }

    private static char narrow(long v, int row, LongEscapes escapes) {
        if (v >= 0 && v < CHAR_ESCAPE) return (char) v;
        escapes.add(row, v);
        return (char) CHAR_ESCAPE;
    }

    private static long wide(char v, int row, LongEscapes escapes) { return v == CHAR_ESCAPE ? escapes.get(row) : v; }

    /** The index of the frame's interface triple in {@link #interfaces}, added when new (nearly always the last one). */
    private int interfaceOf(int id, int linkType, int fcsLength) {
        if (lastInterface >= 0) {
            Interface l = interfaces[lastInterface];
            if (l.id == id && l.linkType == linkType && l.fcsLength == fcsLength) return lastInterface;
        }
        Interface want = new Interface(id, linkType, fcsLength);
        for (int k = 0; k < interfaces.length; k++) if (interfaces[k].equals(want)) return lastInterface = k;
        interfaces = Arrays.copyOf(interfaces, interfaces.length + 1);
        interfaces[interfaces.length - 1] = want;
        return lastInterface = interfaces.length - 1;
    }

    private Interface iface(int i) {
        int ref = interfaceRef[i] & 0xFF;
        return interfaces[ref == BYTE_ESCAPE ? (int) interfaceEscapes.get(i) : ref];
    }

    private long lastEnd() { return size == 0 ? 0 : dataOffset.get(size - 1) + capturedLength(size); }

    private void trim() {
        grow(size);
        timeNanos.trim();
        dataOffset.trim();
        for (LongEscapes e : List.of(headerEscapes, capturedEscapes, originalEscapes, interfaceEscapes)) e.trim();
    }

    private void grow(int n) {
        headerLength = Arrays.copyOf(headerLength, n);
        capturedLength = Arrays.copyOf(capturedLength, n);
        originalLength = Arrays.copyOf(originalLength, n);
        interfaceRef = Arrays.copyOf(interfaceRef, n);
    }

    /**
     * The bytes the index's columns hold (the length of every array times its element size; the interface table
     * and comments not counted, being a few objects per capture), for the GUI's memory budget per frame.
     */
    public long memoryBytes() {
        long b = timeNanos.memoryBytes() + dataOffset.memoryBytes() + headerLength.length + capturedLength.length * 2L
                + originalLength.length * 2L + interfaceRef.length;
        for (LongEscapes e : List.of(headerEscapes, capturedEscapes, originalEscapes, interfaceEscapes)) b += e.memoryBytes();
        return b;
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

    /** The frame's time: the file's, moved by the {@link #shiftTimes time shift} when there is one. */
    public long timeNanos(int frame) { return shifted(timeNanos.get(row(frame))); }

    /** The frame's time as the file has it, whatever the time shift. */
    public long fileTimeNanos(int frame) { return timeNanos.get(row(frame)); }

    /**
     * A change of every frame's time, as a function of its time in the file: the GUI's Edit > Time Shift (Wireshark
     * shifts its frames' times in memory, and a save writes them so). Implementations are immutable.
     */
    public interface TimeShift {
        /** The time shown for a frame the file timestamps fileNanos. */
        long shift(long fileNanos);
    }

    /** The time shift applied to every time the index returns, or null (the file's times). */
    private volatile TimeShift shift;

    /** Replaces the time shift (null: the file's times again); every reader sees the new times from then on. */
    public void shiftTimes(TimeShift s) { shift = s; }

    public TimeShift timeShift() { return shift; }

    private long shifted(long t) {
        TimeShift s = shift;
        return s == null ? t : s.shift(t);
    }

    public long originalLength(int frame) {
        int i = row(frame);
        return wide(originalLength[i], i, originalEscapes);
    }
    public int capturedLength(int frame) {
        int i = row(frame);
        return (int) wide(capturedLength[i], i, capturedEscapes);
    }
    public int linkType(int frame) { return iface(row(frame)).linkType; }
    /** FCS bytes the file announces for the frame, -1 when unknown. */
    public int fcsLength(int frame) { return iface(row(frame)).fcsLength; }
    public int interfaceId(int frame) { return iface(row(frame)).id; }
    /** Offset of the frame's record (pcap) or block (pcapng) in the file: what a flow index stores. */
    public long recordOffset(int frame) {
        int i = row(frame);
        int h = headerLength[i] & 0xFF;
        return h == BYTE_ESCAPE ? headerEscapes.get(i) : dataOffset.get(i) - h;
    }
    /** Offset of the frame's captured bytes in the file. */
    public long dataOffset(int frame) { return dataOffset.get(row(frame)); }
    /** The packet comment, or null. */
    public String comment(int frame) { return comments.get(row(frame) + 1); }

    /** Every comment of the frame, in file order (pcapng allows several); empty for none. */
    public List<String> comments(int frame) {
        int f = row(frame) + 1;
        List<String> all = severalComments.get(f);
        if (all != null) return all;
        String c = comments.get(f);
        return c == null ? List.of() : List.of(c);
    }

    /** The frames that have a comment, ascending (the GUI's Expert Info and Capture File Properties list them). */
    public int[] commentedFrames() {
        int[] frames = new int[comments.size()];
        int n = 0;
        for (Integer f : comments.keySet()) frames[n++] = f;
        java.util.Arrays.sort(frames);
        return frames;
    }

    /** The captured bytes of the frame: a slice of the file mapping, valid while the source is open. */
    public MemorySegment data(int frame) { return mapping.asSlice(dataOffset(frame), capturedLength(frame)); }

    /** A copy of the captured bytes of the frame. */
    public byte[] bytes(int frame) { return data(frame).toArray(ValueLayout.JAVA_BYTE); }

    /** Dissects the frame into out, as a streaming pass would have. */
    public Dissection dissect(int frame, Dissector dissector, Dissection out) {
        int i = row(frame);
        Interface f = iface(i);
        long time = shifted(timeNanos.get(i));
        dissector.dissect(data(frame), frame, time, originalLength(frame), f.linkType, f.fcsLength, out);
        out.interfaceId = f.id;
        out.comment = comments.get(frame);
        // frame.time_relative and frame.time_delta as a streaming pass from frame 1 gives them (a GUI filters
        // and shows frames in any order).
        out.firstTimeNanos = shifted(timeNanos.get(0));
        out.previousTimeNanos = i > 0 ? shifted(timeNanos.get(i - 1)) : time;
        return out;
    }
}

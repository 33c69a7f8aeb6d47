package io.metaroce.capture;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the pcap and pcapng readers share: the file mapping, the current-frame fields, problem reporting and
 * statistics bookkeeping. Subclasses only walk records and call {@link #setFrame}.
 */
abstract sealed class MappedCapture implements PacketSource permits PcapReader, PcapngReader {

    /**
     * Sanity bound on one frame. Real link layers stay far below it (jumbo frames are 9 KiB, USB/loopback
     * captures up to 256 KiB); anything larger is damage, and refusing it protects callers that copy frames.
     */
    static final long MAX_CAPTURED_LENGTH = 256L << 20;
    /**
     * How far behind the read position mapped pages are kept resident. Older pages are dropped from this
     * process (they stay in the page cache; a late reader of an old slice simply faults them back in), so
     * resident memory stays flat on captures of any size instead of growing with the mapping.
     */
    static final long RESIDENT_WINDOW = 32L << 20;
    /**
     * Bytes of the mapping brought into the CPU caches at a time, one block ahead of the reader. A pcap file is a
     * chain (each record's length says where the next starts), so a reader that only loads what it decodes waits
     * for main memory once per frame, one miss after the other; copying the next 64 KiB into a scratch array (a
     * bulk copy: its misses are in flight together, and it is the JDK's copy stub even before the JIT compiled
     * anything) leaves those lines in the cache. On 10 M frames (7.3 GB) this took the reading thread's memory
     * waits from about 1.6 to 1.0 s of CPU (docs/benchmarks.md, helper hot, sixth session); 64 KiB fits the L2
     * cache, and touching only one byte per page gained nothing. The block now comes by read(2) ({@link #in}), into
     * the same array.
     */
    static final int TOUCH_BLOCK = 64 << 10;
    /**
     * Records up to this long are always whole in the read-ahead {@link #window}: it is refilled when less than this
     * is left ahead of the reader, and only what is left moves (a jumbo frame is 9 KiB; a longer record is read
     * from the mapping).
     */
    static final int HELD = 16 << 10;
    /** Problems kept in the list; later ones are only counted so a hostile file cannot grow memory. */
    static final int MAX_LISTED_PROBLEMS = 1000;

    /**
     * The file itself, open for read(2), which fills the {@link #window} when set ({@link #readThrough}); null for
     * contents in memory, and after a read failed (the window is then copied from the mapping, as before). Reading
     * the window through read(2) instead of copying it out of the mapping never touches the mapping's pages: on a
     * VM whose page faults and first touches of a mapped page are expensive (this project's benchmark VM, a PVM
     * guest: every new page costs an exit to the hypervisor), reading 733 MB in 64 KiB blocks took 0.12-0.15 s of
     * one thread against 0.45-0.59 s for the mapping's faults, copy and release on one thread, or 0.29 s of copy on
     * the reader plus 0.26 s of faults and release on a pager (a probe, medians of 3; docs/benchmarks.md, helper
     * speed, sixteenth session). RandomAccessFile, not a FileChannel: a channel is closed by an interrupt of the
     * reading thread (a pipeline that fails interrupts its decoding thread).
     */
    RandomAccessFile in;
    /** The file position of {@link #in}: the window is read sequentially, so it seeks only after a skip. */
    private long inAt;
    /** Bytes {@link #fill} put into the window by read(2), and by a copy out of the mapping (what tests look at). */
    long bytesRead, bytesCopied;
    /** Owner of the file mapping, closed by close(); null when the caller owns the memory. */
    private final Arena arena;
    final MemorySegment file;
    final long fileSize;
    private final CaptureFormat format;

    /** Set when reading cannot continue (clean end or damage); next() then returns false forever. */
    boolean finished;
    private boolean closed;

    /**
     * The current frame's number, time, lengths, link type, FCS length and place in {@link #window}, handed out whole
     * by {@link #current()}. Package-private with the fields below, which a reader's common path sets directly.
     */
    final CurrentFrame frame;
    int interfaceId;
    int sectionIndex;
    long recordOffset = -1;
    long dataOffset;
    /** Everything before this offset has been unloaded from this process. */
    private long released;
    /** Everything before this offset has been touched by {@link #touchAhead}. */
    private long touchedTo;
    /**
     * The file's bytes from {@link #windowStart} to {@link #touchedTo}, copied by {@link #touchAhead}: the block it
     * brings into the cache stays readable as an array, so that a consumer reads the current frame from here
     * ({@link #frameBuffer}) instead of slicing and copying it out of the mapping per frame. Under a
     * {@link #contentSink}, the block handed over (from index 0).
     */
    final byte[] window = new byte[2 * TOUCH_BLOCK];
    {
        frame = new CurrentFrame(window);
    }
    /** File offset of window[0]. */
    private long windowStart;
    /** Sees every touched block ({@link #streamContent}); null for the usual reader. */
    private ContentSink contentSink;
    private long commentOffset = -1;
    private int commentLength;
    private final List<CaptureProblem> problems = new ArrayList<>();
    private long problemCount;

    /** Interfaces for stats(), capped at CaptureStats.MAX_LISTED_INTERFACES. */
    private final List<InterfaceState> listedInterfaces = new ArrayList<>();
    private long interfaceCount;
    final List<String> fileComments = new ArrayList<>();
    String captureApplication;
    int sectionCount;

    MappedCapture(Arena arena, MemorySegment file, CaptureFormat format) {
        this.arena = arena;
        this.file = file;
        this.fileSize = file.byteSize();
        this.format = format;
    }

    /** Reads the next frame into the current-frame fields; returns false at the end or on damage. */
    abstract boolean advance();

    @Override
    public final boolean next() {
        if (finished || closed) {
            return false;
        }
        // Where the next record starts (pcap) or about (pcapng: the block trailer comes first).
        long at = dataOffset + frame.capturedLength;
        if (at + HELD > touchedTo) touchAhead(at);
        if (advance()) {
            return true;
        }
        finished = true;
        if (contentSink != null) streamTo(fileSize); // what follows the last frame, or the damage
        frame.bufferOffset = -1; // the window may have moved on from the last frame
        return false;
    }

    @Override
    public final boolean streamContent(ContentSink sink) {
        if (touchedTo != 0 || closed) return false;
        contentSink = sink;
        // Damaged before its first frame (a file header cut short): next() reads nothing, so the whole file goes now.
        if (finished) streamTo(fileSize);
        return true;
    }

    /**
     * Once per {@link #TOUCH_BLOCK} bytes read: brings the next block into the cache, and drops the pages far
     * behind the reader. Out of line and taken from the first frame on, so that the JIT compiles
     * {@link #next} with this branch (a branch never taken when it compiled would throw the compiled reader away
     * the first time it is).
     */
    private void touchAhead(long at) {
        // Under a content sink, the bytes a record longer than the window skipped are handed over first.
        if (contentSink != null && at > touchedTo) streamTo(Math.min(at, fileSize));
        touchFrom(at);
        // What others read out of order from the mapping (a long record, a frame's slice) is dropped behind the
        // reader; with nothing mapped there, the call costs one system call per RESIDENT_WINDOW.
        if (at - released > 2 * RESIDENT_WINDOW && arena != null) release(at - RESIDENT_WINDOW);
    }

    /**
     * Makes the window start at the reader ({@code at}) and reach up to two blocks on: what it already holds from
     * {@code at} on (less than {@link #HELD}) moves to its start, an array copy in the cache, then the bytes after it
     * are read from the file ({@link #fill}); so every byte is read once, and a record of up to
     * {@link #HELD} lies wholly in the window. A record longer than the window leaves the bytes it skips untouched
     * (a {@link #contentSink} has had them from {@link #touchAhead}). A content sink gets the bytes copied here.
     */
    private void touchFrom(long at) {
        long from = Math.max(touchedTo, at);
        int keep = (int) (from - at);
        if (keep > 0) System.arraycopy(window, (int) (at - windowStart), window, 0, keep);
        windowStart = at;
        long end = Math.min(fileSize, at + window.length);
        if (end > from) {
            fill(from, keep, (int) (end - from));
            if (contentSink != null) contentSink.accept(window, keep, (int) (end - from));
        }
        touchedTo = Math.max(end, from);
    }

    /**
     * Under a {@link #contentSink}: touches and hands over every block up to {@code end}, none skipped (after the
     * last frame, and what a long record skipped). Each block goes to the window's start, which then holds the file
     * from {@link #windowStart} to {@link #touchedTo} as {@link #inWindow} expects.
     */
    private void streamTo(long end) {
        while (touchedTo < end) {
            int n = (int) Math.min(TOUCH_BLOCK, fileSize - touchedTo);
            fill(touchedTo, 0, n);
            windowStart = touchedTo;
            touchedTo += n;
            contentSink.accept(window, 0, n);
        }
    }

    /**
     * Makes {@link #fill} read the window from {@code in} (the file this source maps) instead of copying it out of
     * the mapping; before the first frame only. What other code reads from the mapping (a long record, a frame's
     * slice) it faults in itself.
     */
    final void readThrough(RandomAccessFile in) {
        this.in = in;
        this.inAt = 0;
    }

    /**
     * Puts the file's bytes [from, from + n) into the window at {@code at}: by read(2) when reading through, else (or
     * for what a read did not bring: a file that got shorter than its mapping, whose mapping then fails as before) a
     * copy out of the mapping.
     */
    private void fill(long from, int at, int n) {
        RandomAccessFile f = in;
        if (f != null) {
            try {
                if (inAt != from) f.seek(from);
                inAt = from;
                int r;
                while (n > 0 && (r = f.read(window, at, n)) > 0) {
                    inAt += r;
                    bytesRead += r;
                    from += r;
                    at += r;
                    n -= r;
                }
            } catch (IOException e) {
                // Unreadable now (the mapping still is, or fails as it would have): the mapping from here on.
                closeIn();
            }
            if (n == 0) return;
        }
        MemorySegment.copy(file, ValueLayout.JAVA_BYTE, from, window, at, n);
        bytesCopied += n;
    }

    private void closeIn() {
        RandomAccessFile f = in;
        in = null;
        if (f != null) {
            try {
                f.close();
            } catch (IOException e) {
                // Read-only: nothing was lost.
            }
        }
    }

    /**
     * Where the file's bytes [at, at + length) are in {@link #window}, or -1 when they are not all there: the
     * readers read a record's header from the window too (under C1 alone a read through a value layout is a call
     * chain, an array read is inline).
     */
    final int inWindow(long at, int length) {
        long i = at - windowStart;
        return i >= 0 && at + length <= touchedTo ? (int) i : -1;
    }

    /** madvise(DONTNEED) through MemorySegment.unload() on the pages before upTo. */
    private void release(long upTo) {
        try {
            file.asSlice(released, upTo - released).unload();
        } catch (UnsupportedOperationException | IllegalStateException e) {
            // Not a file mapping (in-memory contents) or already closed: nothing to release.
        }
        released = upTo;
    }

    final void setFrame(long recordOffset, long timestampNanos, long dataOffset, int capturedLength,
                        long originalLength, InterfaceState iface, int fcsLength, long commentOffset,
                        int commentLength) {
        CurrentFrame c = frame;
        c.number++;
        this.recordOffset = recordOffset;
        c.timestampNanos = timestampNanos;
        this.dataOffset = dataOffset;
        c.capturedLength = capturedLength;
        c.originalLength = originalLength;
        c.linkType = iface.linkType;
        c.fcsLength = fcsLength;
        c.bufferOffset = inWindow(dataOffset, capturedLength);
        this.interfaceId = iface.interfaceId;
        this.sectionIndex = iface.section;
        this.commentOffset = commentOffset;
        this.commentLength = commentLength;
        iface.framesRead++;
    }

    final void problem(long offset, String message) {
        problemCount++;
        if (problems.size() < MAX_LISTED_PROBLEMS) {
            problems.add(new CaptureProblem(offset, message));
        } else if (problems.size() == MAX_LISTED_PROBLEMS) {
            problems.add(new CaptureProblem(offset, "more than " + MAX_LISTED_PROBLEMS
                    + " problems; further ones are counted in stats().problemCount() but not listed"));
        }
    }

    final void registerInterface(InterfaceState iface) {
        interfaceCount++;
        if (listedInterfaces.size() < CaptureStats.MAX_LISTED_INTERFACES) {
            listedInterfaces.add(iface);
        }
    }

    final void addFileComment(String comment) {
        if (fileComments.size() < CaptureStats.MAX_LISTED_INTERFACES) {
            fileComments.add(comment);
        }
    }

    /** UTF-8 text of an option value; trailing NULs (written by some tools) are dropped. */
    final String readString(long offset, int length) {
        int end = length;
        while (end > 0 && file.get(ValueLayout.JAVA_BYTE, offset + end - 1) == 0) {
            end--;
        }
        byte[] bytes = new byte[end];
        MemorySegment.copy(file, ValueLayout.JAVA_BYTE, offset, bytes, 0, end);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public final long frameNumber() {
        return frame.number;
    }

    @Override
    public final long timestampNanos() {
        return frame.timestampNanos;
    }

    @Override
    public final int capturedLength() {
        return frame.capturedLength;
    }

    @Override
    public final long originalLength() {
        return frame.originalLength;
    }

    @Override
    public final int linkType() {
        return frame.linkType;
    }

    @Override
    public final int fcsLength() {
        return frame.fcsLength;
    }

    @Override
    public final int interfaceId() {
        return interfaceId;
    }

    @Override
    public final int sectionIndex() {
        return sectionIndex;
    }

    @Override
    public final MemorySegment data() {
        if (frame.number == 0) {
            throw new IllegalStateException("no current frame: call next() first");
        }
        return file.asSlice(dataOffset, frame.capturedLength);
    }

    @Override
    public final byte[] frameBuffer() {
        return window;
    }

    @Override
    public final int frameBufferOffset() {
        return frame.number == 0 ? -1 : inWindow(dataOffset, frame.capturedLength);
    }

    @Override
    public final CurrentFrame current() {
        return frame;
    }

    @Override
    public final MemorySegment mapping() {
        return file;
    }

    @Override
    public final long dataOffset() {
        return dataOffset;
    }

    @Override
    public final long recordOffset() {
        return recordOffset;
    }

    @Override
    public final String comment() {
        return commentOffset < 0 ? null : readString(commentOffset, commentLength);
    }

    @Override
    public final CaptureFormat format() {
        return format;
    }

    @Override
    public final List<CaptureProblem> problems() {
        return Collections.unmodifiableList(new ArrayList<>(problems));
    }

    @Override
    public final CaptureStats stats() {
        List<CaptureInterface> interfaces = new ArrayList<>(listedInterfaces.size());
        for (InterfaceState i : listedInterfaces) {
            interfaces.add(i.snapshot());
        }
        return new CaptureStats(format, frame.number, sectionCount, interfaceCount, interfaces, fileComments,
                captureApplication, problemCount);
    }

    @Override
    public final void close() {
        if (!closed) {
            closed = true;
            finished = true;
            closeIn();
            if (arena != null) {
                arena.close();
            }
        }
    }
}

package io.metaroce.capture;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * A pull-style cursor over the frames of one capture: a file, or a source that is not a file (a live capture).
 *
 * <p>Call {@link #next()} until it returns false; after each {@code true} the accessors describe the current
 * frame. {@code next()} allocates nothing, so a loop over millions of frames creates no garbage unless the
 * caller asks for objects ({@link #data()}, {@link #comment()}).
 *
 * <p>{@code next()} never throws for damaged input: it stops at the damage and records a {@link CaptureProblem}.
 * An instance is not thread-safe.
 *
 * <p><b>File-backed and other sources.</b> A file-backed source (the pcap and pcapng readers) returns the file
 * mapping from {@link #mapping()}; then {@link #data()} and {@link #dataOffset()} point into it, its slices may be
 * read from any thread until {@link #close()}, and consumers may keep offsets instead of bytes (a
 * {@code FrameBatch}, a {@code FrameIndex}). A source that is not a file (a live capture, frames in memory)
 * returns null from {@link #mapping()} and -1 from {@link #dataOffset()}; its {@link #data()} need only stay
 * valid until the next call to {@link #next()} (a capture ring buffer may reuse the memory), so a consumer that
 * keeps a frame longer copies its bytes; the dissector's {@code FramePipeline} does so when the mapping is null.
 */
public interface PacketSource extends AutoCloseable {

    /** Advances to the next frame. Returns false at the end of the file, after damage, or after close. */
    boolean next();

    /** 1-based number of the current frame, in file order. */
    long frameNumber();

    /** Capture time in nanoseconds since the Unix epoch (0 for pcapng Simple Packet Blocks, which have none). */
    long timestampNanos();

    /** Bytes of the frame present in the file. */
    int capturedLength();

    /** Length of the frame on the wire (may exceed {@link #capturedLength()} when the capture was sliced). */
    long originalLength();

    /** LINKTYPE_* of the current frame's interface, exactly as the file says (see {@link LinkTypes}). */
    int linkType();

    /** FCS bytes at the end of the frame if the file says so, otherwise -1 (unknown). */
    int fcsLength();

    /** pcapng interface index within the current section; 0 for pcap. */
    int interfaceId();

    /** 0-based pcapng section index of the current frame; 0 for pcap. */
    int sectionIndex();

    /**
     * The captured bytes of the current frame. For a file-backed source a slice of the file mapping that stays
     * valid until {@link #close()} (not just until the next {@code next()}), so it can be handed to other threads;
     * each call creates a small slice object, and hot loops that want no allocation use {@link #mapping()} with
     * {@link #dataOffset()}. For a source without a mapping, valid only until the next {@link #next()}.
     */
    MemorySegment data();

    /**
     * An array that holds the current frame's captured bytes from {@link #frameBufferOffset()} on, when the source
     * has them at hand (a file reader's read-ahead window): a hot loop reads the frame there, with no slice and no
     * copy out of the mapping. Its contents change with the next {@link #next()}; never written by the caller.
     * Null when the source has no such array.
     */
    default byte[] frameBuffer() {
        return null;
    }

    /**
     * Where the current frame's captured bytes start in {@link #frameBuffer()}, or -1 when they are not all there
     * (no buffer, a frame longer than the window, no current frame): then read {@link #data()}.
     */
    default int frameBufferOffset() {
        return -1;
    }

    /**
     * The current frame's fields in one object that the source updates in place at each {@link #next()} (a file
     * reader's), for a per-frame loop that would otherwise call several accessors per frame; null when the source
     * has none (then use the accessors). Its contents change with the next {@link #next()}; never written by the caller.
     */
    default CurrentFrame current() {
        return null;
    }

    /** The whole file mapping, read-only, valid until {@link #close()}; null when the source is not a file. */
    MemorySegment mapping();

    /**
     * True when no further frame is ready right now (a live source waiting for traffic), so that a reader
     * that batches frames hands over what it has instead of waiting. Files never pause: false.
     */
    default boolean endOfBurst() {
        return false;
    }

    /** Offset of the current frame's captured bytes within {@link #mapping()}; -1 when there is no mapping. */
    long dataOffset();

    /** Byte offset of the current record (pcap) or block (pcapng) in the file. */
    long recordOffset();

    /** The pcapng opt_comment of the current packet (its first, when it has several), or null. Decoded on each call. */
    String comment();

    /**
     * Every opt_comment of the current packet, in file order (pcapng allows several; Wireshark writes one per packet
     * comment); empty for none. Decoded on each call: for the rare commented packet, not for a hot loop.
     */
    default List<String> comments() {
        String c = comment();
        return c == null ? List.of() : List.of(c);
    }

    /** The container format. */
    CaptureFormat format();

    /** Problems found so far, in file order (damage, truncation, inconsistent blocks). */
    List<CaptureProblem> problems();

    /** Interface, section and drop-count information found so far. */
    CaptureStats stats();

    /** Receives a file's bytes in order, a block at a time ({@link #streamContent}). */
    @FunctionalInterface
    interface ContentSink {
        /**
         * The file's next {@code length} bytes are {@code block[offset, offset + length)}; the array is the reader's
         * read-ahead window ({@link #frameBuffer}), reused for the next block and never to be written.
         */
        void accept(byte[] block, int offset, int length);
    }

    /**
     * Hands every byte of the file to sink, in file order and each once, as the reader reaches it: from the block
     * the reader already copies into the CPU caches ahead of itself, so a consumer of the whole content (a content
     * hash) reads it from the cache, not from memory (or the page cache) a second time. By the time {@link #next()}
     * returned false, at the end or at damage, the sink has seen the whole file. Called on the reading thread; set
     * before the first {@link #next()}.
     *
     * @return false when this source does not stream its content (not a file, or reading has begun): the sink then
     *     sees nothing
     */
    default boolean streamContent(ContentSink sink) {
        return false;
    }

    /** Releases the mapping; segments from {@link #data()} become invalid. Idempotent, never throws. */
    @Override
    void close();
}

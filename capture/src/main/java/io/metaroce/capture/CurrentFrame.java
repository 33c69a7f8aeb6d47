package io.metaroce.capture;

/**
 * The current frame's record fields in one object, which a file reader updates in place at each
 * {@link PacketSource#next()} ({@link PacketSource#current()}): a per-frame loop reads them with one call on the source
 * instead of one per field. Under C1 alone (how the launcher runs {@code analyze} and {@code index} under 1 GiB) every
 * call on the interface stays a call, and the common frame's decoder made eight of them per frame. Read-only for the
 * caller; each field means what the accessor of the same name on {@link PacketSource} returns.
 */
public final class CurrentFrame {
    /** {@link PacketSource#frameNumber()}. */
    public long number;
    /** {@link PacketSource#timestampNanos()}. */
    public long timestampNanos;
    /** {@link PacketSource#originalLength()}. */
    public long originalLength;
    /** {@link PacketSource#capturedLength()}. */
    public int capturedLength;
    /** {@link PacketSource#linkType()}. */
    public int linkType;
    /** {@link PacketSource#fcsLength()}. */
    public int fcsLength = -1;
    /** {@link PacketSource#frameBuffer()}: the array never changes for one source. */
    public final byte[] buffer;
    /** {@link PacketSource#frameBufferOffset()}: -1 when the frame is not all in {@link #buffer}. */
    public int bufferOffset = -1;

    CurrentFrame(byte[] buffer) {
        this.buffer = buffer;
    }
}

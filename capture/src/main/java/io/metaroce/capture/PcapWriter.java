package io.metaroce.capture;

import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Writes classic pcap files (version 2.4), microsecond or nanosecond resolution. Output depends only on the
 * arguments (no clock, no host information), so the same input always gives the same bytes.
 *
 * <p>Not thread-safe. Closing the writer closes the underlying stream or channel.
 */
public final class PcapWriter implements AutoCloseable, Flushable {
    private final ChannelOutput out;
    private final boolean nanosecond;
    private final int snapLength;
    private long framesWritten;
    /** The header's 24 bytes, then each record's 16-byte header and data (a ring's file size). */
    private long bytesWritten = 24;

    /**
     * @param channel       destination; closed by {@link #close()}
     * @param resolution    {@link CaptureFormat#PCAP_US} or {@link CaptureFormat#PCAP_NS}
     * @param linkTypeField LINKTYPE_* value, optionally with FCS bits from {@link LinkTypes#pcapLinkTypeWithFcs}
     * @param snapLength    snapshot length written to the header; longer frames are cut to it (0 = no cut)
     * @param order         byte order of the file (readers accept both)
     */
    public PcapWriter(WritableByteChannel channel, CaptureFormat resolution, int linkTypeField, int snapLength,
                      ByteOrder order) throws IOException {
        Objects.requireNonNull(channel, "channel");
        if (resolution != CaptureFormat.PCAP_US && resolution != CaptureFormat.PCAP_NS) {
            throw new IllegalArgumentException("PcapWriter writes PCAP_US or PCAP_NS, not " + resolution);
        }
        if (snapLength < 0) {
            throw new IllegalArgumentException("negative snap length " + snapLength);
        }
        this.out = new ChannelOutput(channel, order);
        this.nanosecond = resolution == CaptureFormat.PCAP_NS;
        this.snapLength = snapLength;
        out.u32(nanosecond ? 0xA1B23C4DL : 0xA1B2C3D4L).u16(2).u16(4).u32(0).u32(0).u32(snapLength)
                .u32(linkTypeField);
    }

    /** Creates (or truncates) {@code file} and writes a little-endian header. */
    public static PcapWriter create(Path file, CaptureFormat resolution, int linkTypeField, int snapLength)
            throws IOException {
        return new PcapWriter(ChannelOutput.channelFor(file), resolution, linkTypeField, snapLength,
                ByteOrder.LITTLE_ENDIAN);
    }

    /** Writes a little-endian pcap to {@code out}, which {@link #close()} closes. */
    public static PcapWriter create(OutputStream out, CaptureFormat resolution, int linkTypeField, int snapLength)
            throws IOException {
        return new PcapWriter(ChannelOutput.channelFor(out), resolution, linkTypeField, snapLength,
                ByteOrder.LITTLE_ENDIAN);
    }

    /** Writes a whole frame, captured in full. */
    public void write(long timestampNanos, byte[] frame) throws IOException {
        write(timestampNanos, frame, 0, frame.length, frame.length);
    }

    /**
     * Writes one record.
     *
     * @param timestampNanos epoch nanoseconds, 0 .. 2^32 seconds (truncated to microseconds for PCAP_US)
     * @param capturedLength bytes taken from {@code data} starting at {@code offset}; cut to the snap length
     * @param originalLength length on the wire, at least {@code capturedLength}
     */
    public void write(long timestampNanos, byte[] data, int offset, int capturedLength, long originalLength)
            throws IOException {
        Objects.checkFromIndexSize(offset, capturedLength, data.length);
        int length = header(timestampNanos, capturedLength, originalLength);
        out.bytes(data, offset, length);
    }

    /** As {@link #write(long, byte[], int, int, long)}, from a memory segment (e.g. a reader's {@code data()}). */
    public void write(long timestampNanos, MemorySegment data, long offset, int capturedLength, long originalLength)
            throws IOException {
        Objects.checkFromIndexSize(offset, capturedLength, data.byteSize());
        int length = header(timestampNanos, capturedLength, originalLength);
        out.bytes(data, offset, length);
    }

    private int header(long timestampNanos, int capturedLength, long originalLength) throws IOException {
        if (originalLength < capturedLength || originalLength > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("original length " + originalLength
                    + " must be >= captured length " + capturedLength + " and fit 32 bits");
        }
        long seconds = Math.floorDiv(timestampNanos, 1_000_000_000L);
        long fraction = Math.floorMod(timestampNanos, 1_000_000_000L);
        if (seconds < 0 || seconds > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("timestamp " + timestampNanos + " ns is outside the pcap range");
        }
        int length = snapLength > 0 ? Math.min(capturedLength, snapLength) : capturedLength;
        out.u32(seconds).u32(nanosecond ? fraction : fraction / 1_000).u32(length).u32(originalLength);
        framesWritten++;
        bytesWritten += 16 + length;
        return length;
    }

    /** Bytes written so far (handed to the channel or still buffered), the file header included. */
    public long bytesWritten() {
        return bytesWritten;
    }

    /** Records written so far. */
    public long framesWritten() {
        return framesWritten;
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}

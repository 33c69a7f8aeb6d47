package io.metaroce.capture;

import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A byte-order-aware write buffer in front of a channel, shared by the pcap and pcapng writers. */
final class ChannelOutput implements Closeable, Flushable {
    private static final int BUFFER_SIZE = 1 << 16;
    private static final byte[] ZEROS = new byte[4];

    private final WritableByteChannel channel;
    private final ByteBuffer buffer;
    private boolean closed;

    ChannelOutput(WritableByteChannel channel, ByteOrder order) {
        this.channel = channel;
        this.buffer = ByteBuffer.allocate(BUFFER_SIZE).order(order);
    }

    static WritableByteChannel channelFor(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
    }

    static WritableByteChannel channelFor(OutputStream out) {
        return Channels.newChannel(out);
    }

    private void room(int bytes) throws IOException {
        if (closed) {
            throw new IOException("writer is closed");
        }
        if (buffer.remaining() < bytes) {
            drain();
        }
    }

    ChannelOutput u8(int value) throws IOException {
        room(1);
        buffer.put((byte) value);
        return this;
    }

    ChannelOutput u16(int value) throws IOException {
        room(2);
        buffer.putShort((short) value);
        return this;
    }

    ChannelOutput u32(long value) throws IOException {
        room(4);
        buffer.putInt((int) value);
        return this;
    }

    ChannelOutput u64(long value) throws IOException {
        room(8);
        buffer.putLong(value);
        return this;
    }

    ChannelOutput bytes(byte[] data, int offset, int length) throws IOException {
        return bytes(MemorySegment.ofArray(data), offset, length);
    }

    /** Copies through the buffer in chunks, so frames of any size and any segment kind are handled alike. */
    ChannelOutput bytes(MemorySegment data, long offset, int length) throws IOException {
        room(0);
        long done = 0;
        while (done < length) {
            if (!buffer.hasRemaining()) {
                drain();
            }
            int chunk = (int) Math.min(length - done, buffer.remaining());
            MemorySegment.copy(data, ValueLayout.JAVA_BYTE, offset + done, buffer.array(), buffer.position(), chunk);
            buffer.position(buffer.position() + chunk);
            done += chunk;
        }
        return this;
    }

    /** Zero bytes up to the next multiple of 4 after {@code length} bytes of data. */
    ChannelOutput pad(long length) throws IOException {
        int padding = (int) (-length & 3);
        return bytes(ZEROS, 0, padding);
    }

    /** An option {code, length, value, padding} with a UTF-8 string value. */
    ChannelOutput stringOption(int code, byte[] utf8) throws IOException {
        u16(code).u16(utf8.length).bytes(utf8, 0, utf8.length);
        return pad(utf8.length);
    }

    static byte[] utf8Option(String text) {
        if (text == null) {
            return null;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 0xFFFF) {
            throw new IllegalArgumentException("option text longer than 65535 UTF-8 bytes");
        }
        return bytes;
    }

    /** Bytes one string option occupies on disk, or 0 for null. */
    static int optionSize(byte[] utf8) {
        return utf8 == null ? 0 : 4 + ((utf8.length + 3) & ~3);
    }

    private void drain() throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
    }


    @Override
    public void flush() throws IOException {
        if (!closed) {
            drain();
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            drain();
        } finally {
            closed = true;
            channel.close();
        }
    }
}

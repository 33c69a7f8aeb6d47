package io.metaroce.capture;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Hand-assembles pcap and pcapng bytes for tests, independently of the production writers, so that reader
 * tests do not merely check the writer against itself. Everything is written in an explicit byte order.
 */
final class Blocks {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private ByteOrder order;

    Blocks(ByteOrder order) {
        this.order = order;
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    int size() {
        return out.size();
    }

    Blocks raw(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    Blocks u16(int v) {
        out.writeBytes(ByteBuffer.allocate(2).order(order).putShort((short) v).array());
        return this;
    }

    Blocks u32(long v) {
        out.writeBytes(ByteBuffer.allocate(4).order(order).putInt((int) v).array());
        return this;
    }

    Blocks u64(long v) {
        out.writeBytes(ByteBuffer.allocate(8).order(order).putLong(v).array());
        return this;
    }

    // ---- classic pcap ----

    Blocks pcapHeader(boolean nanos, int snaplen, int linkTypeField) {
        return u32(nanos ? 0xA1B23C4DL : 0xA1B2C3D4L).u16(2).u16(4).u32(0).u32(0).u32(snaplen).u32(linkTypeField);
    }

    Blocks pcapRecord(long sec, long frac, byte[] data, long origLen) {
        return u32(sec).u32(frac).u32(data.length).u32(origLen).raw(data);
    }

    // ---- pcapng ----

    /** An option list: pairs of (code, value bytes); an end-of-options marker is appended. */
    byte[] options(Object... codeValue) {
        Blocks o = new Blocks(order);
        for (int i = 0; i < codeValue.length; i += 2) {
            byte[] v = value(codeValue[i + 1]);
            o.u16((Integer) codeValue[i]).u16(v.length).raw(v).raw(new byte[(-v.length) & 3]);
        }
        if (codeValue.length > 0) {
            o.u32(0);
        }
        return o.bytes();
    }

    private byte[] value(Object v) {
        return switch (v) {
            case String s -> s.getBytes(StandardCharsets.UTF_8);
            case byte[] b -> b;
            case Long l -> ByteBuffer.allocate(8).order(order).putLong(l).array();
            case Integer i -> ByteBuffer.allocate(4).order(order).putInt(i).array();
            case Byte b -> new byte[] {b};
            default -> throw new IllegalArgumentException(v.toString());
        };
    }

    /** A generic block: type, total length, body (padded), options, total length. */
    Blocks block(int type, byte[] body, byte[] options) {
        int padded = (body.length + 3) & ~3;
        int length = 12 + padded + options.length;
        u32(type).u32(length).raw(body).raw(new byte[padded - body.length]).raw(options).u32(length);
        return this;
    }

    Blocks shb(ByteOrder newOrder, Object... options) {
        this.order = newOrder;
        Blocks body = new Blocks(order).u32(0x1A2B3C4D).u16(1).u16(0).u64(-1);
        return block(0x0A0D0D0A, body.bytes(), options(options));
    }

    Blocks idb(int linkType, int snaplen, Object... options) {
        return block(1, new Blocks(order).u16(linkType).u16(0).u32(snaplen).bytes(), options(options));
    }

    Blocks epb(int ifId, long ticks, byte[] data, long origLen, Object... options) {
        Blocks body = new Blocks(order).u32(ifId).u32(ticks >>> 32).u32(ticks).u32(data.length).u32(origLen).raw(data);
        return block(6, body.bytes(), options(options));
    }

    Blocks pb(int ifId, int drops, long ticks, byte[] data, long origLen, Object... options) {
        Blocks body = new Blocks(order).u16(ifId).u16(drops).u32(ticks >>> 32).u32(ticks).u32(data.length)
                .u32(origLen).raw(data);
        return block(2, body.bytes(), options(options));
    }

    Blocks spb(long origLen, byte[] data) {
        return block(3, new Blocks(order).u32(origLen).raw(data).bytes(), new byte[0]);
    }

    Blocks isb(int ifId, long ticks, Object... options) {
        return block(5, new Blocks(order).u32(ifId).u32(ticks >>> 32).u32(ticks).bytes(), options(options));
    }

    static byte[] frame(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (seed * 31 + i);
        }
        return b;
    }
}

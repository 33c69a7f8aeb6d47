package io.metaroce.dissector;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A buffered ASCII/UTF-8 writer for output-heavy paths (jsonl, fields): numbers are written without
 * creating strings, and the buffer is flushed in 64 KiB blocks. Not thread-safe.
 */
public final class ByteOut implements AutoCloseable {
    private final OutputStream out;
    private final byte[] buf = new byte[1 << 16];
    private int n;
    private long flushed;
    private final byte[] digits = new byte[20];

    public ByteOut(OutputStream out) { this.out = out; }

    public ByteOut ch(char c) {
        if (c < 0x80) {
            if (n == buf.length) flushBuffer();
            buf[n++] = (byte) c;
            return this;
        }
        return str(String.valueOf(c));
    }

    public ByteOut ascii(String s) {
        int len = s.length();
        if (n + len > buf.length) flushBuffer();
        if (len > buf.length) return str(s);
        for (int i = 0; i < len; i++) buf[n++] = (byte) s.charAt(i);
        return this;
    }

    public ByteOut str(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (n + b.length > buf.length) flushBuffer();
        if (b.length > buf.length) {
            write(b);
            return this;
        }
        System.arraycopy(b, 0, buf, n, b.length);
        n += b.length;
        return this;
    }

    public ByteOut bytes(byte[] b, int off, int len) {
        if (n + len > buf.length) flushBuffer();
        if (len > buf.length) {
            flushed += len;
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }
        System.arraycopy(b, off, buf, n, len);
        n += len;
        return this;
    }

    /**
     * The JSON number contract of every writer (dissect, analyze, validate): true when a double, as jq 1.6 and
     * JavaScript read numbers, holds v exactly (|v| <= 2^53); larger integers are written as strings.
     */
    public static boolean exactInDouble(long v) {
        return v >= -(1L << 53) && v <= (1L << 53);
    }

    /**
     * A JSON integer: a number up to 2^53, beyond that (time_ns, GUIDs, 64-bit values read as unsigned) a
     * string, as tshark writes them, so that jq 1.6 and JavaScript do not round it (README, "JSON numbers").
     */
    public ByteOut jsonNum(long v, boolean unsigned) {
        if (unsigned && v < 0) return ch('"').ascii(Long.toUnsignedString(v)).ch('"');
        if (!exactInDouble(v)) return ch('"').num(v).ch('"');
        return num(v);
    }

    /** Unsigned decimal of a non-negative long (or the full signed value when negative). */
    public ByteOut num(long v) {
        if (v < 0) return ascii(Long.toString(v));
        if (n + 20 > buf.length) flushBuffer();
        int i = digits.length;
        do {
            digits[--i] = (byte) ('0' + (v % 10));
            v /= 10;
        } while (v != 0);
        int len = digits.length - i;
        System.arraycopy(digits, i, buf, n, len);
        n += len;
        return this;
    }

    public ByteOut hex(long v, int width) {
        String h = Long.toHexString(v);
        for (int i = h.length(); i < width; i++) ch('0');
        return ascii(h);
    }

    /** A JSON string literal. */
    public ByteOut json(String s) {
        ch('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> ascii("\\\"");
                case '\\' -> ascii("\\\\");
                case '\n' -> ascii("\\n");
                case '\r' -> ascii("\\r");
                case '\t' -> ascii("\\t");
                default -> {
                    if (c < 0x20) ascii(String.format("\\u%04x", (int) c));
                    else if (Character.isHighSurrogate(c) && i + 1 < s.length()) str(s.substring(i, ++i + 1));
                    else ch(c);
                }
            }
        }
        return ch('"');
    }

    private void write(byte[] b) {
        flushBuffer();
        flushed += b.length;
        try {
            out.write(b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * True when stdout was closed by the reader ({@code | head}): a PrintStream keeps the broken pipe to itself,
     * so ask it. The caller stops at once instead of decoding the rest of the capture for nobody.
     */
    public boolean closed() {
        return out instanceof java.io.PrintStream ps && ps.checkError();
    }

    /** Bytes written so far (flushed or still buffered). */
    public long position() { return flushed + n; }

    private void flushBuffer() {
        flushed += n;
        try {
            out.write(buf, 0, n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        n = 0;
    }

    public void flush() {
        flushBuffer();
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() { flush(); }
}

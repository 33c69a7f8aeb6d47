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
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

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

    public ByteOut bytes(byte[] b) {
        return bytes(b, 0, b.length);
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

    /**
     * Decimal of a non-negative long (or the full signed value when negative). The digits come from int arithmetic:
     * C1-compiled code (the launcher runs small captures with C1 alone) divides a long through a runtime call
     * ({@code SharedRuntime::ldiv}/{@code lrem}: 4 % of {@code dissect -T jsonl}'s CPU with one pair per digit), so
     * a value past the int range takes one long division per nine digits and no more.
     */
    public ByteOut num(long v) {
        if (v < 0) return ascii(Long.toString(v));
        if (n + 20 > buf.length) flushBuffer();
        int i = digits.length;
        while (v > Integer.MAX_VALUE) {      // at most twice: Long.MAX_VALUE has 19 digits
            long q = v / 1_000_000_000L;
            int low = (int) (v - q * 1_000_000_000L);
            for (int k = 0; k < 9; k++) {
                int d = low / 10;
                digits[--i] = (byte) ('0' + low - d * 10);
                low = d;
            }
            v = q;
        }
        int x = (int) v;
        do {
            int d = x / 10;
            digits[--i] = (byte) ('0' + x - d * 10);
            x = d;
        } while (x != 0);
        int len = digits.length - i;
        System.arraycopy(digits, i, buf, n, len);
        n += len;
        return this;
    }

    /** v in lowercase hex (unsigned), zero-padded to width digits. */
    public ByteOut hex(long v, int width) {
        int digits = Math.max(1, (67 - Long.numberOfLeadingZeros(v)) / 4);
        for (int i = digits; i < width; i++) ch('0');
        if (n + digits > buf.length) flushBuffer();
        for (int i = digits - 1; i >= 0; i--) buf[n++] = HEX[(int) (v >>> (i * 4)) & 0xF];
        return this;
    }

    /** One byte as two lowercase hex digits. */
    public ByteOut hexByte(int b) {
        if (n + 2 > buf.length) flushBuffer();
        buf[n++] = HEX[(b >>> 4) & 0xF];
        buf[n++] = HEX[b & 0xF];
        return this;
    }

    /** Dotted IPv4, as {@link Addresses#ipv4}. */
    public ByteOut ipv4(int a) {
        return num((a >>> 24) & 0xFF).ch('.').num((a >>> 16) & 0xFF).ch('.').num((a >>> 8) & 0xFF).ch('.').num(a & 0xFF);
    }

    /** A MAC address (the low 48 bits), colon-separated lowercase hex, as {@link Addresses#mac}. */
    public ByteOut mac(long m) {
        for (int i = 5; i >= 0; i--) {
            hexByte((int) (m >>> (i * 8)));
            if (i > 0) ch(':');
        }
        return this;
    }

    /** Nanoseconds as seconds with 9 decimals, as {@link FieldFormat#seconds}. */
    public ByteOut seconds(long ns) {
        if (ns == Long.MIN_VALUE) return ascii(FieldFormat.seconds(ns)); // no positive twin: the string's odd form
        if (ns < 0) ch('-');
        long a = Math.abs(ns);
        num(a / 1_000_000_000L).ch('.');
        long frac = a % 1_000_000_000L;
        if (n + 9 > buf.length) flushBuffer();
        for (int i = 8; i >= 0; i--) {
            buf[n + i] = (byte) ('0' + frac % 10);
            frac /= 10;
        }
        n += 9;
        return this;
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

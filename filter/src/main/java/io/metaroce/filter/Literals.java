package io.metaroce.filter;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Parsing and printing of literal values. Parsers return null when the text is not of that kind. */
final class Literals {
    private Literals() {
    }

    // ------------------------------------------------------------------ integers

    /** Decimal, hex {@code 0x1f}, octal {@code 017}, binary {@code 0b101}; 0..2^64-1. */
    static Long parseUnsigned(String s) {
        if (s.isEmpty()) {
            return null;
        }
        String digits;
        int radix;
        if (s.length() > 2 && s.charAt(0) == '0' && (s.charAt(1) == 'x' || s.charAt(1) == 'X')) {
            digits = s.substring(2);
            radix = 16;
        } else if (s.length() > 2 && s.charAt(0) == '0' && (s.charAt(1) == 'b' || s.charAt(1) == 'B')) {
            digits = s.substring(2);
            radix = 2;
        } else if (s.length() > 1 && s.charAt(0) == '0') {
            digits = s.substring(1);
            radix = 8;
        } else {
            digits = s;
            radix = 10;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (Character.digit(digits.charAt(i), radix) < 0) {
                return null;   // also rejects signs, which parseUnsignedLong would accept
            }
        }
        try {
            return Long.parseUnsignedLong(digits, radix);
        } catch (NumberFormatException e) {
            return null;       // overflow
        }
    }

    /** Like {@link #parseUnsigned} with an optional leading minus; -2^63..2^63-1. */
    static Long parseSigned(String s) {
        boolean negative = s.startsWith("-");
        Long magnitude = parseUnsigned(negative ? s.substring(1) : s);
        if (magnitude == null) {
            return null;
        }
        long m = magnitude;
        if (negative) {
            if (Long.compareUnsigned(m, Long.MIN_VALUE) > 0) {
                return null;
            }
            return -m;          // -(2^63) wraps to Long.MIN_VALUE, as wanted
        }
        return m < 0 ? null : m;
    }

    /** Seconds with up to 9 decimals ("1.5", "-0.000001", "2") as nanoseconds; null when malformed or out of range. */
    static Long parseSeconds(String s) {
        java.util.regex.Matcher m = SECONDS.matcher(s);
        if (!m.matches()) {
            return null;
        }
        String frac = m.group(3) == null ? "" : m.group(3);
        try {
            long ns = Math.addExact(Math.multiplyExact(Long.parseLong(m.group(2)), 1_000_000_000L),
                    Long.parseLong((frac + "000000000").substring(0, 9)));
            return m.group(1) == null ? ns : -ns;
        } catch (ArithmeticException | NumberFormatException e) {
            return null;
        }
    }

    private static final java.util.regex.Pattern SECONDS = java.util.regex.Pattern.compile("(-)?(\\d{1,11})(?:\\.(\\d{0,9}))?");

    /** Nanoseconds as seconds with 9 decimals, as tshark prints relative times. */
    static String formatSeconds(long ns) {
        String sign = ns < 0 ? "-" : "";
        long a = Math.abs(ns);
        return sign + a / 1_000_000_000L + "." + String.format("%09d", a % 1_000_000_000L);
    }

    static Long parseBoolean(String s) {
        if (s.equalsIgnoreCase("true")) {
            return 1L;
        }
        if (s.equalsIgnoreCase("false")) {
            return 0L;
        }
        Long v = parseSigned(s);
        return v == null ? null : (v != 0 ? 1L : 0L);
    }

    // ------------------------------------------------------------------ IPv4

    /** Dotted quad, each part 0..255 in decimal. Returns the address as an unsigned 32-bit value. */
    static Long parseIPv4(String s) {
        List<String> parts = split(s, '.');
        if (parts.size() != 4) {
            return null;
        }
        long v = 0;
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3) {
                return null;
            }
            int n = 0;
            for (int i = 0; i < p.length(); i++) {
                char c = p.charAt(i);
                if (c < '0' || c > '9') {
                    return null;
                }
                n = n * 10 + (c - '0');
            }
            if (n > 255) {
                return null;
            }
            v = (v << 8) | n;
        }
        return v;
    }

    static String formatIPv4(long v) {
        return ((v >>> 24) & 0xff) + "." + ((v >>> 16) & 0xff) + "." + ((v >>> 8) & 0xff) + "." + (v & 0xff);
    }

    /** Prefix length after '/', or -1 when malformed or above max. */
    static int parsePrefix(String s, int max) {
        if (s.isEmpty() || s.length() > 3) {
            return -1;
        }
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n <= max ? n : -1;
    }

    // ------------------------------------------------------------------ IPv6

    /** RFC 4291 text form, including "::" and a trailing dotted IPv4 part; no zone, no brackets. */
    static byte[] parseIPv6(String s) {
        if (s.isEmpty() || s.length() > 45) {
            return null;
        }
        int dc = s.indexOf("::");
        if (dc >= 0 && s.indexOf("::", dc + 1) >= 0) {
            return null;
        }
        List<Integer> head;
        List<Integer> tail;
        if (dc >= 0) {
            head = groups(s.substring(0, dc), false);
            tail = groups(s.substring(dc + 2), true);
        } else {
            head = groups(s, true);
            tail = List.of();
        }
        if (head == null || tail == null) {
            return null;
        }
        int total = head.size() + tail.size();
        if (dc >= 0 ? total > 7 : total != 8) {
            return null;
        }
        byte[] out = new byte[16];
        int pos = 0;
        for (int g : head) {
            out[pos++] = (byte) (g >>> 8);
            out[pos++] = (byte) g;
        }
        pos = 16 - 2 * tail.size();
        for (int g : tail) {
            out[pos++] = (byte) (g >>> 8);
            out[pos++] = (byte) g;
        }
        return out;
    }

    /** 16-bit groups of one side of "::"; the last group may be a dotted IPv4 address (two groups). */
    private static List<Integer> groups(String s, boolean ipv4Allowed) {
        List<Integer> out = new ArrayList<>();
        if (s.isEmpty()) {
            return out;
        }
        List<String> parts = split(s, ':');
        for (int i = 0; i < parts.size(); i++) {
            String p = parts.get(i);
            if (i == parts.size() - 1 && ipv4Allowed && p.indexOf('.') >= 0) {
                Long v4 = parseIPv4(p);
                if (v4 == null) {
                    return null;
                }
                out.add((int) (v4 >>> 16));
                out.add((int) (v4 & 0xffff));
                continue;
            }
            if (p.isEmpty() || p.length() > 4) {
                return null;
            }
            int g = 0;
            for (int k = 0; k < p.length(); k++) {
                int d = Character.digit(p.charAt(k), 16);
                if (d < 0) {
                    return null;
                }
                g = g * 16 + d;
            }
            out.add(g);
        }
        return out;
    }

    /** RFC 5952: lower case, no leading zeros, the longest run (of at least two) zero groups as "::". */
    static String formatIPv6(byte[] a) {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = ((a[2 * i] & 0xff) << 8) | (a[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }

    /** The first {@code bits} bits of {@code a}; the rest zero. */
    static byte[] maskPrefix(byte[] a, int bits) {
        byte[] out = a.clone();
        for (int i = 0; i < out.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - 8 * i));
            out[i] &= (byte) (0xff00 >>> keep);
        }
        return out;
    }

    /** True when the first {@code bits} bits of {@code v} equal those of {@code net} (a masked prefix). */
    static boolean prefixMatches(byte[] v, byte[] net, int bits) {
        if (v == null || v.length != net.length) {
            return false;
        }
        int full = bits >>> 3;
        for (int i = 0; i < full; i++) {
            if (v[i] != net[i]) {
                return false;
            }
        }
        int rest = bits & 7;
        if (rest != 0) {
            int m = (0xff00 >>> rest) & 0xff;
            return (v[full] & m) == (net[full] & 0xff);
        }
        return true;
    }

    // ------------------------------------------------------------------ MAC

    /**
     * Six groups of 1-2 hex digits separated by one of ':' '-' '.', or three groups of four hex digits
     * separated by '.' (Cisco). Returns the 48-bit value.
     */
    static Long parseMac(String s) {
        char sep = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.digit(c, 16) < 0) {
                sep = c;
                break;
            }
        }
        if (sep != ':' && sep != '-' && sep != '.') {
            return null;
        }
        List<String> parts = split(s, sep);
        int width;
        if (parts.size() == 6) {
            width = 2;
        } else if (parts.size() == 3 && sep == '.') {
            width = 4;
        } else {
            return null;
        }
        long v = 0;
        for (String p : parts) {
            if (p.isEmpty() || p.length() > width || (width == 4 && p.length() != 4)) {
                return null;
            }
            for (int i = 0; i < p.length(); i++) {
                if (Character.digit(p.charAt(i), 16) < 0) {
                    return null;
                }
            }
            v = (v << (4 * width)) | Long.parseLong(p, 16);
        }
        return v;
    }

    static String formatMac(long v) {
        StringBuilder sb = new StringBuilder(17);
        for (int shift = 40; shift >= 0; shift -= 8) {
            int b = (int) (v >>> shift) & 0xff;
            if (shift != 40) {
                sb.append(':');
            }
            sb.append(Character.forDigit(b >>> 4, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------ byte strings

    /**
     * Hex bytes separated by one of ':' '-' '.' (each group 1-2 digits: {@code de:ad:be:ef},
     * {@code 0.1.0.d}); a single byte as {@code 7a}, {@code 7a:} or {@code 0x7a}.
     */
    static byte[] parseBytes(String s) {
        if (s.length() > 2 && s.charAt(0) == '0' && (s.charAt(1) == 'x' || s.charAt(1) == 'X')) {
            Long v = parseUnsigned(s);
            return v != null && v <= 0xff ? new byte[] {(byte) (long) v} : null;
        }
        char sep = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.digit(c, 16) < 0) {
                sep = c;
                break;
            }
        }
        if (sep == 0) {
            return s.length() == 2 ? new byte[] {(byte) Integer.parseInt(s, 16)} : null;
        }
        if (sep != ':' && sep != '-' && sep != '.') {
            return null;
        }
        List<String> parts = split(s, sep);
        if (sep == ':' && parts.size() == 2 && parts.get(1).isEmpty() && parts.get(0).length() == 2) {
            parts = parts.subList(0, 1);   // "7a:" is one byte
        }
        byte[] out = new byte[parts.size()];
        for (int k = 0; k < parts.size(); k++) {
            String p = parts.get(k);
            if (p.isEmpty() || p.length() > 2) {
                return null;
            }
            int v = 0;
            for (int i = 0; i < p.length(); i++) {
                int d = Character.digit(p.charAt(i), 16);
                if (d < 0) {
                    return null;
                }
                v = v * 16 + d;
            }
            out[k] = (byte) v;
        }
        return out;
    }

    /** {@code de:ad:be:ef}; one byte as {@code 0xde}; empty as {@code ""}. */
    static String formatBytes(byte[] b) {
        if (b.length == 0) {
            return "\"\"";
        }
        if (b.length == 1) {
            return "0x" + hex2(b[0]);
        }
        StringBuilder sb = new StringBuilder(b.length * 3);
        for (int i = 0; i < b.length; i++) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(hex2(b[i]));
        }
        return sb.toString();
    }

    private static String hex2(byte b) {
        return new String(new char[] {Character.forDigit((b >>> 4) & 0xf, 16), Character.forDigit(b & 0xf, 16)});
    }

    // ------------------------------------------------------------------ strings

    /** Thrown by {@link #decodeString} with the offset (in the body) and length of a bad escape. */
    static final class BadEscape extends Exception {
        private static final long serialVersionUID = 1L;
        final int offset;
        final int length;

        BadEscape(String message, int offset, int length) {
            super(message, null, false, false);
            this.offset = offset;
            this.length = length;
        }
    }

    /**
     * Decodes the body of a double-quoted string (without the quotes) into bytes: characters as UTF-8,
     * {@code \xNN} and octal escapes as raw bytes, {@code \\uNNNN}/{@code \\UNNNNNNNN} as UTF-8.
     * A raw string (r"...") keeps its body unchanged, backslashes included.
     */
    static byte[] decodeString(String body, boolean raw) throws BadEscape {
        if (raw) {
            return body.getBytes(StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length());
        int i = 0;
        int n = body.length();
        while (i < n) {
            char c = body.charAt(i);
            if (c != '\\') {
                int cp = body.codePointAt(i);
                int len = Character.charCount(cp);
                out.writeBytes(body.substring(i, i + len).getBytes(StandardCharsets.UTF_8));
                i += len;
                continue;
            }
            if (i + 1 >= n) {
                throw new BadEscape("A backslash at the end of a string must be escaped", i, 1);
            }
            char e = body.charAt(i + 1);
            switch (e) {
                case '\'', '"', '\\' -> { out.write(e); i += 2; }
                case 'a' -> { out.write(7); i += 2; }
                case 'b' -> { out.write(8); i += 2; }
                case 'f' -> { out.write(12); i += 2; }
                case 'n' -> { out.write(10); i += 2; }
                case 'r' -> { out.write(13); i += 2; }
                case 't' -> { out.write(9); i += 2; }
                case 'v' -> { out.write(11); i += 2; }
                case 'x' -> {
                    int j = i + 2;
                    int v = 0;
                    while (j < n && j < i + 4 && Character.digit(body.charAt(j), 16) >= 0) {
                        v = v * 16 + Character.digit(body.charAt(j), 16);
                        j++;
                    }
                    if (j == i + 2) {
                        throw new BadEscape("\\x must be followed by one or two hex digits", i, 2);
                    }
                    out.write(v);
                    i = j;
                }
                case 'u', 'U' -> {
                    int digits = e == 'u' ? 4 : 8;
                    int j = i + 2;
                    long v = 0;
                    while (j < n && j < i + 2 + digits && Character.digit(body.charAt(j), 16) >= 0) {
                        v = v * 16 + Character.digit(body.charAt(j), 16);
                        j++;
                    }
                    if (j - (i + 2) != digits || v > Character.MAX_CODE_POINT
                            || (v >= Character.MIN_SURROGATE && v <= Character.MAX_SURROGATE)) {
                        throw new BadEscape("\\" + e + " must be followed by " + digits
                                + " hex digits of a valid Unicode code point", i, Math.max(2, j - i));
                    }
                    out.writeBytes(new String(Character.toChars((int) v)).getBytes(StandardCharsets.UTF_8));
                    i = j;
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        int j = i + 1;
                        int v = 0;
                        while (j < n && j < i + 4 && body.charAt(j) >= '0' && body.charAt(j) <= '7') {
                            v = v * 8 + (body.charAt(j) - '0');
                            j++;
                        }
                        if (v > 0xff) {
                            throw new BadEscape("\\" + body.substring(i + 1, j) + " is larger than 255", i, j - i);
                        }
                        out.write(v);
                        i = j;
                    } else {
                        int cp = body.codePointAt(i + 1);
                        throw new BadEscape("\\" + new String(Character.toChars(cp)) + " is not a valid escape sequence",
                                i, 1 + Character.charCount(cp));
                    }
                }
            }
        }
        return out.toByteArray();
    }

    /** A double-quoted string literal that decodes back to {@code s}. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2);
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        sb.append("\\x").append(Character.forDigit(c >>> 4, 16)).append(Character.forDigit(c & 0xf, 16));
                    } else if (Character.isSurrogate(c)
                            && !(Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1)))
                            && !(Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1)))) {
                        sb.append("\\uFFFD");   // a lone surrogate has no UTF-8 form; decoding would give U+FFFD too
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    // ------------------------------------------------------------------ helpers

    /** Splits on every occurrence of {@code sep}, keeping empty parts. */
    static List<String> split(String s, char sep) {
        List<String> out = new ArrayList<>(8);
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == sep) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}

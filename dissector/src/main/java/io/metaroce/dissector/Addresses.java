package io.metaroce.dissector;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** Address text forms: dotted IPv4, RFC 5952 IPv6, colon-separated MAC. */
public final class Addresses {
    private Addresses() {}

    public static String ipv4(int a) {
        return ((a >>> 24) & 0xFF) + "." + ((a >>> 16) & 0xFF) + "." + ((a >>> 8) & 0xFF) + "." + (a & 0xFF);
    }

    public static String mac(long m) {
        StringBuilder b = new StringBuilder(17);
        for (int i = 5; i >= 0; i--) {
            int v = (int) (m >>> (i * 8)) & 0xFF;
            b.append(Character.forDigit(v >>> 4, 16)).append(Character.forDigit(v & 0xF, 16));
            if (i > 0) b.append(':');
        }
        return b.toString();
    }

    /** RFC 5952: lowercase, leading zeros dropped, the longest run (>= 2) of zero groups as "::". */
    public static String ipv6(MemorySegment s) {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = ((s.get(ValueLayout.JAVA_BYTE, 2L * i) & 0xFF) << 8) | (s.get(ValueLayout.JAVA_BYTE, 2L * i + 1) & 0xFF);
        }
        return ipv6(g);
    }

    public static String ipv6(byte[] a) {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) g[i] = ((a[2 * i] & 0xFF) << 8) | (a[2 * i + 1] & 0xFF);
        return ipv6(g);
    }

    private static String ipv6(int[] g) {
        // IPv4-mapped (::ffff:a.b.c.d) keeps its dotted tail, as RFC 5952 section 5 recommends.
        if (g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0 && g[5] == 0xFFFF) {
            return "::ffff:" + ipv4((g[6] << 16) | g[7]);
        }
        int bestStart = -1, bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) { i++; continue; }
            int j = i;
            while (j < 8 && g[j] == 0) j++;
            if (j - i > bestLen && j - i >= 2) { bestStart = i; bestLen = j - i; }
            i = j;
        }
        StringBuilder b = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                b.append("::");
                i += bestLen - 1;
                continue;
            }
            if (b.length() > 0 && b.charAt(b.length() - 1) != ':') b.append(':');
            b.append(Integer.toHexString(g[i]));
        }
        return b.toString();
    }

    /**
     * An address typed by a user or printed by another tool, as flow ids write it: dotted IPv4 (an IPv4-mapped IPv6
     * address too), IPv6 in RFC 5952 form; null when the text is no full literal (a host name, or a short IPv4 form
     * such as "10.1", which {@link InetAddress#ofLiteral} would take).
     */
    public static String canonical(String text) {
        if (text == null || !text.matches("[0-9A-Fa-f:.]+") || (!text.contains(":") && !text.matches("\\d+\\.\\d+\\.\\d+\\.\\d+"))) {
            return null;
        }
        try {
            InetAddress a = InetAddress.ofLiteral(text);
            return a instanceof Inet6Address ? ipv6(a.getAddress()) : a.getHostAddress();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Parses an IPv4 or IPv6 literal to 16 bytes (IPv4 as IPv4-mapped), or null. */
    public static byte[] parse(String text) {
        try {
            InetAddress a = InetAddress.ofLiteral(text);
            if (a instanceof Inet6Address) return a.getAddress();
            byte[] v4 = a.getAddress();
            byte[] out = new byte[16];
            out[10] = (byte) 0xFF;
            out[11] = (byte) 0xFF;
            System.arraycopy(v4, 0, out, 12, 4);
            return out;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}

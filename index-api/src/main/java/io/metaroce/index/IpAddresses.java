package io.metaroce.index;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.HexFormat;

/**
 * IP literals without name lookups ({@link InetAddress#ofLiteral}), and their sortable text form for a backend
 * without an IP type: 32 hex digits of the 16-byte IPv6 form (IPv4 mapped into {@code ::ffff:0:0/96}), whose
 * string order is the numeric order, so a CIDR block is a string range.
 */
public final class IpAddresses {
    private IpAddresses() {}

    /** The address of an IPv4 or IPv6 literal, or null when the text is not one (never a DNS lookup). */
    public static InetAddress parse(String text) {
        if (text == null || text.isEmpty() || !(Character.digit(text.charAt(0), 16) >= 0 || text.charAt(0) == ':')) return null;
        try {
            // The family by its separator: InetAddress.ofLiteral tries IPv4 first and makes (and drops) an exception
            // for every IPv6 literal, a stack trace per IPv6 address of every flow document indexed.
            return text.indexOf(':') >= 0 ? Inet6Address.ofLiteral(text) : Inet4Address.ofLiteral(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The 16-byte form (IPv4 as {@code ::ffff:a.b.c.d}), as Lucene's InetAddressPoint and sortable text use. */
    public static byte[] to16(InetAddress a) {
        byte[] b = a.getAddress();
        if (b.length == 16) return b;
        byte[] m = new byte[16];
        m[10] = m[11] = (byte) 0xFF;
        System.arraycopy(b, 0, m, 12, 4);
        return m;
    }

    /** 32 lowercase hex digits of {@link #to16}: sorts as the addresses do. */
    public static String sortableHex(InetAddress a) { return HexFormat.of().formatHex(to16(a)); }

    /** The canonical literal of an address (IPv6 in RFC 5952 form, as the analysis prints it). */
    public static String text(InetAddress a) {
        String s = a.getHostAddress();
        return a.getAddress().length == 16 ? Rfc5952.compress(s) : s;
    }

    /** RFC 5952 text from the JDK's uncompressed form {@code 0:0:0:0:0:0:0:1}. */
    private static final class Rfc5952 {
        static String compress(String full) {
            int pct = full.indexOf('%');
            if (pct >= 0) full = full.substring(0, pct);
            String[] g = full.split(":");
            int bestAt = -1, bestLen = 1;
            for (int i = 0; i < g.length; ) {
                if (!g[i].equals("0")) { i++; continue; }
                int j = i;
                while (j < g.length && g[j].equals("0")) j++;
                if (j - i > bestLen) { bestAt = i; bestLen = j - i; }
                i = j;
            }
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < g.length; i++) {
                if (i == bestAt) {
                    b.append(i == 0 ? "::" : ":");
                    i += bestLen - 1;
                    continue;
                }
                b.append(g[i]);
                if (i < g.length - 1) b.append(':');
            }
            return b.toString();
        }
    }
}

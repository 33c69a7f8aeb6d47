package io.metaroce.capture.live;

import java.util.ArrayList;
import java.util.List;
import org.pcap4j.core.PcapAddress;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.Pcaps;

/** {@code capture -D}: the interfaces libpcap can open, with their addresses and descriptions. */
public final class InterfaceList {
    /**
     * One interface.
     *
     * @param name        what -i takes
     * @param description libpcap's description, or null
     * @param addresses   its IP addresses (IPv6 without zone), possibly empty
     * @param up          the interface is up
     * @param loopback    it is a loopback interface
     */
    public record Entry(String name, String description, List<String> addresses, boolean up, boolean loopback) {
        /** One line in dumpcap's style: {@code 1. eth0 (description) [10.0.0.1, fe80::1] down}. */
        public String line(int number) {
            StringBuilder sb = new StringBuilder().append(number).append(". ").append(name);
            if (description != null && !description.isBlank()) sb.append(" (").append(description).append(')');
            if (!addresses.isEmpty()) sb.append(" [").append(String.join(", ", addresses)).append(']');
            if (loopback) sb.append(" loopback");
            if (!up) sb.append(" down");
            return sb.toString();
        }
    }

    private InterfaceList() {}

    /** Every interface libpcap finds (needs no privilege). */
    public static List<Entry> all() throws LiveCaptureException {
        List<PcapNetworkInterface> devs;
        try {
            devs = Pcaps.findAllDevs();
        } catch (PcapNativeException e) {
            throw new LiveCaptureException(LiveCaptureException.Kind.FAILED, "cannot list interfaces: " + e.getMessage());
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw LiveCapture.noLibpcap(e);
        }
        List<Entry> out = new ArrayList<>();
        for (PcapNetworkInterface d : devs) {
            List<String> addrs = new ArrayList<>();
            for (PcapAddress a : d.getAddresses()) {
                if (a.getAddress() == null) continue;
                addrs.add(text(a.getAddress()));
            }
            out.add(new Entry(d.getName(), d.getDescription(), addrs, d.isUp(), d.isLoopBack()));
        }
        return out;
    }

    /** An address as users write it: IPv6 in RFC 5952 form (longest zero run as ::, no zone). */
    static String text(java.net.InetAddress a) {
        String s = a.getHostAddress();
        int zone = s.indexOf('%');
        if (zone >= 0) s = s.substring(0, zone);
        if (!(a instanceof java.net.Inet6Address)) return s;
        String[] g = s.split(":");
        int best = -1, bestLen = 1;
        for (int i = 0; i < g.length; ) {
            int j = i;
            while (j < g.length && g[j].equals("0")) j++;
            if (j - i > bestLen) {
                best = i;
                bestLen = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        if (best < 0) return s;
        String head = String.join(":", java.util.Arrays.copyOfRange(g, 0, best));
        String tail = String.join(":", java.util.Arrays.copyOfRange(g, best + bestLen, g.length));
        return head + "::" + tail;
    }

    /** The description libpcap gives for {@code name}, or null (also when it cannot be looked up). */
    static String description(String name) {
        try {
            for (Entry e : all()) if (e.name().equals(name)) return e.description();
        } catch (LiveCaptureException e) {
            return null;
        }
        return null;
    }
}

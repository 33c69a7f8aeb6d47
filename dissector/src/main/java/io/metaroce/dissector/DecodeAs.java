package io.metaroce.dissector;

import io.metaroce.protocol.Spec;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * tshark's {@code -d udp.port==N,roce}, the same in every command and in the GUI: the port is decoded as RoCE in
 * addition to 4791. {@code infiniband} (tshark's name for the transport) and {@code rroce} are accepted too, and a
 * bare port number as a shorthand (it also adds to 4791). Here, below the command line and the GUI, so that both
 * read the option with one parser and say its mistakes in the same words.
 */
public final class DecodeAs {
    public static final String LABEL = "udp.port==N,roce";
    public static final String HELP = "Also decode UDP destination port N as RoCE (like tshark -d; 'infiniband' accepted; "
            + "a bare N is short for udp.port==N,roce). Repeatable; 4791 is always decoded.";
    private static final Pattern SPEC = Pattern.compile(
            "udp\\.(?:dst)?port\\s*==\\s*(\\d+)\\s*,\\s*(roce|rocev2|rroce|infiniband|bth|metaroce)");

    private DecodeAs() {}

    /** 4791 plus every port the specs name. */
    public static Set<Integer> ports(List<String> specs) {
        Set<Integer> ports = new LinkedHashSet<>();
        ports.add(Spec.ROCE_UDP_PORT);
        if (specs == null) return ports;
        for (String d : specs) ports.add(port(d));
        return ports;
    }

    /** The port one spec names; throws with the line to print after the command's name. */
    public static int port(String d) {
        String t = d.trim().toLowerCase(Locale.ROOT);
        Matcher m = SPEC.matcher(t);
        String digits = m.matches() ? m.group(1) : t.matches("\\d+") ? t : null;
        if (digits == null) throw new IllegalArgumentException("-d expects udp.port==N,roce (or infiniband), not '" + d + "'");
        int p = digits.length() > 5 ? -1 : Integer.parseInt(digits);
        if (p < 1 || p > 65535) throw new IllegalArgumentException("-d: '" + digits + "' is not a UDP port (1..65535)");
        return p;
    }
}

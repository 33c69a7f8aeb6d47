package io.metaroce.capture.live;

import java.util.List;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.Pcaps;
import org.pcap4j.packet.namednumber.DataLinkType;

/**
 * The checks of a capture's ring buffer, stop conditions and capture filter, shared by {@code metaroce capture}
 * (and {@code analyze -i}, {@code dissect -i}) and the GUI's Capture Options, so that both accept and refuse the same
 * values with the same words (dumpcap's {@code -b}, {@code -a} and {@code -c} vocabulary: the GUI's fields are
 * turned into those specs).
 */
public final class CaptureLimits {
    private CaptureLimits() { }

    /**
     * The stop conditions ({@code -a}); 0 means none.
     *
     * @param durationNanos stop after this long
     * @param fileKB        stop when the file reaches this many kB (1000 bytes)
     * @param files         stop after this many ring files
     */
    public record Autostop(long durationNanos, long fileKB, int files) {
        public static final Autostop NONE = new Autostop(0, 0, 0);
    }

    /** Parses {@code -a duration:S|filesize:KB|files:N} specs; throws IllegalArgumentException with the user's message. */
    public static Autostop autostop(List<String> specs) {
        long d = 0, kb = 0;
        int files = 0;
        for (String spec : specs) {
            String[] kv = spec.split(":", 2);
            if (kv.length != 2) throw new IllegalArgumentException("-a expects duration:S, filesize:KB or files:N, not '" + spec + "'");
            double value;
            try {
                value = Double.parseDouble(kv[1]);
                switch (kv[0]) {
                    case "duration" -> d = Math.max(1, (long) (value * 1e9));
                    case "filesize" -> kb = Long.parseLong(kv[1]);
                    case "files" -> files = Integer.parseInt(kv[1]);
                    case "packets" -> throw new IllegalArgumentException("use -c N to stop after N packets");
                    default -> throw new IllegalArgumentException("-a expects duration:S, filesize:KB or files:N, not '" + spec + "'");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-a " + spec + ": not a number");
            }
            if (value < 0) throw new IllegalArgumentException("-a " + spec + ": must not be negative");
            // 0 is "no limit" inside (the value of a key not given): given, it was a capture without that stop,
            // silently. dumpcap refuses a zero autostop too.
            if (!(value > 0)) throw new IllegalArgumentException("-a " + spec + ": must be above 0");
        }
        return new Autostop(d, kb, files);
    }

    /** Parses {@code -b filesize:KB|duration:S|files:N} specs; throws IllegalArgumentException with the user's message. */
    public static LiveFileWriter.Ring ring(List<String> specs) {
        long bytes = 0, nanos = 0;
        int files = 0;
        for (String spec : specs) {
            String[] kv = spec.split(":", 2);
            double value;
            try {
                switch (kv.length == 2 ? kv[0] : "") {
                    case "filesize" -> bytes = Long.parseLong(kv[1]) * 1000;
                    case "duration" -> nanos = Math.max(1, (long) (Double.parseDouble(kv[1]) * 1e9));
                    case "files" -> files = Integer.parseInt(kv[1]);
                    default -> throw new IllegalArgumentException("-b expects filesize:KB, duration:S or files:N, not '" + spec + "'");
                }
                value = Double.parseDouble(kv[1]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-b " + spec + ": not a number");
            }
            if (value < 0) throw new IllegalArgumentException("-b " + spec + ": must not be negative");
            // 0 is "not rotating" / "keep every file" inside: given, -b filesize:0 wrote one file without a ring,
            // silently. dumpcap refuses a zero ring value too.
            if (!(value > 0)) throw new IllegalArgumentException("-b " + spec + ": must be above 0");
        }
        if (files > 0 && bytes == 0 && nanos == 0) throw new IllegalArgumentException("-b files:N needs -b filesize:KB or -b duration:S");
        return new LiveFileWriter.Ring(bytes, nanos, files);
    }

    /** Why a packet count ({@code -c}) cannot be used, or null. dumpcap refuses 0, which is "no limit" inside. */
    public static String countProblem(long count) {
        return count < 1 ? "-c must be at least 1, not " + count : null;
    }

    /** Why a ring and stop conditions cannot go together with that output (null: a file, or "-" for stdout), or null. */
    public static String outputProblem(LiveFileWriter.Ring ring, Autostop stop, String output) {
        boolean toStdout = "-".equals(output);
        if (toStdout && (ring.rotates() || stop.files() > 0)) return "a ring buffer (-b) needs a file, not -w -";
        if (stop.files() > 0 && !ring.rotates()) return "-a files:N needs a ring buffer (-b filesize or -b duration)";
        return null;
    }

    /**
     * The link type (LINKTYPE_*) libpcap will most likely report for an interface, without opening it (that needs
     * root): from the kernel's ARPHRD type in /sys/class/net; Ethernet when unknown (the RoCE case). {@code any} is
     * Linux cooked capture.
     */
    public static int linkType(String iface) {
        if ("any".equals(iface)) return 113;            // LINKTYPE_LINUX_SLL
        if (iface == null || iface.isBlank() || iface.contains("/") || iface.startsWith(".")) return 1;
        try {
            String t = java.nio.file.Files.readString(java.nio.file.Path.of("/sys/class/net", iface, "type")).strip();
            return switch (t) {
                case "65534", "778" -> 101;            // ARPHRD_NONE (tun), ARPHRD_IPGRE: raw IP
                default -> 1;                           // ARPHRD_ETHER, ARPHRD_LOOPBACK (libpcap gives Ethernet)
            };
        } catch (java.io.IOException | RuntimeException e) {
            return 1;
        }
    }

    /**
     * Why libpcap does not compile filter for frames of that link type (LINKTYPE_*), as the capture would say it
     * ({@code bad capture filter '...': syntax error}), or null when it compiles. Needs no interface and no
     * privilege: the filter is compiled on a dead handle ({@code pcap_open_dead}).
     */
    public static String filterProblem(String filter, int linkType) {
        if (filter == null || filter.isBlank()) return null;
        PcapHandle h = null;
        try {
            h = Pcaps.openDead(DataLinkType.getInstance(linkType), LiveSettings.DEFAULT_SNAPLEN);
            // PCAP_NETMASK_UNKNOWN, as the capture's setFilter passes (only "ip broadcast" needs a real netmask).
            BpfProgram p = h.compileFilter(filter, BpfProgram.BpfCompileMode.OPTIMIZE,
                    (java.net.Inet4Address) java.net.InetAddress.getByAddress(new byte[] {-1, -1, -1, -1}));
            p.free();
            return null;
        } catch (PcapNativeException | NotOpenException e) {
            return "bad capture filter '" + filter + "': " + InterfaceCapture.libpcapMessage(e.getMessage());
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);     // four bytes are always an address
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            return "cannot check the capture filter: libpcap is not installed (" + e.getMessage() + ")";
        } catch (RuntimeException e) {
            return "cannot check the capture filter: " + e;
        } finally {
            if (h != null) h.close();
        }
    }
}

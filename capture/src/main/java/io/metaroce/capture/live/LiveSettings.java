package io.metaroce.capture.live;

import java.util.List;

/**
 * How to open the interfaces of a live capture.
 *
 * @param interfaces   interface names, in the order their pcapng interface ids are given (at least one)
 * @param filter       BPF capture filter (libpcap syntax), or null for every frame
 * @param snapLength   bytes kept of each frame
 * @param bufferMiB    kernel ring size per interface in MiB (the spike measured warm-up drops with 2 MiB)
 * @param promiscuous  put the interfaces in promiscuous mode
 * @param immediate    deliver each frame at once (libpcap immediate mode; costly at large snap lengths)
 * @param queuePackets frames held between the capture threads and the consumer; when it is full further
 *                     frames are dropped and counted as ours
 * @param packetLimit  stop after this many frames in total (across interfaces), or 0 for no limit
 */
public record LiveSettings(List<String> interfaces, String filter, int snapLength, int bufferMiB, boolean promiscuous,
                           boolean immediate, int queuePackets, long packetLimit) {
    /** The RoCEv2 UDP port, the default capture filter's. */
    public static final String DEFAULT_FILTER = "udp port 4791";
    public static final int DEFAULT_SNAPLEN = 262_144;
    public static final int DEFAULT_BUFFER_MIB = 64;
    public static final int DEFAULT_QUEUE = 65_536;

    public LiveSettings {
        interfaces = List.copyOf(interfaces);
        if (interfaces.isEmpty()) throw new IllegalArgumentException("no interface given (-i IFACE)");
        if (snapLength < 1) throw new IllegalArgumentException("snap length must be at least 1, not " + snapLength);
        if (bufferMiB < 1 || bufferMiB > 2047) throw new IllegalArgumentException("buffer size must be 1..2047 MiB, not " + bufferMiB);
        if (queuePackets < 1) throw new IllegalArgumentException("queue must hold at least one packet");
        if (packetLimit < 0) throw new IllegalArgumentException("packet count must not be negative");
    }

    /** Defaults for the given interfaces: RoCEv2 filter, 256 KiB snap length, 64 MiB ring, promiscuous. */
    public static LiveSettings defaults(List<String> interfaces) {
        return new LiveSettings(interfaces, DEFAULT_FILTER, DEFAULT_SNAPLEN, DEFAULT_BUFFER_MIB, true, false, DEFAULT_QUEUE, 0);
    }

    /** The default capture filter extended with more RoCE UDP ports ({@code -d}): {@code udp port 4791 or udp port N}. */
    public static String roceFilter(Iterable<Integer> extraPorts) {
        StringBuilder sb = new StringBuilder(DEFAULT_FILTER);
        for (int p : extraPorts) if (p != 4791) sb.append(" or udp port ").append(p);
        return sb.toString();
    }

    public LiveSettings withFilter(String f) {
        return new LiveSettings(interfaces, f, snapLength, bufferMiB, promiscuous, immediate, queuePackets, packetLimit);
    }

    public LiveSettings withPacketLimit(long n) {
        return new LiveSettings(interfaces, filter, snapLength, bufferMiB, promiscuous, immediate, queuePackets, n);
    }
}

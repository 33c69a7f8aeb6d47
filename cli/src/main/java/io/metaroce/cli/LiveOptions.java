package io.metaroce.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The live-capture options shared by {@code capture}, {@code analyze -i} and {@code dissect -i}, with
 * dumpcap's names. Only parsed here; {@link LiveSession} turns them into a running capture, so that the
 * Pcap4J classes load only when {@code -i} is given.
 */
final class LiveOptions {
    @Option(names = {"-i", "--interface"}, paramLabel = "IFACE",
            description = "Capture live on this interface (repeatable: several interfaces into one capture; list them with 'metaroce capture -D').")
    List<String> interfaces = new ArrayList<>();

    @Option(names = {"-f"}, paramLabel = "BPF",
            description = "Capture filter, libpcap syntax (default: udp port 4791, plus every -d port).")
    String captureFilter;

    @Option(names = {"-s", "--snapshot-length"}, paramLabel = "SNAPLEN", description = "Bytes kept of each frame (default 262144).")
    int snapLength = io.metaroce.capture.live.LiveSettings.DEFAULT_SNAPLEN;

    @Option(names = {"-B", "--buffer-size"}, paramLabel = "MiB",
            description = "Kernel capture buffer per interface in MiB (default 64; small buffers drop while the JVM warms up).")
    int bufferMiB = io.metaroce.capture.live.LiveSettings.DEFAULT_BUFFER_MIB;

    @Option(names = {"-p", "--no-promiscuous-mode"}, description = "Do not put the interfaces in promiscuous mode.")
    boolean noPromiscuous;

    @Option(names = "--immediate", description = "libpcap immediate mode: each frame at once instead of in 50 ms blocks "
            + "(drops early at large snap lengths: use with a small -s).")
    boolean immediate;

    @Option(names = "--queue", paramLabel = "FRAMES",
            description = "Frames held between capture and processing (default 65536); when full, frames are dropped and counted as ours.")
    int queue = io.metaroce.capture.live.LiveSettings.DEFAULT_QUEUE;

    @Option(names = {"-a", "--autostop"}, paramLabel = "duration:S|filesize:KB|files:N",
            description = "Stop after S seconds, or (capture -w) when the file reaches KB kB (1000 bytes), or after N ring files (repeatable).")
    List<String> autostop = new ArrayList<>();

    boolean live() {
        return !interfaces.isEmpty();
    }

    /**
     * Why the options cannot go with a capture file, or null: a capture filter or a stop condition without -i was
     * ignored without a word. tshark refuses both with -r ("Only read filters, not capture filters, can be specified
     * when reading a capture file"; "A maximum capture time was specified, but a capture isn't being done"); like
     * tshark, -s, -B, -p, --immediate and --queue are ignored with a file.
     */
    String fileConflict() {
        if (live()) return null;
        if (captureFilter != null) return "-f is a capture filter: it applies to a live capture (-i IFACE), not to a capture file";
        if (!autostop.isEmpty()) return "-a " + autostop.get(0) + " stops a live capture (-i IFACE); a capture file is read whole";
        return null;
    }
}

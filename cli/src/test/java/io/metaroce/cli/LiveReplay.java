package io.metaroce.cli;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.pcap4j.core.PcapHandle;

/**
 * Test and benchmark sender: replays the frames of a capture file raw on an interface with Pcap4J's
 * {@code sendPacket} (libpcap pcap_inject, an AF_PACKET socket), optionally paced and repeated. Run it in
 * the sending network namespace: {@code ip netns exec A java -cp ... io.metaroce.cli.LiveReplay IFACE FILE [PPS] [LOOPS]}.
 * Prints the number of frames sent.
 */
public final class LiveReplay {
    private LiveReplay() {}

    public static void main(String[] args) throws Exception {
        String iface = args[0];
        Path file = Path.of(args[1]);
        long pps = args.length > 2 ? Long.parseLong(args[2]) : 0;
        long loops = args.length > 3 ? Long.parseLong(args[3]) : 1;
        List<byte[]> frames = new ArrayList<>();
        try (PacketSource src = CaptureFiles.open(file)) {
            while (src.next()) frames.add(src.data().toArray(ValueLayout.JAVA_BYTE));
        }
        long sent = 0;
        try (PcapHandle h = new PcapHandle.Builder(iface).snaplen(65535).timeoutMillis(10).build()) {
            long start = System.nanoTime();
            for (long l = 0; l < loops; l++) {
                for (byte[] f : frames) {
                    h.sendPacket(f);
                    sent++;
                    // Catch-up pacing: sleep only when ahead by at least 1 ms, never spin.
                    if (pps > 0 && (sent & 63) == 0) {
                        long due = start + sent * 1_000_000_000L / pps, ahead = due - System.nanoTime();
                        if (ahead > 1_000_000) Thread.sleep(ahead / 1_000_000, (int) (ahead % 1_000_000));
                    }
                }
            }
            double secs = (System.nanoTime() - start) / 1e9;
            System.out.println(sent);
            System.err.printf("sent %d frames in %.2f s (%.0f/s)%n", sent, secs, sent / secs);
        }
    }
}

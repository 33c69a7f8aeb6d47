package io.metaroce.gui;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import org.pcap4j.core.PcapHandle;

/**
 * Test sender for {@link CaptureToolbarTest}: sends the frames of a capture file raw on an interface (Pcap4J
 * {@code sendPacket}, libpcap's pcap_inject), in order, 1 ms apart. Run it in the sending network namespace:
 * {@code ip netns exec NS java -cp ... io.metaroce.gui.LiveSender IFACE FILE [FROM TO]} (only frames FROM..TO,
 * numbered from 1). Prints the number of frames sent.
 */
public final class LiveSender {
    private LiveSender() {}

    public static void main(String[] args) throws Exception {
        long sent = 0, n = 0;
        long from = args.length > 3 ? Long.parseLong(args[2]) : 1, to = args.length > 3 ? Long.parseLong(args[3]) : Long.MAX_VALUE;
        try (PcapHandle h = new PcapHandle.Builder(args[0]).snaplen(65535).timeoutMillis(10).build();
             PacketSource src = CaptureFiles.open(Path.of(args[1]))) {
            while (src.next() && ++n <= to) {
                if (n < from) continue;
                h.sendPacket(src.data().toArray(ValueLayout.JAVA_BYTE));
                sent++;
                Thread.sleep(1);
            }
        }
        System.out.println(sent);
    }
}

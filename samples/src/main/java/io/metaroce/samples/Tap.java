package io.metaroce.samples;

import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.LinkTypes;
import io.metaroce.capture.PcapWriter;
import io.metaroce.capture.PcapngWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.SplittableRandom;

/**
 * The capture point and its impairments. A host tap shows what its host sends (stage S, before the network)
 * and receives (stage R); a mirror shows what crosses the spine (stage M) on the mirrored paths. Before a
 * packet is written it may be sampled out (1 in N kept), missed (capture drop: it crossed the tap but the
 * capture lost it) or cut to the snap length. Capture drops are reported in a pcapng Interface Statistics
 * Block (ifdrop); sampling is not a drop and is only stated in the truth file.
 */
final class Tap {
    /**
     * PORT: a mirror of one host's switch port. It shows what a host tap there shows (the same instants: the port is
     * one cable away) and, unlike it, the host's PFC frames: the NIC's MAC makes and consumes those, so a capture
     * on the host never has them.
     */
    enum Kind { HOST, MIRROR, PORT }

    final Kind kind;
    final Host host;
    private final boolean[] mirrored;
    private final Sim sim;
    private final SplittableRandom rng;
    private final double dropProbability;
    private final int dropBurst;
    private final int sample;
    final int snapLength;
    private final FrameBuilder builder = new FrameBuilder();
    private final PcapWriter pcap;
    private final PcapngWriter pcapng;
    private final OutputStream pcapStream;
    private long frames, seen, dropped, sampledOut, truncated, sampleCounter;
    private int burstLeft, pendingDrops;
    private long lastTimestamp;

    Tap(Sim sim, Kind kind, Host host, boolean[] mirrored, OutputStream out, boolean pcapngFormat) throws IOException {
        this.sim = sim;
        this.kind = kind;
        this.host = host;
        this.mirrored = mirrored;
        Params p = sim.params;
        this.rng = new SplittableRandom(sim.seed * 0x2545F4914F6CDD1DL + 0x7A9);
        this.dropProbability = p.d("capture-drop");
        this.dropBurst = Math.max(1, p.i("capture-drop-burst"));
        this.sample = Math.max(1, p.i("sample"));
        this.snapLength = p.i("snaplen");
        this.pcapStream = out;
        if (out == null) {
            pcap = null;
            pcapng = null;
        } else if (pcapngFormat) {
            pcapng = PcapngWriter.create(out);
            pcapng.addInterface(LinkTypes.ETHERNET, snapLength, kind == Kind.HOST ? "host " + host.ip
                    : kind == Kind.PORT ? "switch port of " + host.ip : "switch mirror", -1);
            pcap = null;
        } else {
            pcap = PcapWriter.create(out, CaptureFormat.PCAP_NS, LinkTypes.ETHERNET, snapLength > 0 ? snapLength : 262144);
            pcapng = null;
        }
    }

    long frames() { return frames; }

    long seen() { return seen; }

    long dropped() { return dropped; }

    long sampledOut() { return sampledOut; }

    long truncated() { return truncated; }

    String stageName(int stage) { return stage == 0 ? "S" : stage == 1 ? "M" : "R"; }

    /** A host tap sees the packet leave (stage 0) or arrive at (stage 2) {@code at}. */
    void offer(Pkt p, Host at, int stage) {
        if (kind != Kind.MIRROR && at == host) capture(p, stage);
    }

    /** A PFC frame {@code from} sends to its switch port: only a mirror of that port shows it. */
    void offerPfc(Pkt p, Host from) {
        if (kind == Kind.PORT && from == host) capture(p, 0);
    }

    /** The packet crosses the spine on fabric path {@code path}. */
    void offerMirror(Pkt p, int path) {
        if (kind == Kind.MIRROR && mirrored[path]) capture(p, 1);
    }

    private void capture(Pkt p, int stage) {
        // PFC frames (no flow) are neither sampled nor dropped: the truth's drop list names the flow of each drop.
        if (p.flow == null) {
            seen++;
            record(p, stage);
            return;
        }
        if (sample > 1 && (sampleCounter++ % sample) != 0) {
            sampledOut++;
            return;
        }
        seen++;
        if (burstLeft > 0 || (dropProbability > 0 && rng.nextDouble() < dropProbability)) {
            if (burstLeft == 0) burstLeft = dropBurst;
            burstLeft--;
            dropped++;
            pendingDrops++;
            sim.truth.captureDropped(frames, sim.now, p);
            return;
        }
        record(p, stage);
    }

    private void record(Pkt p, int stage) {
        int len = builder.build(p, stage);
        int capLen = snapLength > 0 ? Math.min(len, snapLength) : len;
        if (capLen < len) truncated++;
        long ts = Sim.EPOCH_NS + sim.now;
        lastTimestamp = ts;
        try {
            if (pcapng != null) pcapng.write(0, ts, builder.buffer(), 0, len, len, null);
            else if (pcap != null) pcap.write(ts, builder.buffer(), 0, len, len);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        frames++;
        p.frameNo = frames;
        sim.truth.frame(frames, sim.now, p, stageName(stage), capLen < len, pendingDrops);
        pendingDrops = 0;
    }

    /** Writes the capture statistics (pcapng) and closes the file. */
    void close() throws IOException {
        if (pcapng != null) {
            pcapng.writeStatistics(0, lastTimestamp, seen, dropped, -1);
            pcapng.close();
        } else if (pcap != null) {
            pcap.close();
        } else if (pcapStream != null) {
            pcapStream.close();
        }
    }
}

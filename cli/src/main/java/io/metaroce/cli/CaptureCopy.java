package io.metaroce.cli;

import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.CaptureInterface;
import io.metaroce.capture.LinkTypes;
import io.metaroce.capture.PacketSource;
import io.metaroce.capture.PcapWriter;
import io.metaroce.capture.PcapngWriter;
import io.metaroce.dissector.Dissection;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * dissect -w: the frames that pass -Y (and -c) written to a capture file as they were read: the captured bytes,
 * the original length, the time and, in pcapng, the interface (its link type, name, description, snap length and
 * FCS length) and the packet comment. pcapng by default, classic pcap with -F pcap (nanosecond resolution, so that
 * no time is rounded), as tshark -w does.
 */
final class CaptureCopy implements AutoCloseable {
    /** One frame to write, copied out of its batch (which the reader reuses). */
    record Frame(int interfaceId, int linkType, long timeNanos, long originalLength, byte[] bytes, String comment) {
        static Frame of(Dissection d) {
            return new Frame(d.interfaceId(), d.linkType(), d.timeNanos(), d.originalLength(),
                    d.data().asSlice(0, d.capturedLength()).toArray(ValueLayout.JAVA_BYTE), d.comment());
        }
    }

    /** tshark's wiretap maximum for a snap length of "no limit" in a pcap header (pcapng says 0). */
    private static final int PCAP_NO_LIMIT = 262144;

    private final OutputStream target;
    private final boolean pcap;
    private final PacketSource src;
    private PcapngWriter ng;
    private PcapWriter classic;
    private int classicLinkType = -1;
    // (source interface id << 16 | link type) -> interface id in the output.
    private final Map<Long, Integer> interfaces = new HashMap<>();
    private long written;

    /**
     * @param target where the file goes (a file's stream, or standard output for -w -); closed by {@link #close}
     * @param src    the capture read, for its interfaces
     */
    CaptureCopy(OutputStream target, boolean pcap, PacketSource src) throws IOException {
        this.target = target;
        this.pcap = pcap;
        this.src = src;
        if (!pcap) ng = PcapngWriter.create(target);
    }

    /** Standard output for -w -, which closing the copy must leave open (the run's end checks it). */
    static OutputStream stdout() {
        return new java.io.FilterOutputStream(System.out) {
            @Override
            public void write(byte[] b, int off, int len) { System.out.write(b, off, len); }

            @Override
            public void close() { System.out.flush(); }
        };
    }

    /** Frames written so far. */
    long written() { return written; }

    /**
     * Writes one frame. Throws IllegalStateException when -F pcap meets a second link type (a pcap file has one).
     */
    void write(Frame f) throws IOException {
        if (pcap) {
            if (classic == null) {
                // The source's interface only where the file's header or an interface block is made: stats() copies
                // every interface's description, which is no work to do per frame.
                CaptureInterface ci = sourceInterface(f.interfaceId(), f.linkType());
                int fcs = ci == null ? -1 : ci.fcsLength();
                int snap = ci == null || ci.snapLength() <= 0 || ci.snapLength() > PCAP_NO_LIMIT ? PCAP_NO_LIMIT : (int) ci.snapLength();
                classic = new PcapWriter(java.nio.channels.Channels.newChannel(target), CaptureFormat.PCAP_NS,
                        fcs > 0 ? LinkTypes.pcapLinkTypeWithFcs(f.linkType(), fcs) : f.linkType(), snap, java.nio.ByteOrder.LITTLE_ENDIAN);
                classicLinkType = f.linkType();
            } else if (f.linkType() != classicLinkType) {
                throw new IllegalStateException("a pcap file holds frames of one link type, and frame of link type "
                        + f.linkType() + " follows link type " + classicLinkType + " (use -F pcapng)");
            }
            classic.write(f.timeNanos(), f.bytes(), 0, f.bytes().length, Math.max(f.originalLength(), f.bytes().length));
        } else {
            long key = ((long) f.interfaceId() << 16) | (f.linkType() & 0xFFFF);
            Integer id = interfaces.get(key);
            if (id == null) {
                CaptureInterface ci = sourceInterface(f.interfaceId(), f.linkType());
                int fcs = ci == null ? -1 : ci.fcsLength();
                id = ng.addInterface(f.linkType(), ci == null || ci.snapLength() > Integer.MAX_VALUE ? 0 : (int) ci.snapLength(),
                        ci == null ? null : ci.name(), ci == null ? null : ci.description(), null, fcs);
                interfaces.put(key, id);
            }
            ng.write(id, Math.max(0, f.timeNanos()), f.bytes(), 0, f.bytes().length,
                    Math.max(f.originalLength(), f.bytes().length), f.comment());
        }
        written++;
    }

    /** The source's description of an interface (first section that has it), or null. */
    private CaptureInterface sourceInterface(int id, int linkType) {
        List<CaptureInterface> all = src.stats().interfaces();
        for (CaptureInterface ci : all) if (ci.interfaceId() == id && ci.linkType() == linkType) return ci;
        return null;
    }

    /**
     * Ends the file. With no frame written, it still is a valid capture with the input's link type (pcap) or
     * interfaces (pcapng), as tshark writes it.
     */
    @Override
    public void close() throws IOException {
        if (pcap && classic == null) {
            List<CaptureInterface> all = src.stats().interfaces();
            int link = all.isEmpty() ? LinkTypes.ETHERNET : all.get(0).linkType();
            classic = new PcapWriter(java.nio.channels.Channels.newChannel(target), CaptureFormat.PCAP_NS, link,
                    PCAP_NO_LIMIT, java.nio.ByteOrder.LITTLE_ENDIAN);
        }
        if (!pcap && written == 0) {
            for (CaptureInterface ci : src.stats().interfaces()) {
                ng.addInterface(ci.linkType(), ci.snapLength() > Integer.MAX_VALUE ? 0 : (int) ci.snapLength(), ci.name(),
                        ci.description(), null, ci.fcsLength());
            }
        }
        if (classic != null) classic.close();
        if (ng != null) ng.close();
    }
}

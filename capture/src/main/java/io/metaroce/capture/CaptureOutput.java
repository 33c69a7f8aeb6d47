package io.metaroce.capture;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A capture file written from frames of other captures (merge, edit): pcapng or classic pcap, with the input
 * interfaces mapped onto output interfaces as mergecap does by default ({@code -I all}): input interfaces that are
 * alike (link type, snap length, name, description, FCS length) share one output interface, any other gets its own.
 *
 * <p>pcapng keeps every interface; a classic pcap has one link type, so a second one is refused with {@link
 * MixedLinkTypes} (mergecap: "The capture file being read can't be written as a "pcap" file"). pcapng output writes
 * nanosecond timestamps (if_tsresol 9) whatever the inputs had; pcap output is microsecond or nanosecond pcap
 * (editcap's and mergecap's {@code -F pcap} and {@code -F nsecpcap}). The file is created at the first frame or interface, so that a run refused before
 * leaves nothing behind; {@link #close()} writes a header-only file when no frame came.
 */
public final class CaptureOutput implements AutoCloseable {
    /** A classic pcap output asked to hold a second link type. */
    public static final class MixedLinkTypes extends IOException {
        private static final long serialVersionUID = 1L;

        MixedLinkTypes(String message) {
            super(message);
        }
    }

    /** What makes two interfaces one in the output. */
    private record Key(int linkType, long snapLength, String name, String description, int fcsLength) {
    }

    private final Path file;
    private final boolean pcapng;
    private final CaptureFormat pcapResolution;
    private final String sectionComment;
    private final Map<Key, Integer> interfaces = new HashMap<>();
    private PcapngWriter ng;
    private PcapWriter pcap;
    private int pcapLinkType = -1;
    private long frames;

    /**
     * @param format         {@link CaptureFormat#PCAPNG}, {@link CaptureFormat#PCAP_US} or {@link CaptureFormat#PCAP_NS}
     * @param sectionComment pcapng shb_comment, or null
     */
    public CaptureOutput(Path file, CaptureFormat format, String sectionComment) {
        this.file = Objects.requireNonNull(file, "file");
        if (format == CaptureFormat.LIVE) throw new IllegalArgumentException("not a file format: " + format);
        this.pcapng = format == CaptureFormat.PCAPNG;
        this.pcapResolution = pcapng ? null : format;
        this.sectionComment = sectionComment;
    }

    /**
     * The output interface for an input interface, added at its first use.
     *
     * @throws MixedLinkTypes when the output is pcap and already holds another link type
     */
    public int interfaceFor(CaptureInterface in) throws IOException {
        Key key = new Key(in.linkType(), in.snapLength(), in.name(), in.description(), in.fcsLength());
        Integer known = interfaces.get(key);
        if (known != null) return known;
        int id;
        if (pcapng) {
            if (ng == null) ng = new PcapngWriter(ChannelOutput.channelFor(file), java.nio.ByteOrder.LITTLE_ENDIAN,
                    PcapngWriter.DEFAULT_APPLICATION, sectionComment);
            id = ng.addInterface(in.linkType(), (int) Math.min(in.snapLength(), Integer.MAX_VALUE), in.name(), in.description(),
                    null, in.fcsLength());
        } else {
            if (pcap == null) {
                pcapLinkType = in.linkType();
                long snap = in.snapLength() > 0 ? in.snapLength() : 262_144;   // libpcap's default: 0 means none in pcapng only
                int field = in.fcsLength() >= 0 && in.fcsLength() <= 30 && (in.fcsLength() & 1) == 0
                        ? LinkTypes.pcapLinkTypeWithFcs(in.linkType(), in.fcsLength()) : in.linkType();
                pcap = PcapWriter.create(file, pcapResolution, field, (int) Math.min(snap, Integer.MAX_VALUE));
            } else if (in.linkType() != pcapLinkType) {
                throw new MixedLinkTypes("a pcap file holds one link type, and the input has " + pcapLinkType + " and "
                        + in.linkType() + " (LINKTYPE_*): write pcapng (-F pcapng), which keeps one interface for each");
            }
            id = 0;
        }
        interfaces.put(key, id);
        return id;
    }

    /**
     * Writes one frame, cut by the caller already (snap length, chop); the writers cut a frame longer than its
     * interface's snap length (a damaged input's) to it.
     *
     * @param comments the packet's comments (pcapng only; empty for none)
     */
    public void write(int interfaceId, long timestampNanos, MemorySegment data, long offset, int capturedLength,
                      long originalLength, List<String> comments) throws IOException {
        if (pcapng) {
            if (comments.isEmpty()) ng.write(interfaceId, timestampNanos, data, offset, capturedLength, originalLength, null);
            else ng.writeWithComments(interfaceId, timestampNanos, data, offset, capturedLength, originalLength, comments);
        } else {
            pcap.write(timestampNanos, data, offset, capturedLength, originalLength);
        }
        frames++;
    }

    /** As {@link #write(int, long, MemorySegment, long, int, long, List)}, from an array (a frame edited in a copy). */
    public void write(int interfaceId, long timestampNanos, byte[] data, int capturedLength, long originalLength,
                      List<String> comments) throws IOException {
        write(interfaceId, timestampNanos, MemorySegment.ofArray(data), 0, capturedLength, originalLength, comments);
    }

    /** The output interfaces of one input's frames: {@link #outputInterface()} for its current frame. */
    public Input input(PacketSource source) {
        return new Input(source);
    }

    /**
     * One input source's interfaces as this output numbers them. The current frame's (section, interface) is
     * compared with the previous frame's, so a frame of the same interface costs two int compares; a new one is
     * looked up once in the source's interface list.
     */
    public final class Input {
        private final PacketSource source;
        private final Map<Long, Integer> known = new HashMap<>();
        private int lastSection = -1, lastInterface = -1, lastOutput;

        private Input(PacketSource source) {
            this.source = source;
        }

        /** The output interface of the source's current frame (added to the output at its first frame). */
        public int outputInterface() throws IOException {
            int section = source.sectionIndex(), id = source.interfaceId();
            if (section == lastSection && id == lastInterface) return lastOutput;
            long both = ((long) section << 32) | (id & 0xFFFF_FFFFL);
            Integer out = known.get(both);
            if (out == null) {
                out = interfaceFor(describe(section, id));
                known.put(both, out);
            }
            lastSection = section;
            lastInterface = id;
            lastOutput = out;
            return out;
        }

        private CaptureInterface describe(int section, int id) {
            for (CaptureInterface i : source.stats().interfaces()) {
                if (i.section() == section && i.interfaceId() == id) return i;
            }
            // Past the listed interfaces' cap (a hostile file): what the frame itself says.
            return new CaptureInterface(section, id, source.linkType(), 0, source.fcsLength(), 9, 0, null, null, 0, -1, -1, -1);
        }
    }

    /** Frames written so far. */
    public long framesWritten() {
        return frames;
    }

    /** Output interfaces so far (1 for a pcap once its first frame came). */
    public int interfaceCount() {
        return interfaces.size();
    }

    /**
     * Finishes the file. One that received no frame still becomes a capture: a pcapng of its section header alone,
     * or a pcap header of Ethernet (as editcap writes an empty selection).
     */
    @Override
    public void close() throws IOException {
        if (ng == null && pcap == null) {
            if (pcapng) ng = new PcapngWriter(ChannelOutput.channelFor(file), java.nio.ByteOrder.LITTLE_ENDIAN,
                    PcapngWriter.DEFAULT_APPLICATION, sectionComment);
            else pcap = PcapWriter.create(file, pcapResolution, LinkTypes.ETHERNET, 262_144);
        }
        if (ng != null) ng.close();
        if (pcap != null) pcap.close();
    }
}

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

    /**
     * How input interfaces become output interfaces: mergecap's {@code -I}. {@link #ANY}: alike ones (link type, snap
     * length, name, description, FCS length) share one, from any input; {@link #ALL}: the inputs' interfaces are
     * shared one for one when every input has the same list (as the first frames found them), else none is;
     * {@link #NONE}: each input interface its own.
     */
    public enum InterfaceMerge {
        NONE, ALL, ANY
    }

    /**
     * What makes two interfaces one in the output: {@code scope} is the input's number where inputs do not share,
     * and (section, id) take part where alike interfaces of one input stay apart (-1 where they do not).
     */
    private record Key(int scope, int section, int id, int linkType, long snapLength, String name, String description, int fcsLength) {
    }

    private final Path file;
    private final java.io.OutputStream stream;
    private InterfaceMerge merge = InterfaceMerge.ANY;
    private boolean allAlike;
    private int inputs;
    private final boolean pcapng;
    private final CaptureFormat pcapResolution;
    private List<String> sectionComments;
    /** editcap -T: every interface written with this link type (the bytes unchanged); -1: each its own. */
    private int linkTypeOverride = -1;
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
        this(Objects.requireNonNull(file, "file"), null, format, sectionComment);
    }

    /**
     * A capture written to a stream (standard output for {@code -w -}); {@link #close()} closes the stream, so pass
     * one whose close leaves what must stay open.
     */
    public CaptureOutput(java.io.OutputStream stream, CaptureFormat format, String sectionComment) {
        this(null, Objects.requireNonNull(stream, "stream"), format, sectionComment);
    }

    /** A capture file with any number of section comments (pcapng shb_comment options, one each). */
    public CaptureOutput(Path file, CaptureFormat format, List<String> sectionComments) {
        this(Objects.requireNonNull(file, "file"), null, format, (String) null);
        this.sectionComments = List.copyOf(sectionComments);
    }

    private CaptureOutput(Path file, java.io.OutputStream stream, CaptureFormat format, String sectionComment) {
        this.file = file;
        this.stream = stream;
        if (format == CaptureFormat.LIVE) throw new IllegalArgumentException("not a file format: " + format);
        this.pcapng = format == CaptureFormat.PCAPNG;
        this.pcapResolution = pcapng ? null : format;
        this.sectionComments = sectionComment == null ? List.of() : List.of(sectionComment);
    }

    /**
     * The output interface for an input interface, added at its first use.
     *
     * @throws MixedLinkTypes when the output is pcap and already holds another link type
     */
    public int interfaceFor(CaptureInterface in) throws IOException {
        return interfaceFor(in, -1);
    }

    /** Sets how inputs' interfaces are shared (before the first frame); {@link InterfaceMerge#ANY} unless set. */
    public CaptureOutput interfaceMerge(InterfaceMerge mode) {
        this.merge = Objects.requireNonNull(mode, "mode");
        return this;
    }

    /**
     * For {@link InterfaceMerge#ALL}: whether every input's interface list is the same (mergecap then writes the
     * first input's list and maps each input's i-th interface to it); call once the sources have read their first
     * frame (which lists the interfaces before it).
     */
    public void inputsRead(List<PacketSource> sources) {
        List<List<Key>> lists = new java.util.ArrayList<>();
        for (PacketSource s : sources) {
            List<Key> l = new java.util.ArrayList<>();
            for (CaptureInterface i : s.stats().interfaces()) {
                l.add(new Key(-1, i.section(), i.interfaceId(), i.linkType(), i.snapLength(), i.name(), i.description(), i.fcsLength()));
            }
            lists.add(l);
        }
        allAlike = true;
        for (List<Key> l : lists) allAlike &= l.equals(lists.getFirst());
    }

    /** Every interface written with this link type, the frames' bytes unchanged (editcap -T). */
    public CaptureOutput linkType(int linkType) {
        this.linkTypeOverride = linkType;
        return this;
    }

    private int interfaceFor(CaptureInterface in, int input) throws IOException {
        if (linkTypeOverride >= 0 && in.linkType() != linkTypeOverride) {
            in = new CaptureInterface(in.section(), in.interfaceId(), linkTypeOverride, in.snapLength(), in.fcsLength(),
                    in.tsResolution(), in.tsOffsetSeconds(), in.name(), in.description(), in.framesRead(), in.ifReceived(), in.ifDropped(), in.osDropped());
        }
        boolean shared = merge == InterfaceMerge.ANY || merge == InterfaceMerge.ALL && allAlike;
        boolean apart = merge != InterfaceMerge.ANY;
        Key key = new Key(shared ? -1 : input, apart ? in.section() : -1, apart ? in.interfaceId() : -1, in.linkType(),
                in.snapLength(), in.name(), in.description(), in.fcsLength());
        Integer known = interfaces.get(key);
        if (known != null) return known;
        int id;
        if (pcapng) {
            if (ng == null) ng = PcapngWriter.withComments(channel(), java.nio.ByteOrder.LITTLE_ENDIAN,
                    PcapngWriter.DEFAULT_APPLICATION, sectionComments);
            id = ng.addInterface(in.linkType(), (int) Math.min(in.snapLength(), Integer.MAX_VALUE), in.name(), in.description(),
                    null, in.fcsLength());
        } else {
            if (pcap == null) {
                pcapLinkType = in.linkType();
                long snap = in.snapLength() > 0 ? in.snapLength() : 262_144;   // libpcap's default: 0 means none in pcapng only
                int field = in.fcsLength() >= 0 && in.fcsLength() <= 30 && (in.fcsLength() & 1) == 0
                        ? LinkTypes.pcapLinkTypeWithFcs(in.linkType(), in.fcsLength()) : in.linkType();
                pcap = new PcapWriter(channel(), pcapResolution, field, (int) Math.min(snap, Integer.MAX_VALUE), java.nio.ByteOrder.LITTLE_ENDIAN);
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
        return new Input(source, inputs++);
    }

    private java.nio.channels.WritableByteChannel channel() throws IOException {
        return file != null ? ChannelOutput.channelFor(file) : ChannelOutput.channelFor(stream);
    }

    /**
     * Writes the source's current frame as it is, cut to {@code snapLength} (0: not cut), with its packet comments;
     * no copy when the source maps its file.
     */
    public void copy(Input in, long timestampNanos, int snapLength) throws IOException {
        PacketSource s = in.source;
        int length = s.capturedLength();
        if (snapLength > 0 && length > snapLength) length = snapLength;
        MemorySegment data = s.mapping();
        long offset = s.dataOffset();
        if (data == null) {
            data = s.data();
            offset = 0;
        }
        write(in.outputInterface(), timestampNanos, data, offset, length, s.originalLength(),
                s.comment() == null ? List.of() : s.comments());
    }

    /**
     * One input source's interfaces as this output numbers them. The current frame's (section, interface) is
     * compared with the previous frame's, so a frame of the same interface costs two int compares; a new one is
     * looked up once in the source's interface list.
     */
    public final class Input {
        private final PacketSource source;
        private final int index;
        private final Map<Long, Integer> known = new HashMap<>();
        private int lastSection = -1, lastInterface = -1, lastOutput;

        private Input(PacketSource source, int index) {
            this.source = source;
            this.index = index;
        }

        /** The output interface of the source's current frame (added to the output at its first frame). */
        public int outputInterface() throws IOException {
            int section = source.sectionIndex(), id = source.interfaceId();
            if (section == lastSection && id == lastInterface) return lastOutput;
            long both = ((long) section << 32) | (id & 0xFFFF_FFFFL);
            Integer out = known.get(both);
            if (out == null) {
                out = interfaceFor(describe(section, id), index);
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
            if (pcapng) ng = PcapngWriter.withComments(channel(), java.nio.ByteOrder.LITTLE_ENDIAN,
                    PcapngWriter.DEFAULT_APPLICATION, sectionComments);
            else pcap = new PcapWriter(channel(), pcapResolution, LinkTypes.ETHERNET, 262_144, java.nio.ByteOrder.LITTLE_ENDIAN);
        }
        if (ng != null) ng.close();
        if (pcap != null) pcap.close();
    }
}

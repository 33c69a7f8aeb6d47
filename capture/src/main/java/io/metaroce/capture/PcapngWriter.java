package io.metaroce.capture;

import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Writes pcapng: one Section Header Block, Interface Description Blocks with nanosecond timestamps
 * (if_tsresol = 9), Enhanced Packet Blocks with an optional comment, and Interface Statistics Blocks.
 * Output depends only on the arguments (no clock, no host name), so runs are reproducible.
 *
 * <p>Interfaces may be added at any point, before the packets that use them. Not thread-safe. Closing the
 * writer closes the underlying stream or channel.
 */
public final class PcapngWriter implements AutoCloseable, Flushable {
    /** Default shb_userappl. */
    public static final String DEFAULT_APPLICATION = "MetaRoCE Analyzer";

    // Option codes only the writer uses (pcapng draft, sections 4.1, 4.2, 4.6).
    private static final int SHB_OS = 3;
    private static final int IF_FILTER = 11;
    private static final int ISB_STARTTIME = 2, ISB_ENDTIME = 3, ISB_FILTERACCEPT = 6, ISB_USRDELIV = 8;

    private final ChannelOutput out;
    private final List<Integer> snapLengths = new ArrayList<>();
    private long framesWritten;
    // Bytes of the blocks handed to the output so far (a live capture's -a/-b filesize limits read it).
    private long bytesWritten;
    // Carried from packetHeader() to packetTrailer(), which run around the (array or segment) data copy.
    private byte[] pendingComment;
    /** The comments after the first of a packet written with several (the GUI's packet comments), else null. */
    private byte[][] pendingMoreComments;
    private int pendingBlockLength;

    /**
     * Writes the section header.
     *
     * @param channel        destination; closed by {@link #close()}
     * @param order          byte order of the section
     * @param application    shb_userappl, or null to omit
     * @param sectionComment shb_comment, or null to omit
     */
    public PcapngWriter(WritableByteChannel channel, ByteOrder order, String application, String sectionComment)
            throws IOException {
        this(channel, order, application, null, sectionComment);
    }

    /**
     * Writes the section header with shb_os as well (live captures record the host they ran on; files
     * written from other files leave it out so that output stays reproducible).
     *
     * @param os shb_os, or null to omit
     */
    public PcapngWriter(WritableByteChannel channel, ByteOrder order, String application, String os, String sectionComment)
            throws IOException {
        this(channel, order, application, os, sectionComment == null ? List.of() : List.of(sectionComment), true);
    }

    /** A section header with any number of shb_comment options (editcap --capture-comment adds one each time). */
    public static PcapngWriter withComments(WritableByteChannel channel, ByteOrder order, String application,
                                            List<String> sectionComments) throws IOException {
        return new PcapngWriter(channel, order, application, null, sectionComments, true);
    }

    private PcapngWriter(WritableByteChannel channel, ByteOrder order, String application, String os, List<String> sectionComments,
                         boolean header) throws IOException {
        Objects.requireNonNull(channel, "channel");
        this.out = new ChannelOutput(channel, order);
        byte[] app = ChannelOutput.utf8Option(application);
        byte[] osBytes = ChannelOutput.utf8Option(os);
        List<byte[]> comments = new java.util.ArrayList<>();
        for (String c : sectionComments) comments.add(ChannelOutput.utf8Option(c));
        int options = ChannelOutput.optionSize(osBytes) + ChannelOutput.optionSize(app);
        for (byte[] c : comments) options += ChannelOutput.optionSize(c);
        int length = 28 + (options > 0 ? options + 4 : 0);
        out.u32(PcapngReader.SHB).u32(length).u32(PcapngReader.BYTE_ORDER_MAGIC).u16(1).u16(0).u64(-1);
        for (byte[] comment : comments) {
            out.stringOption(PcapngReader.OPT_COMMENT, comment);
        }
        if (osBytes != null) {
            out.stringOption(SHB_OS, osBytes);
        }
        if (app != null) {
            out.stringOption(PcapngReader.SHB_USERAPPL, app);
        }
        if (options > 0) {
            out.u32(0); // opt_endofopt
        }
        out.u32(length);
        bytesWritten += length;
    }

    private PcapngWriter(WritableByteChannel channel, ByteOrder order, List<Integer> snapLengths) {
        this.out = new ChannelOutput(channel, order);
        this.snapLengths.addAll(snapLengths);
    }

    /**
     * Continues a section already on {@code channel} (positioned after its last complete block) whose interfaces
     * had these snap lengths, writing no header: how a live capture adds its statistics blocks after a failed
     * write was cut back to the last complete block.
     */
    public static PcapngWriter continueSection(WritableByteChannel channel, ByteOrder order, List<Integer> snapLengths) {
        return new PcapngWriter(Objects.requireNonNull(channel, "channel"), order, snapLengths);
    }

    /** Snap lengths of the interfaces added so far, in interface id order. */
    public List<Integer> snapLengths() {
        return List.copyOf(snapLengths);
    }

    /**
     * Length of the longest prefix of a pcapng file (of the given byte order) made of complete blocks: where a
     * file whose last write failed half-way must be cut to stay readable.
     */
    public static long completeBlocksLength(java.nio.channels.FileChannel file, ByteOrder order) throws IOException {
        long size = file.size(), at = 0;
        java.nio.ByteBuffer head = java.nio.ByteBuffer.allocate(8).order(order), tail = java.nio.ByteBuffer.allocate(4).order(order);
        while (size - at >= 12) {
            head.clear();
            if (file.read(head, at) < 8) break;
            long len = head.getInt(4) & 0xFFFF_FFFFL;
            if (len < 12 || (len & 3) != 0 || at + len > size) break;
            tail.clear();
            if (file.read(tail, at + len - 4) < 4 || (tail.getInt(0) & 0xFFFF_FFFFL) != len) break;
            at += len;
        }
        return at;
    }

    /** Creates (or truncates) {@code file}: little-endian, shb_userappl {@value #DEFAULT_APPLICATION}. */
    public static PcapngWriter create(Path file) throws IOException {
        return new PcapngWriter(ChannelOutput.channelFor(file), ByteOrder.LITTLE_ENDIAN, DEFAULT_APPLICATION, null);
    }

    /** Writes to {@code out}, which {@link #close()} closes: little-endian, default application name. */
    public static PcapngWriter create(OutputStream out) throws IOException {
        return new PcapngWriter(ChannelOutput.channelFor(out), ByteOrder.LITTLE_ENDIAN, DEFAULT_APPLICATION, null);
    }

    /** Adds an interface with no name and unknown FCS; returns its interface id (0, 1, ...). */
    public int addInterface(int linkType, int snapLength) throws IOException {
        return addInterface(linkType, snapLength, null, -1);
    }

    /**
     * Writes an Interface Description Block with if_tsresol = 9 (nanoseconds).
     *
     * @param linkType   LINKTYPE_* value (16 bits)
     * @param snapLength snapshot length, 0 = no limit; longer frames are cut to it
     * @param name       if_name, or null
     * @param fcsLength  if_fcslen in bytes (e.g. 4 when frames end with an Ethernet FCS), or -1 to omit
     * @return the interface id to pass to {@code write}
     */
    public int addInterface(int linkType, int snapLength, String name, int fcsLength) throws IOException {
        return addInterface(linkType, snapLength, name, null, null, fcsLength);
    }

    /**
     * As {@link #addInterface(int, int, String, int)}, with if_description and if_filter (a libpcap filter
     * string, code 0) when not null.
     */
    public int addInterface(int linkType, int snapLength, String name, String description, String filter, int fcsLength)
            throws IOException {
        if (linkType < 0 || linkType > 0xFFFF) {
            throw new IllegalArgumentException("pcapng link type must fit 16 bits: " + linkType);
        }
        if (snapLength < 0) {
            throw new IllegalArgumentException("negative snap length " + snapLength);
        }
        if (fcsLength > 0xFF) {
            throw new IllegalArgumentException("FCS length too large: " + fcsLength);
        }
        byte[] nameBytes = ChannelOutput.utf8Option(name);
        byte[] descBytes = ChannelOutput.utf8Option(description);
        // if_filter: one byte saying the kind (0 = libpcap filter string), then the string.
        byte[] filterBytes = filter == null ? null : ("\0" + filter).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int options = ChannelOutput.optionSize(nameBytes) + ChannelOutput.optionSize(descBytes)
                + ChannelOutput.optionSize(filterBytes) + 8 /* if_tsresol */ + (fcsLength >= 0 ? 8 : 0) + 4;
        int length = 20 + options;
        out.u32(PcapngReader.IDB).u32(length).u16(linkType).u16(0).u32(snapLength);
        if (nameBytes != null) {
            out.stringOption(PcapngReader.IF_NAME, nameBytes);
        }
        if (descBytes != null) {
            out.stringOption(PcapngReader.IF_DESCRIPTION, descBytes);
        }
        if (filterBytes != null) {
            out.stringOption(IF_FILTER, filterBytes);
        }
        out.u16(PcapngReader.IF_TSRESOL).u16(1).u8(9).pad(1);
        if (fcsLength >= 0) {
            out.u16(PcapngReader.IF_FCSLEN).u16(1).u8(fcsLength).pad(1);
        }
        out.u32(0).u32(length);
        bytesWritten += length;
        snapLengths.add(snapLength);
        return snapLengths.size() - 1;
    }

    /** Writes a whole frame, captured in full, without comment. */
    public void write(int interfaceId, long timestampNanos, byte[] frame) throws IOException {
        write(interfaceId, timestampNanos, frame, 0, frame.length, frame.length, null);
    }

    /**
     * Writes one Enhanced Packet Block.
     *
     * @param timestampNanos epoch nanoseconds, not negative
     * @param capturedLength bytes taken from {@code data} at {@code offset}; cut to the interface's snap length
     * @param originalLength length on the wire, at least {@code capturedLength}
     * @param comment        opt_comment, or null
     */
    public void write(int interfaceId, long timestampNanos, byte[] data, int offset, int capturedLength,
                      long originalLength, String comment) throws IOException {
        Objects.checkFromIndexSize(offset, capturedLength, data.length);
        int length = packetHeader(interfaceId, timestampNanos, capturedLength, originalLength, comment);
        out.bytes(data, offset, length);
        packetTrailer(length);
    }

    /** As {@link #write(int, long, byte[], int, int, long, String)}, from a memory segment. */
    public void write(int interfaceId, long timestampNanos, MemorySegment data, long offset, int capturedLength,
                      long originalLength, String comment) throws IOException {
        Objects.checkFromIndexSize(offset, capturedLength, data.byteSize());
        int length = packetHeader(interfaceId, timestampNanos, capturedLength, originalLength, comment);
        out.bytes(data, offset, length);
        packetTrailer(length);
    }

    /**
     * As {@link #write(int, long, MemorySegment, long, int, long, String)} with any number of comments, an opt_comment
     * each in their order (pcapng allows several per packet; Wireshark writes a packet's comments so).
     */
    public void writeWithComments(int interfaceId, long timestampNanos, MemorySegment data, long offset, int capturedLength,
                                  long originalLength, List<String> comments) throws IOException {
        if (comments.size() > 1) {
            byte[][] more = new byte[comments.size() - 1][];
            for (int i = 0; i < more.length; i++) {
                more[i] = ChannelOutput.utf8Option(Objects.requireNonNull(comments.get(i + 1), "comment"));
            }
            pendingMoreComments = more;
        }
        try {
            write(interfaceId, timestampNanos, data, offset, capturedLength, originalLength,
                    comments.isEmpty() ? null : comments.getFirst());
        } finally {
            pendingMoreComments = null;     // also when the arguments were refused: not the next packet's
        }
    }

    private int packetHeader(int interfaceId, long timestampNanos, int capturedLength, long originalLength,
                             String comment) throws IOException {
        Objects.checkIndex(interfaceId, snapLengths.size());
        if (timestampNanos < 0) {
            throw new IllegalArgumentException("negative timestamp " + timestampNanos);
        }
        if (originalLength < capturedLength || originalLength > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("original length " + originalLength
                    + " must be >= captured length " + capturedLength + " and fit 32 bits");
        }
        int snap = snapLengths.get(interfaceId);
        int length = snap > 0 ? Math.min(capturedLength, snap) : capturedLength;
        pendingComment = ChannelOutput.utf8Option(comment);
        int options = pendingComment == null ? 0 : ChannelOutput.optionSize(pendingComment) + 4;
        if (pendingMoreComments != null) {
            for (byte[] c : pendingMoreComments) {
                options += ChannelOutput.optionSize(c);
            }
        }
        pendingBlockLength = 32 + ((length + 3) & ~3) + options;
        out.u32(PcapngReader.EPB).u32(pendingBlockLength).u32(interfaceId)
                .u32(timestampNanos >>> 32).u32(timestampNanos).u32(length).u32(originalLength);
        return length;
    }

    private void packetTrailer(int capturedLength) throws IOException {
        out.pad(capturedLength);
        if (pendingComment != null) {
            out.stringOption(PcapngReader.OPT_COMMENT, pendingComment);
            if (pendingMoreComments != null) {
                for (byte[] c : pendingMoreComments) {
                    out.stringOption(PcapngReader.OPT_COMMENT, c);
                }
            }
            out.u32(0);
        }
        out.u32(pendingBlockLength);
        bytesWritten += pendingBlockLength;
        pendingComment = null;
        pendingMoreComments = null;
        framesWritten++;
    }

    /**
     * Writes an Interface Statistics Block for {@code interfaceId}. Counters given as a negative number are
     * omitted (unknown).
     */
    public void writeStatistics(int interfaceId, long timestampNanos, long ifReceived, long ifDropped,
                                long osDropped) throws IOException {
        Objects.checkIndex(interfaceId, snapLengths.size());
        int count = (ifReceived >= 0 ? 1 : 0) + (ifDropped >= 0 ? 1 : 0) + (osDropped >= 0 ? 1 : 0);
        int length = 24 + (count > 0 ? count * 12 + 4 : 0);
        out.u32(PcapngReader.ISB).u32(length).u32(interfaceId).u32(timestampNanos >>> 32).u32(timestampNanos);
        if (ifReceived >= 0) {
            out.u16(PcapngReader.ISB_IFRECV).u16(8).u64(ifReceived);
        }
        if (ifDropped >= 0) {
            out.u16(PcapngReader.ISB_IFDROP).u16(8).u64(ifDropped);
        }
        if (osDropped >= 0) {
            out.u16(PcapngReader.ISB_OSDROP).u16(8).u64(osDropped);
        }
        if (count > 0) {
            out.u32(0);
        }
        out.u32(length);
        bytesWritten += length;
    }

    /**
     * Writes an Interface Statistics Block with every counter a live capture knows (negative values are
     * omitted as unknown) and an optional comment.
     */
    public void writeStatistics(int interfaceId, long timestampNanos, InterfaceStatistics s) throws IOException {
        Objects.checkIndex(interfaceId, snapLengths.size());
        long[] counters = {s.ifReceived(), s.ifDropped(), s.filterAccepted(), s.osDropped(), s.userDelivered()};
        int[] codes = {PcapngReader.ISB_IFRECV, PcapngReader.ISB_IFDROP, ISB_FILTERACCEPT, PcapngReader.ISB_OSDROP, ISB_USRDELIV};
        byte[] comment = ChannelOutput.utf8Option(s.comment());
        int options = (s.startNanos() >= 0 ? 12 : 0) + (s.endNanos() >= 0 ? 12 : 0) + ChannelOutput.optionSize(comment);
        for (long c : counters) options += c >= 0 ? 12 : 0;
        int length = 24 + (options > 0 ? options + 4 : 0);
        out.u32(PcapngReader.ISB).u32(length).u32(interfaceId).u32(timestampNanos >>> 32).u32(timestampNanos);
        if (comment != null) {
            out.stringOption(PcapngReader.OPT_COMMENT, comment);
        }
        if (s.startNanos() >= 0) {
            out.u16(ISB_STARTTIME).u16(8).u32(s.startNanos() >>> 32).u32(s.startNanos());
        }
        if (s.endNanos() >= 0) {
            out.u16(ISB_ENDTIME).u16(8).u32(s.endNanos() >>> 32).u32(s.endNanos());
        }
        for (int i = 0; i < counters.length; i++) {
            if (counters[i] >= 0) {
                out.u16(codes[i]).u16(8).u64(counters[i]);
            }
        }
        if (options > 0) {
            out.u32(0);
        }
        out.u32(length);
        bytesWritten += length;
    }

    /** Bytes of the blocks written so far (buffered or not), from the section header on. */
    public long bytesWritten() {
        return bytesWritten;
    }

    /** Enhanced Packet Blocks written so far. */
    public long framesWritten() {
        return framesWritten;
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}

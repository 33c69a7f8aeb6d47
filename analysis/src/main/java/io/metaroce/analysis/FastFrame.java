package io.metaroce.analysis;

import java.lang.foreign.MemorySegment;

/**
 * Where the headers of a frame {@link FastFacts} accepted lie, as its walk found them, for a consumer of the
 * analysis pass that would otherwise need the frame's full {@link io.metaroce.dissector.Dissection}
 * ({@link AnalysisSession.FrameStages#decodedFast}: validate's frame rules). An accepted frame is Ethernet, up to
 * two VLAN tags between the Ethernet header and {@link #ipOffset}, one IPv4 or IPv6 header, UDP, BTH, the MRTH
 * under tver 1, then the opcode's header chain ({@code OpcodeDef.chain(spray)}) up to {@link #payloadOffset},
 * all of it captured and consistent; the dissector would lay out the same layers at the same offsets and raise
 * no expert item for it. Valid until the next frame.
 */
public interface FastFrame {
    /** The frame's captured bytes. */
    MemorySegment data();

    /**
     * An array that holds the frame's captured bytes from {@link #bufferOffset()} on (the source's read-ahead
     * window, just copied there, so in the CPU's caches), or null when the frame was read from {@link #data()}.
     * Valid until the next frame; never written by the caller. A consumer that reads every byte of the frame on
     * the decoding thread (validate's ICRC) reads them here instead of a slice of the mapping.
     */
    default byte[] buffer() { return null; }

    /** Where the frame starts in {@link #buffer()}; -1 without a buffer. */
    default int bufferOffset() { return -1; }

    /**
     * The file mapping the frame lies in (valid while the capture is open), or null (a source that is not a file,
     * or a frame not read through its source's window): a consumer that keeps where a frame's bytes are keeps
     * this and {@link #mappingOffset()} instead of a {@link #data()} slice, an object per frame.
     */
    default MemorySegment mapping() { return null; }

    /** Where the frame starts in {@link #mapping()}; -1 without one. */
    default long mappingOffset() { return -1; }

    /** A copy of the frame's first bytes, at least up to {@link #payloadOffset} (as {@code Dissection.head()}). */
    byte[] head();

    /** Offset of the IPv4 or IPv6 header. */
    int ipOffset();

    /** True for an IPv6 header (also when its addresses are IPv4-mapped), false for IPv4. */
    boolean ipv6();

    /** Length of the IP header with its options (IPv4), 40 for IPv6 (no extension headers). */
    int ipHeaderLength();

    int udpOffset();

    int bthOffset();

    /** Offset of the MRTH, -1 under tver 0. */
    int mrthOffset();

    /** Where the opcode's header chain ends and the payload starts. */
    int payloadOffset();

    /** Offset of the ICRC, the datagram's last 4 bytes. */
    int icrcOffset();

    /** The ICRC as the frame carries it (unsigned). */
    long icrcValue();
}

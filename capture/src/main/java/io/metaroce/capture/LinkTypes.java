package io.metaroce.capture;

/**
 * The LINKTYPE_* values this project meets most (see tcpdump.org/linktypes.html), plus the encoding of the
 * FCS-length bits that classic pcap keeps in the upper bits of its link-type field. The reader passes any
 * link type through unchanged; these constants exist so callers do not scatter magic numbers.
 */
public final class LinkTypes {
    public static final int NULL = 0;
    public static final int ETHERNET = 1;
    public static final int RAW = 101;
    public static final int LINUX_SLL = 113;
    public static final int USER0 = 147;
    public static final int IPV4 = 228;
    public static final int IPV6 = 229;
    public static final int INFINIBAND = 247;
    public static final int LINUX_SLL2 = 276;

    /** libpcap's "P" bit (LT_FCS_LENGTH_PRESENT): the FCS-length nibble is meaningful. */
    static final int FCS_PRESENT_BIT = 0x0400_0000;
    /** The "f" bit of the first pcap Internet-Draft (draft-gharris-opsawg-pcap-00); read for compatibility. */
    static final int DRAFT_FCS_FLAG_BIT = 0x1000_0000;

    private LinkTypes() {
    }

    /**
     * The classic-pcap link-type field for {@code linkType} with {@code fcsBytes} of FCS at the end of every
     * frame, encoded as libpcap does (LT_FCS_DATALINK_EXT: FCS length in 16-bit units in bits 28..31, plus the
     * P bit). Pass the result to {@link PcapWriter} as its link type.
     *
     * @throws IllegalArgumentException if {@code fcsBytes} is odd, negative or larger than 30
     */
    public static int pcapLinkTypeWithFcs(int linkType, int fcsBytes) {
        if (fcsBytes < 0 || fcsBytes > 30 || (fcsBytes & 1) != 0) {
            throw new IllegalArgumentException("FCS length must be an even number of bytes 0..30, got " + fcsBytes);
        }
        return (linkType & 0xFFFF) | ((fcsBytes / 2) << 28) | FCS_PRESENT_BIT;
    }

    /**
     * FCS length in bytes encoded in a classic-pcap link-type field, or -1 when the file does not say.
     * libpcap's layout (P bit 26 + 4-bit length in 16-bit units) wins; if only the older draft's "f" bit
     * (bit 28) is set, its 3-bit length in bits 29..31 is used, since libpcap would call that field unknown.
     */
    static int pcapFcsLength(int linkTypeField) {
        if ((linkTypeField & FCS_PRESENT_BIT) != 0) {
            return ((linkTypeField >>> 28) & 0xF) * 2;
        }
        if ((linkTypeField & DRAFT_FCS_FLAG_BIT) != 0) {
            return ((linkTypeField >>> 29) & 0x7) * 2;
        }
        return -1;
    }
}

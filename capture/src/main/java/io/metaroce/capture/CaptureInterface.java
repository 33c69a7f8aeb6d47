package io.metaroce.capture;

/**
 * One capture interface as described by the file: the single implicit interface of a classic pcap, or a pcapng
 * Interface Description Block together with the latest Interface Statistics Block seen for it.
 *
 * @param section          0-based pcapng section index (0 for pcap)
 * @param interfaceId      interface index within its section, as packet blocks refer to it
 * @param linkType         LINKTYPE_* value
 * @param snapLength       snapshot length; 0 means "no limit" in pcapng
 * @param fcsLength        FCS bytes at the end of frames, -1 when unknown
 * @param tsResolution     raw if_tsresol byte (high bit set: 2^-n, else 10^-n); 6 for pcap-us, 9 for pcap-ns
 * @param tsOffsetSeconds  if_tsoffset, seconds added to every timestamp
 * @param name             if_name, or null
 * @param description      if_description, or null
 * @param framesRead       frames of this interface returned by {@link PacketSource#next()} so far
 * @param ifReceived       isb_ifrecv, -1 when no statistics block said
 * @param ifDropped        isb_ifdrop (dropped by the interface/NIC), -1 when unknown
 * @param osDropped        isb_osdrop (dropped by the OS/capture library), -1 when unknown
 */
public record CaptureInterface(
        int section,
        int interfaceId,
        int linkType,
        long snapLength,
        int fcsLength,
        int tsResolution,
        long tsOffsetSeconds,
        String name,
        String description,
        long framesRead,
        long ifReceived,
        long ifDropped,
        long osDropped) {

    /** True when the resolution byte means 2^-n seconds rather than 10^-n. */
    public boolean binaryResolution() {
        return (tsResolution & 0x80) != 0;
    }
}

package io.metaroce.capture;

/** The container format of a capture file, as recognised from its magic number. */
public enum CaptureFormat {
    /** Classic libpcap, microsecond timestamps (magic a1b2c3d4). */
    PCAP_US("pcap (microsecond timestamps)"),
    /** Classic libpcap, nanosecond timestamps (magic a1b23c4d). */
    PCAP_NS("pcap (nanosecond timestamps)"),
    /** pcapng: blocks, sections, several interfaces, per-interface timestamp resolution. */
    PCAPNG("pcapng"),
    /** Frames read from network interfaces as they arrive (io.metaroce.capture.live); no file. */
    LIVE("live capture");

    private final String description;

    CaptureFormat(String description) {
        this.description = description;
    }

    /** A short text for users, e.g. {@code "pcap (nanosecond timestamps)"}. */
    public String description() {
        return description;
    }
}

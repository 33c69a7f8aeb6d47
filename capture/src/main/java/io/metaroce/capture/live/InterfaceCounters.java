package io.metaroce.capture.live;

/**
 * Exact counters of one interface of a live capture, since the capture started. On Linux libpcap counts
 * after the BPF filter: {@code received == delivered + osDropped + unread}, where unread are frames still in
 * the kernel ring (none once the capture has stopped and drained it, as long as nothing arrives after that).
 *
 * @param received    libpcap ps_recv: frames the filter accepted
 * @param osDropped   libpcap ps_drop: frames the kernel dropped because the ring was full
 * @param ifDropped   libpcap ps_ifdrop: frames the interface dropped (Linux fills it in promiscuous mode only)
 * @param delivered   frames libpcap delivered to us
 * @param ourDropped  of those, frames we dropped because the consumer fell behind (queue full)
 * @param ifReceived  frames the interface received since the start (sysfs rx_packets), or -1 if unknown
 * @param startNanos  when the capture on this interface started, epoch ns
 * @param takenNanos  when these counters were taken, epoch ns
 */
public record InterfaceCounters(long received, long osDropped, long ifDropped, long delivered, long ourDropped,
                                long ifReceived, long startNanos, long takenNanos) {
    /** Frames passed on to the consumer. */
    public long queued() {
        return delivered - ourDropped;
    }
}

package io.metaroce.capture;

/**
 * The counters of one pcapng Interface Statistics Block (pcapng section 4.6). Times are epoch nanoseconds;
 * any value below zero is unknown and left out of the block.
 *
 * @param startNanos     isb_starttime: when the capture on this interface began
 * @param endNanos       isb_endtime: when these counters were taken
 * @param ifReceived     isb_ifrecv: packets the interface received since the start
 * @param ifDropped      isb_ifdrop: packets the interface dropped (no buffer)
 * @param filterAccepted isb_filteraccept: packets the capture filter accepted
 * @param osDropped      isb_osdrop: packets the operating system dropped (capture buffer full)
 * @param userDelivered  isb_usrdeliv: packets delivered to the capturing program
 * @param comment        opt_comment, or null
 */
public record InterfaceStatistics(long startNanos, long endNanos, long ifReceived, long ifDropped, long filterAccepted,
                                  long osDropped, long userDelivered, String comment) {
}

package io.metaroce.capture.live;

/**
 * One captured frame, as the capture thread hands it over: its own copy of the bytes (Pcap4J copies out of
 * the kernel ring), so it may be read by any thread for as long as it is referenced.
 *
 * @param interfaceIndex index of the interface in {@link LiveSettings#interfaces()}
 * @param timestampNanos capture time, epoch nanoseconds
 * @param originalLength length on the wire
 * @param data           the captured bytes (at most the snap length)
 */
public record LivePacket(int interfaceIndex, long timestampNanos, int originalLength, byte[] data) {
}

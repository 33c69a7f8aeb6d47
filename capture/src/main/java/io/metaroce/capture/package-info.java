/**
 * Reading and writing capture files: classic pcap (micro- and nanosecond, either byte order) and pcapng
 * (multiple sections and interfaces, EPB/SPB/obsolete PB, comments, statistics).
 *
 * <p>Start with {@link io.metaroce.capture.CaptureFiles#open(java.nio.file.Path)}, which memory-maps the file
 * and returns a {@link io.metaroce.capture.PacketSource}: a pull cursor that allocates nothing per frame and
 * hands out frame bytes as slices of the mapping. Damage never throws from the cursor; it ends iteration and is
 * listed in {@link io.metaroce.capture.PacketSource#problems()} with its byte offset.
 * {@link io.metaroce.capture.PcapWriter} and {@link io.metaroce.capture.PcapngWriter} produce deterministic
 * files for simulators and tests. Pure JDK, no native code.
 */
package io.metaroce.capture;

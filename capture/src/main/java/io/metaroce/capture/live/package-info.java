/**
 * Live capture from network interfaces with Pcap4J (JNA over the system libpcap): interface listing, one
 * capture thread per interface that only copies frames into a bounded queue, exact libpcap counters, and a
 * {@link io.metaroce.capture.PacketSource} over the queue so that the dissector and the analysis read live
 * traffic exactly as they read files. Kept in its own package so that reading files never loads Pcap4J or JNA.
 *
 * <p>Design rules from the measured spike (shared/reference/live-capture.md): {@code PcapHandle.loop} with a
 * listener (about 2 us per packet; {@code getNextRawPacket} costs 28 us), a 64 MiB ring by default (a 2 MiB
 * ring drops during JIT warm-up), no immediate mode unless asked (it switches libpcap to TPACKET_V2 with
 * 128 KiB slots at a 64 KiB snap length), and {@code breakLoop} to stop, because on an idle link the read
 * timeout never fires.
 */
package io.metaroce.capture.live;

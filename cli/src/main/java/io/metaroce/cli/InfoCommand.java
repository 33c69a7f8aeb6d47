package io.metaroce.cli;

import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.CaptureInterface;
import io.metaroce.capture.CaptureStats;
import io.metaroce.capture.LinkTypes;
import io.metaroce.capture.PacketSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code metaroce info FILE...}: capinfos. Its long report (the default, every line in capinfos' order and words)
 * or its table ({@code -T}, tab- or comma-separated, with or without a header), human units or exact values
 * ({@code -M}), of the lines the selectors name (none: all). One pass over each file; the hashes (only when asked
 * for) on three threads that read the file beside it (standard input: from the bytes the reader reads anyway,
 * {@link PacketSource#streamContent}): SHA256, RIPEMD160 and SHA1, as capinfos 4.0 prints them (RIPEMD160 by
 * {@link Ripemd160}: the Java runtime has none).
 */
@Command(name = "info", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = "Print what a capture holds: packets, sizes, times, rates, hashes, interfaces (as capinfos).",
        footer = {"", "With no selector every line is printed.", "",
                "Examples:", "  metaroce info host1.pcapng",
                "  metaroce info -T -m -c -u *.pcapng"})
public final class InfoCommand implements Callable<Integer> {
    @Mixin
    StandardOptions standard;

    @Mixin
    StandardOptions.NoVerbose noVerbose;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "the captures to describe")
    List<Path> files;

    @Option(names = "-t", description = "the file type") boolean showType;
    @Option(names = "-E", description = "the encapsulation (link type)") boolean showEncapsulation;
    @Option(names = "-I", description = "the interfaces") boolean showInterfaces;
    @Option(names = "-F", description = "timestamp precision, capture application and comments") boolean showMore;
    @Option(names = "-H", description = "the SHA256, RIPEMD160 and SHA1 hashes of the file") boolean showHashes;
    @Option(names = "-k", description = "the capture comments") boolean showComments;
    @Option(names = "-c", description = "the number of packets") boolean showPackets;
    @Option(names = "-s", description = "the file size in bytes") boolean showFileSize;
    @Option(names = "-d", description = "the total length of the packets on the wire") boolean showDataSize;
    @Option(names = "-l", description = "the packet size limit (snap length)") boolean showSnap;
    @Option(names = "-u", description = "the capture duration") boolean showDuration;
    @Option(names = "-a", description = "the first packet's time") boolean showStart;
    @Option(names = "-e", description = "the last packet's time") boolean showEnd;
    @Option(names = "-o", description = "whether the packets are in time order") boolean showOrder;
    @Option(names = "-S", description = "times as seconds since 1970") boolean epochSeconds;
    @Option(names = "-y", description = "the data rate in bytes/s") boolean showByteRate;
    @Option(names = "-i", description = "the data rate in bits/s") boolean showBitRate;
    @Option(names = "-z", description = "the average packet size") boolean showAverageSize;
    @Option(names = "-x", description = "the average packet rate") boolean showPacketRate;
    @Option(names = "-T", description = "a table: one row per file") boolean table;
    @Option(names = "-M", description = "exact values instead of human units (long report)") boolean machine;
    @Option(names = "-r", description = "table without its header row") boolean noHeader;
    @Option(names = "-m", description = "table columns separated by commas (default: tabs)") boolean commas;

    /** What one pass found. */
    static final class Facts {
        Path file;
        CaptureFormat format;
        long packets, dataSize, fileSize, firstNanos = Long.MAX_VALUE, lastNanos = Long.MIN_VALUE, previous = Long.MIN_VALUE;
        int cutMin = Integer.MAX_VALUE, cutMax = -1;
        /** Section and interface of the first and last packet (by time): their precision, when the file's is per packet. */
        long firstInterface, lastInterface;
        boolean inOrder = true;
        String sha256, ripemd160, sha1;
        CaptureStats stats;
    }

    @Override
    public Integer call() {
        boolean any = showType || showEncapsulation || showInterfaces || showMore || showHashes || showComments || showPackets
                || showFileSize || showDataSize || showSnap || showDuration || showStart || showEnd || showOrder || showByteRate
                || showBitRate || showAverageSize || showPacketRate;
        if (!any) {
            showType = showEncapsulation = showInterfaces = showMore = showHashes = showComments = showPackets = showFileSize
                    = showDataSize = showSnap = showDuration = showStart = showEnd = showOrder = showByteRate = showBitRate
                    = showAverageSize = showPacketRate = true;
        }
        PrintStream out = System.out, err = System.err;
        int exit = 0;
        boolean header = table && !noHeader;
        for (Path f : files) {
            Facts facts;
            PacketSource s;
            try {
                s = CaptureFiles.open(f);
            } catch (CaptureException e) {
                // capinfos goes on with the next file (unless -C); so do we, and the exit says one failed.
                err.println(FrontDoor.printable("metaroce info: " + e.getMessage()));
                exit = 2;
                continue;
            }
            try (s) {
                facts = read(f, s);
            } catch (IOException e) {
                err.println(FrontDoor.printable("metaroce info: " + OutputFiles.failure(e)));
                exit = 2;
                continue;
            }
            if (table) {
                if (header) out.println(String.join(commas ? "," : "\t", columns(facts, true)));
                header = false;
                out.println(String.join(commas ? "," : "\t", columns(facts, false)));
            } else {
                if (f != files.getFirst()) out.println();
                for (String line : longReport(facts)) out.println(FrontDoor.printable(line));
            }
            // capinfos: "An error occurred after reading N packets": what it read is above, the damage here.
            if (CaptureTools.reportProblems(err, "info", f, s)) exit = 2;
        }
        out.flush();
        return exit;
    }

    private Facts read(Path f, PacketSource s) throws IOException {
        Facts x = new Facts();
        x.file = f;
        x.format = s.format();
        // A plain file's hashes on threads of their own, one per hash, each reading the file a second time beside the
        // frames' pass (the page cache serves both): the three hashes cost as much as the slowest one, not their sum, and
        // none of them is on the reading thread. A gzip file is hashed as it is on disk, as capinfos does. Standard input
        // (read once) is hashed on the reading thread from the bytes the reader reads anyway.
        FileHash[] hashes = null;
        final MessageDigest a = digest("SHA-256"), b = digest("SHA-1");
        final Ripemd160 c = new Ripemd160();
        boolean streamed = false;
        if (showHashes && Files.isRegularFile(f)) {
            hashes = new FileHash[] {new FileHash(f, a), new FileHash(f, c), new FileHash(f, b)};
            for (FileHash h : hashes) h.start();
        } else if (showHashes) {
            streamed = s.streamContent(new PacketSource.ContentSink() {
                @Override
                public void accept(byte[] block, int offset, int length) {
                    a.update(block, offset, length);
                    b.update(block, offset, length);
                    c.update(block, offset, length);
                }
            });
        }
        while (s.next()) {
            long t = s.timestampNanos();
            int captured = s.capturedLength();
            long original = s.originalLength();
            x.packets++;
            x.dataSize += original;
            if (t < x.firstNanos) {
                x.firstNanos = t;
                x.firstInterface = ((long) s.sectionIndex() << 32) | s.interfaceId();
            }
            if (t > x.lastNanos) {
                x.lastNanos = t;
                x.lastInterface = ((long) s.sectionIndex() << 32) | s.interfaceId();
            }
            if (t < x.previous) x.inOrder = false;
            x.previous = t;
            if (captured < original) {
                if (captured < x.cutMin) x.cutMin = captured;
                if (captured > x.cutMax) x.cutMax = captured;
            }
        }
        x.stats = s.stats();
        x.fileSize = Files.isRegularFile(f) ? Files.size(f) : s.mapping() != null ? s.mapping().byteSize() : 0;
        if (hashes != null) {
            x.sha256 = hashes[0].hex();
            x.ripemd160 = hashes[1].hex();
            x.sha1 = hashes[2].hex();
        } else if (showHashes) {
            if (!streamed) {
                try (InputStream in = Files.newInputStream(f)) {
                    byte[] buffer = new byte[1 << 16];
                    for (int n; (n = in.read(buffer)) > 0; ) {
                        a.update(buffer, 0, n);
                        b.update(buffer, 0, n);
                        c.update(buffer, 0, n);
                    }
                }
            }
            x.sha256 = HexFormat.of().formatHex(a.digest());
            x.sha1 = HexFormat.of().formatHex(b.digest());
            x.ripemd160 = HexFormat.of().formatHex(c.digest());
        }
        return x;
    }

    private static MessageDigest digest(String name) {
        try {
            return MessageDigest.getInstance(name);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(name + " is part of every Java runtime", e);
        }
    }

    /** One hash of a file's bytes, computed on a thread of its own; {@link #hex()} waits for it. */
    private static final class FileHash {
        private final Path file;
        private final MessageDigest digest;
        private final Ripemd160 ripemd;
        private Thread thread;
        private String hex;
        private IOException failure;

        FileHash(Path file, MessageDigest digest) {
            this.file = file;
            this.digest = digest;
            this.ripemd = null;
        }

        FileHash(Path file, Ripemd160 ripemd) {
            this.file = file;
            this.digest = null;
            this.ripemd = ripemd;
        }

        void start() {
            thread = Thread.ofPlatform().daemon().name("info-hash").start(new Runnable() {
                @Override
                public void run() {
                    try (InputStream in = Files.newInputStream(file)) {
                        byte[] buffer = new byte[1 << 20];
                        for (int n; (n = in.read(buffer)) > 0; ) {
                            if (digest != null) digest.update(buffer, 0, n);
                            else ripemd.update(buffer, 0, n);
                        }
                        hex = HexFormat.of().formatHex(digest != null ? digest.digest() : ripemd.digest());
                    } catch (IOException e) {
                        failure = e;
                    }
                }
            });
        }

        String hex() throws IOException {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while hashing " + file);
            }
            if (failure != null) throw failure;
            return hex;
        }
    }

    // ---------------------------------------------------------------- the long report

    private List<String> longReport(Facts x) {
        List<String> l = new ArrayList<>();
        l.add(label("File name:") + x.file);
        if (showType) l.add(label("File type:") + typeDescription(x.format));
        if (showEncapsulation) {
            Map<Integer, Long> encaps = encapsulations(x.stats);
            if (encaps.size() > 1) {
                l.add(label("File encapsulation:") + "Per packet");
                l.add("Encapsulation in use by packets (# of pkts):");
                for (var e : encaps.entrySet()) l.add(label("") + encapsulationName(e.getKey()) + " (" + e.getValue() + ")");
            } else {
                l.add(label("File encapsulation:") + (encaps.isEmpty() ? "Ethernet" : encapsulationName(encaps.keySet().iterator().next())));
            }
        }
        if (showMore) l.add("File timestamp precision:  " + precisionName(precision(x)) + " (" + precision(x) + ")");
        if (showSnap) l.add(label("Packet size limit:") + "file hdr: " + (fileSnap(x) > 0 ? fileSnap(x) + " bytes" : "(not set)"));
        // capinfos prints the inferred limit whatever was selected, whenever a packet was cut.
        if (x.cutMax >= 0) {
            l.add(label("Packet size limit:") + "inferred: " + x.cutMin + " bytes"
                    + (x.cutMin == x.cutMax ? "" : " - " + x.cutMax + " bytes (range)"));
        }
        if (showPackets) l.add(label("Number of packets:") + (machine ? Long.toString(x.packets) : size(x.packets, "", "")));
        if (showFileSize) l.add(label("File size:") + (machine ? x.fileSize + " bytes" : size(x.fileSize, " bytes", "B")));
        if (showDataSize) l.add(label("Data size:") + (machine ? x.dataSize + " bytes" : size(x.dataSize, " bytes", "B")));
        boolean times = x.packets > 0;
        if (showDuration) l.add(label("Capture duration:") + (times ? seconds(x.lastNanos - x.firstNanos, Math.max(packetPrecision(x, x.firstInterface), packetPrecision(x, x.lastInterface))) + " seconds" : "n/a"));
        if (showStart) l.add(label("First packet time:") + (times ? time(x.firstNanos, packetPrecision(x, x.firstInterface)) : "n/a"));
        if (showEnd) l.add(label("Last packet time:") + (times ? time(x.lastNanos, packetPrecision(x, x.lastInterface)) : "n/a"));
        double duration = rateSeconds(x);
        boolean rates = times && duration > 0;
        if (showByteRate) {
            double r = rates ? x.dataSize / duration : 0;
            l.add(label("Data byte rate:") + (machine ? String.format(Locale.ROOT, "%.2f bytes/sec", r) : size((long) r, " bytes/s", "Bps")));
        }
        if (showBitRate) {
            double r = rates ? x.dataSize * 8 / duration : 0;
            l.add(label("Data bit rate:") + (machine ? String.format(Locale.ROOT, "%.2f bits/sec", r) : size((long) r, " bits/s", "bps")));
        }
        if (showAverageSize) {
            l.add(label("Average packet size:") + String.format(Locale.ROOT, "%.2f bytes", x.packets > 0 ? (double) x.dataSize / x.packets : 0.0));
        }
        if (showPacketRate) {
            double r = rates ? x.packets / duration : 0;
            l.add(label("Average packet rate:") + (machine ? String.format(Locale.ROOT, "%.2f packets/sec", r) : size((long) r, " packets/s", "packets/s")));
        }
        if (showHashes) {
            l.add(label("SHA256:") + x.sha256);
            l.add(label("RIPEMD160:") + x.ripemd160);
            l.add(label("SHA1:") + x.sha1);
        }
        if (showOrder) l.add(label("Strict time order:") + (x.inOrder ? "True" : "False"));
        if (showMore && x.stats.captureApplication() != null) l.add(label("Capture application:") + x.stats.captureApplication());
        if (showComments) for (String c : x.stats.fileComments()) l.add(label("Capture comment:") + c);
        if (showInterfaces && x.format == CaptureFormat.PCAPNG || showInterfaces && !x.stats.interfaces().isEmpty()) {
            List<CaptureInterface> ifs = x.stats.interfaces();
            l.add("Number of interfaces in file: " + ifs.size());
            for (int i = 0; i < ifs.size(); i++) {
                CaptureInterface c = ifs.get(i);
                l.add("Interface #" + i + " info:");
                String pad = label("");
                if (c.name() != null) l.add(pad + "Name = " + c.name());
                if (c.description() != null) l.add(pad + "Description = " + c.description());
                l.add(pad + "Encapsulation = " + encapsulationName(c.linkType()) + " (" + wtapNumber(c.linkType()) + " - "
                        + encapsulationShort(c.linkType()) + ")");
                l.add(pad + "Capture length = " + c.snapLength());
                int p = interfacePrecision(c);
                l.add(pad + "Time precision = " + precisionName(p) + " (" + p + ")");
                l.add(pad + "Time ticks per second = " + ticks(c));
                // capinfos prints it when the IDB has if_tsresol (and for a nanosecond pcap); the reader tells only its
                // value, and 6 is the default.
                if (c.tsResolution() != 6) {
                    l.add(pad + String.format("Time resolution = 0x%02x", c.tsResolution()));
                }
                if (c.fcsLength() >= 0 && x.format == CaptureFormat.PCAPNG) l.add(pad + "FCS length = " + c.fcsLength());
                l.add(pad + "Number of stat entries = " + (c.ifReceived() >= 0 || c.ifDropped() >= 0 || c.osDropped() >= 0 ? 1 : 0));
                l.add(pad + "Number of packets = " + c.framesRead());
            }
        }
        return l;
    }

    /** capinfos' labels take 21 columns. */
    private static String label(String l) {
        return l + " ".repeat(Math.max(1, 21 - l.length()));
    }

    /**
     * Wireshark's format_size (SI prefixes): the largest prefix under which the value is still at least 10, the value
     * truncated ("183 kB" for 183,676 bytes, "4101 MBps", "1000 k" packets).
     */
    static String size(long value, String plainUnit, String prefixedUnit) {
        String[] prefixes = {"P", "T", "G", "M", "k"};
        long[] powers = {1_000_000_000_000_000L, 1_000_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};
        for (int i = 0; i < powers.length; i++) {
            if (value / powers[i] >= 10) {
                return value / powers[i] + " " + prefixes[i] + prefixedUnit;
            }
        }
        return value + plainUnit;
    }

    // ---------------------------------------------------------------- the table

    private List<String> columns(Facts x, boolean names) {
        List<String> c = new ArrayList<>();
        c.add(names ? "File name" : x.file.toString());
        if (showType) c.add(names ? "File type" : typeShort(x.format));
        if (showEncapsulation) {
            Map<Integer, Long> encaps = encapsulations(x.stats);
            c.add(names ? "File encapsulation" : encaps.size() > 1 ? "per-packet"
                    : encapsulationShort(encaps.isEmpty() ? LinkTypes.ETHERNET : encaps.keySet().iterator().next()));
        }
        if (showMore) c.add(names ? "File time precision" : precisionName(precision(x)));
        if (showSnap) {
            c.add(names ? "Packet size limit" : fileSnap(x) > 0 ? Long.toString(fileSnap(x)) : "(not set)");
            c.add(names ? "Packet size limit min (inferred)" : x.cutMax >= 0 ? Integer.toString(x.cutMin) : "n/a");
            c.add(names ? "Packet size limit max (inferred)" : x.cutMax >= 0 ? Integer.toString(x.cutMax) : "n/a");
        }
        if (showPackets) c.add(names ? "Number of packets" : Long.toString(x.packets));
        if (showFileSize) c.add(names ? "File size (bytes)" : Long.toString(x.fileSize));
        if (showDataSize) c.add(names ? "Data size (bytes)" : Long.toString(x.dataSize));
        boolean times = x.packets > 0;
        double duration = rateSeconds(x);
        boolean rates = times && duration > 0;
        if (showDuration) c.add(names ? "Capture duration (seconds)" : times ? seconds(x.lastNanos - x.firstNanos, Math.max(packetPrecision(x, x.firstInterface), packetPrecision(x, x.lastInterface))) : "n/a");
        if (showStart) c.add(names ? "Start time" : times ? time(x.firstNanos, packetPrecision(x, x.firstInterface)) : "n/a");
        if (showEnd) c.add(names ? "End time" : times ? time(x.lastNanos, packetPrecision(x, x.lastInterface)) : "n/a");
        if (showByteRate) c.add(names ? "Data byte rate (bytes/sec)" : rates ? fixed2(x.dataSize / duration) : "n/a");
        if (showBitRate) c.add(names ? "Data bit rate (bits/sec)" : rates ? fixed2(x.dataSize * 8 / duration) : "n/a");
        if (showAverageSize) c.add(names ? "Average packet size (bytes)" : times ? fixed2((double) x.dataSize / x.packets) : "n/a");
        if (showPacketRate) c.add(names ? "Average packet rate (packets/sec)" : rates ? fixed2(x.packets / duration) : "n/a");
        if (showHashes) {
            c.add(names ? "SHA256" : x.sha256);
            c.add(names ? "RIPEMD160" : x.ripemd160);
            c.add(names ? "SHA1" : x.sha1);
        }
        if (showOrder) c.add(names ? "Strict time order" : x.inOrder ? "True" : "False");
        if (showMore) {
            c.add(names ? "Capture application" : x.stats.captureApplication() == null ? "" : x.stats.captureApplication());
        }
        if (showComments) c.add(names ? "Capture comment" : String.join(" ", x.stats.fileComments()));
        if (!names) c.replaceAll(FrontDoor::printable);
        return c;
    }

    /**
     * The duration the rates divide by, computed as capinfos does: each time as a double of seconds since 1970, then
     * the difference. Near 2026 a double of epoch seconds holds about 0.24 us, so for a capture of microseconds this
     * differs from the exact duration (79.155 us for 79.000), and capinfos' rates with it: we print its numbers.
     */
    private static double rateSeconds(Facts x) {
        return epochDouble(x.lastNanos) - epochDouble(x.firstNanos);
    }

    private static double epochDouble(long nanos) {
        return Math.floorMod(nanos, 1_000_000_000L) / 1e9 + (double) Math.floorDiv(nanos, 1_000_000_000L);
    }

    private static String fixed2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    // ---------------------------------------------------------------- names and precisions

    private static String typeDescription(CaptureFormat f) {
        return switch (f) {
            case PCAP_US -> "Wireshark/tcpdump/... - pcap";
            case PCAP_NS -> "Wireshark/tcpdump/... - nanosecond pcap";
            default -> "Wireshark/... - pcapng";
        };
    }

    private static String typeShort(CaptureFormat f) {
        return CaptureTools.FileType.of(f).name();
    }

    /** Packets per link type, from the interfaces' counts, in Wireshark's encapsulation order. */
    private static Map<Integer, Long> encapsulations(CaptureStats stats) {
        Map<Integer, Long> byWtap = new TreeMap<>();
        Map<Integer, Integer> linkOf = new TreeMap<>();
        for (CaptureInterface i : stats.interfaces()) {
            int w = wtapNumber(i.linkType());
            byWtap.merge(w, i.framesRead(), Long::sum);
            linkOf.putIfAbsent(w, i.linkType());
        }
        Map<Integer, Long> byLink = new java.util.LinkedHashMap<>();
        for (var e : byWtap.entrySet()) byLink.put(linkOf.get(e.getKey()), e.getValue());
        return byLink;
    }

    /** Wireshark's encapsulation names of the link types RDMA captures come in; others by number. */
    static String encapsulationName(int linkType) {
        return switch (linkType) {
            case LinkTypes.ETHERNET -> "Ethernet";
            case LinkTypes.RAW -> "Raw IP";
            case LinkTypes.IPV4 -> "Raw IPv4";
            case LinkTypes.IPV6 -> "Raw IPv6";
            case LinkTypes.LINUX_SLL -> "Linux cooked-mode capture v1";
            case LinkTypes.LINUX_SLL2 -> "Linux cooked-mode capture v2";
            case LinkTypes.NULL -> "NULL/Loopback";
            case LinkTypes.USER0 -> "USER 0";
            case LinkTypes.INFINIBAND -> "InfiniBand";
            default -> "LINKTYPE " + linkType;
        };
    }

    static String encapsulationShort(int linkType) {
        return switch (linkType) {
            case LinkTypes.ETHERNET -> "ether";
            case LinkTypes.RAW -> "rawip";
            case LinkTypes.IPV4 -> "rawip4";
            case LinkTypes.IPV6 -> "rawip6";
            case LinkTypes.LINUX_SLL -> "linux-sll";
            case LinkTypes.LINUX_SLL2 -> "linux-sll2";
            case LinkTypes.NULL -> "null";
            case LinkTypes.USER0 -> "user0";
            case LinkTypes.INFINIBAND -> "infiniband";
            default -> "linktype-" + linkType;
        };
    }

    /** Wireshark's own encapsulation numbers (WTAP_ENCAP_*), which capinfos prints beside the name. */
    static int wtapNumber(int linkType) {
        return switch (linkType) {
            case LinkTypes.ETHERNET -> 1;
            case LinkTypes.RAW -> 7;
            case LinkTypes.NULL -> 15;
            case LinkTypes.LINUX_SLL -> 25;
            case LinkTypes.USER0 -> 45;
            case LinkTypes.INFINIBAND -> 114;
            case LinkTypes.IPV4 -> 129;
            case LinkTypes.IPV6 -> 130;
            case LinkTypes.LINUX_SLL2 -> 210;
            default -> 10_000 + linkType;
        };
    }

    /** The file's timestamp precision in decimal digits; -1 when its interfaces differ (capinfos' "per-packet"). */
    private static int precision(Facts x) {
        if (x.format == CaptureFormat.PCAP_US) return 6;
        if (x.format == CaptureFormat.PCAP_NS) return 9;
        int p = -2;
        for (CaptureInterface i : x.stats.interfaces()) {
            int q = interfacePrecision(i);
            if (p == -2) p = q;
            else if (p != q) return -1;
        }
        return p == -2 ? 6 : p;
    }

    /**
     * The digits a packet's time is printed with: the file's precision, or, when that is per packet (interfaces of
     * different resolutions), the packet's interface's (capinfos: the duration takes the finer of the first and last).
     */
    private static int packetPrecision(Facts x, long sectionAndInterface) {
        int p = precision(x);
        if (p >= 0) return p;
        for (CaptureInterface i : x.stats.interfaces()) {
            if (i.section() == (int) (sectionAndInterface >>> 32) && i.interfaceId() == (int) sectionAndInterface) return interfacePrecision(i);
        }
        return 9;
    }

    private static int interfacePrecision(CaptureInterface i) {
        int r = i.tsResolution() & 0x7F;
        // A binary resolution (2^-n) shown as the decimal digits that hold it, as Wireshark does.
        return i.binaryResolution() ? (int) Math.ceil(r * Math.log10(2)) : r;
    }

    private static String ticks(CaptureInterface i) {
        int r = i.tsResolution() & 0x7F;
        if (i.binaryResolution()) return r < 63 ? Long.toString(1L << r) : "2^" + r;
        return r <= 18 ? Long.toString(java.math.BigInteger.TEN.pow(r).longValue()) : "10^" + r;
    }

    private static String precisionName(int p) {
        return switch (p) {
            case -1 -> "per-packet";
            case 0 -> "seconds";
            case 1 -> "deciseconds";
            case 2 -> "centiseconds";
            case 3 -> "milliseconds";
            case 6 -> "microseconds";
            case 9 -> "nanoseconds";
            default -> "10^-" + p + " seconds";
        };
    }

    /** The file header's snap length: pcap's, or the interfaces' when they all say the same; 0 for none. */
    private static long fileSnap(Facts x) {
        long snap = -1;
        for (CaptureInterface i : x.stats.interfaces()) {
            if (snap == -1) snap = i.snapLength();
            else if (snap != i.snapLength()) return 0;
        }
        return Math.max(0, snap);
    }

    /** Seconds with as many decimals as the precision (9 when per-packet). */
    private static String seconds(long nanos, int precision) {
        int digits = precision < 0 || precision > 9 ? 9 : precision;
        String whole = Long.toString(nanos / 1_000_000_000L);
        if (digits == 0) return whole;
        String fraction = String.format("%09d", Math.abs(nanos % 1_000_000_000L)).substring(0, digits);
        return (nanos < 0 && nanos > -1_000_000_000L ? "-" : "") + whole + "." + fraction;
    }

    private String time(long nanos, int precision) {
        int digits = precision < 0 || precision > 9 ? 9 : precision;
        if (epochSeconds) return seconds(nanos, precision);
        LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L)), ZoneId.systemDefault());
        String fraction = String.format("%09d", Math.floorMod(nanos, 1_000_000_000L)).substring(0, digits);
        return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").format(t) + (digits > 0 ? "." + fraction : "");
    }
}

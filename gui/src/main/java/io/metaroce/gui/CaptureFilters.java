package io.metaroce.gui;

import io.metaroce.capture.live.CaptureLimits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The saved capture filters (Capture > Capture Filters...): Wireshark's {@code cfilters} file beside
 * {@code colorfilters}, a line {@code "name" filter} each and {@code #} comments, the format of the saved display
 * filters ({@link FilterBookmarks}), so that a Wireshark user's file can be copied in. Without a file, a few RoCE
 * filters ship as defaults; they are offered in the capture toolbar and the Capture Options dialog.
 */
final class CaptureFilters {
    /** The shipped filters: every one compiles for Ethernet (CaptureToolbarTest checks it). */
    static final List<FilterBookmarks.Bookmark> DEFAULTS = List.of(
            new FilterBookmarks.Bookmark("RoCEv2 (UDP port 4791)", "udp port 4791"),
            new FilterBookmarks.Bookmark("RoCEv2 and PFC/PAUSE frames", "udp port 4791 or ether proto 0x8808"),
            new FilterBookmarks.Bookmark("PFC/PAUSE frames", "ether proto 0x8808"),
            new FilterBookmarks.Bookmark("RoCEv1 (EtherType 0x8915)", "ether proto 0x8915"),
            new FilterBookmarks.Bookmark("RoCEv2 over IPv6", "ip6 and udp port 4791"),
            new FilterBookmarks.Bookmark("ECN-CE marked IPv4", "ip and ip[1] & 0x3 == 0x3"),
            new FilterBookmarks.Bookmark("No RoCEv2", "not udp port 4791"));

    private CaptureFilters() { }

    static Path fileBeside(Path coloringFile) {
        return coloringFile.resolveSibling("cfilters");
    }

    /** The filters of file, the defaults when it does not exist or cannot be read. */
    static List<FilterBookmarks.Bookmark> read(Path file) {
        if (file == null || !Files.exists(file)) return DEFAULTS;
        try {
            List<FilterBookmarks.Bookmark> out = new ArrayList<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                FilterBookmarks.Bookmark b = FilterBookmarks.parse(line);
                if (b != null) out.add(b);
            }
            return out;
        } catch (IOException | java.io.UncheckedIOException e) {
            return DEFAULTS;
        }
    }

    /** Writes the filters in Wireshark's cfilters format (a name's double quotes become single ones). */
    static void write(Path file, List<FilterBookmarks.Bookmark> filters) throws IOException {
        StringBuilder b = new StringBuilder("# Capture filters of the MetaRoCE Analyzer, in Wireshark's cfilters format:\n"
                + "# \"name\" filter (libpcap syntax)\n");
        for (FilterBookmarks.Bookmark k : filters) {
            b.append('"').append(k.name().replace('"', '\'')).append("\" ").append(k.filter().strip()).append('\n');
        }
        if (file.getParent() != null) Files.createDirectories(file.getParent());
        Files.writeString(file, b, StandardCharsets.UTF_8);
    }

    /** Why a capture filter cannot be used on Ethernet (libpcap's words), or null. */
    static String check(String filter) {
        if (filter == null || filter.isBlank()) return "The filter is empty";
        return CaptureLimits.filterProblem(filter, 1);
    }
}

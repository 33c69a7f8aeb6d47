package io.metaroce.gui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The saved display filters (Wireshark's filter bookmarks): a name and a filter each, kept in the config folder's
 * {@code dfilters} file in Wireshark's format (a line {@code "name" filter} each, {@code #} comments), so that a
 * Wireshark user's file can be copied in. Without a file, a few RoCE filters ship as defaults.
 */
final class FilterBookmarks {
    record Bookmark(String name, String filter) { }

    /** The shipped filters: every one compiles (FilterBarTest checks it). */
    static final List<Bookmark> DEFAULTS = List.of(
            new Bookmark("RoCE NAKs", "aeth.syndrome.kind == nak"),
            new Bookmark("Retransmissions", "analysis.retransmission"),
            new Bookmark("Spurious retransmissions", "analysis.spurious"),
            new Bookmark("ECN-CE marked", "ip.ecn == 3 || ipv6.ecn == 3"),
            new Bookmark("CE without CNP", "analysis.ce_without_cnp"),
            new Bookmark("CNPs", "bth.opcode == 0x81"),
            new Bookmark("Expert items and events", "expert.id || event"));

    private FilterBookmarks() { }

    /** The filters of file, the defaults when it does not exist; lines that are not {@code "name" filter} are skipped. */
    static List<Bookmark> read(Path file) {
        if (file == null) return DEFAULTS;
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return DEFAULTS;
        } catch (IOException | java.io.UncheckedIOException e) {
            return DEFAULTS;
        }
        List<Bookmark> out = new ArrayList<>();
        for (String line : lines) {
            Bookmark b = parse(line);
            if (b != null) out.add(b);
        }
        return out;
    }

    /** One line of a dfilters file, or null for a comment, a blank or a malformed line. */
    static Bookmark parse(String line) {
        String t = line.strip();
        if (t.isEmpty() || t.charAt(0) != '"') return null;
        int end = t.indexOf('"', 1);
        if (end < 0) return null;
        String filter = t.substring(end + 1).strip();
        return filter.isEmpty() ? null : new Bookmark(t.substring(1, end), filter);
    }

    /** Writes the filters in Wireshark's format (a name's double quotes become single ones: the format has no escape). */
    static void write(Path file, List<Bookmark> bookmarks) throws IOException {
        StringBuilder b = new StringBuilder("# Display filter bookmarks of the MetaRoCE Analyzer, in Wireshark's dfilters format:\n"
                + "# \"name\" filter\n");
        for (Bookmark k : bookmarks) b.append('"').append(k.name().replace('"', '\'')).append("\" ").append(k.filter().strip()).append('\n');
        if (file.getParent() != null) Files.createDirectories(file.getParent());
        Files.writeString(file, b, StandardCharsets.UTF_8);
    }
}

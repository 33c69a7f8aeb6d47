package io.metaroce.gui;

import io.metaroce.protocol.Spec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The Decode As table kept between sessions, in Wireshark's own file and format ({@code decode_as_entries} in the
 * profile: lines {@code decode_as_entry: udp.port,4792,(none),InfiniBand}), so that a user can copy theirs from or to
 * Wireshark. This analyzer reads the entries that decode a UDP port as RoCE (Wireshark's protocol name InfiniBand;
 * RoCE, RRoCE and infiniband accepted); every other line (comments, other tables and protocols) is kept as it was
 * when the file is saved again.
 *
 * @param ports  the UDP ports the file decodes as RoCE, besides 4791
 * @param others the file's other lines, in order
 * @param problem why the file could not be read, or null
 */
record DecodeAsEntries(Set<Integer> ports, List<String> others, String problem) {
    static final String FILE_NAME = "decode_as_entries";
    private static final String ENTRY = "decode_as_entry:";
    /** The protocol a RoCE entry names: Wireshark's Decode As calls the RoCE dissectors by their protocol's name. */
    private static final String ROCE = "InfiniBand";
    private static final Set<String> ROCE_NAMES = Set.of("infiniband", "roce", "rroce", "rocev2");

    /** The file's entries; none (and a problem) when it cannot be read; none and no problem when it does not exist. */
    static DecodeAsEntries load(Path file) {
        if (!Files.exists(file)) return new DecodeAsEntries(Set.of(), List.of(), null);
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return new DecodeAsEntries(Set.of(), List.of(), "Decode As entries not read from " + file + ": " + e.getMessage());
        }
        Set<Integer> ports = new LinkedHashSet<>();
        List<String> others = new ArrayList<>();
        for (String line : lines) {
            int port = roceUdpPort(line);
            if (port > 0) ports.add(port);
            else if (port == 0) others.add(line);
        }
        return new DecodeAsEntries(ports, others, null);
    }

    /**
     * Writes ports (4791 left out: always decoded) after the header and the other lines; returns null or why it
     * could not.
     */
    String save(Path file, Collection<Integer> rocePorts) {
        StringBuilder sb = new StringBuilder();
        boolean header = !others.isEmpty() && others.getFirst().startsWith("#");
        if (!header) {
            sb.append("# \"Decode As\" entries file, in Wireshark's format (decode_as_entries in a profile).\n")
              .append("# Written by the MetaRoCE Analyzer's Analyze > Decode As > Save; lines it does not use are kept.\n");
        }
        for (String o : others) sb.append(o).append('\n');
        for (int p : new TreeSet<>(rocePorts)) {
            if (p != Spec.ROCE_UDP_PORT) sb.append(ENTRY).append(" udp.port,").append(p).append(",(none),").append(ROCE).append('\n');
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, sb, StandardCharsets.UTF_8);
            return null;
        } catch (IOException | RuntimeException e) {
            return "Decode As not saved to " + file + ": " + e.getMessage();
        }
    }

    /**
     * The port a line decodes as RoCE; 0 for a line to keep as it is (a comment, another table or protocol); -1 for a
     * RoCE entry whose port is not one (dropped: saving again writes the table as shown).
     */
    private static int roceUdpPort(String line) {
        String l = line.strip();
        if (!l.startsWith(ENTRY)) return 0;
        String[] f = l.substring(ENTRY.length()).split(",", -1);
        if (f.length != 4 || !f[0].strip().equals("udp.port")) return 0;
        if (!ROCE_NAMES.contains(f[3].strip().toLowerCase(Locale.ROOT))) return 0;
        try {
            int p = Integer.parseInt(f[1].strip());
            return p > 0 && p <= 65535 ? p : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}

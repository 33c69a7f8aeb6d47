package io.metaroce.gui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The profile's {@code preferences} file, in Wireshark's format ({@code # comment}, {@code name: value}, TRUE/FALSE),
 * for the Edit > Preferences values that have no file of their own: the layout. The others are kept where they
 * were before (capture settings in {@code capture}, the UDP ports decoded as RoCE in {@code decode_as_entries},
 * the columns in {@code columns}, the zoom in {@code zoom}). Lines of other names (a newer version's, Wireshark's)
 * are kept as they are when the file is written again.
 *
 * @param detailsBesideList the packet details and bytes to the right of the packet list instead of below it
 * @param others the file's lines this version does not know, kept
 * @param problem why the file could not be read (the defaults are used), or null
 */
record Preferences(boolean detailsBesideList, List<String> others, String problem) {
    static final String FILE_NAME = "preferences";
    static final String DETAILS_BESIDE_LIST = "gui.packet_details_beside_list";
    /** A preferences file larger than this is not read (it is a few lines; a wrong file is not loaded into memory). */
    static final long MAX_BYTES = 1 << 20;

    static Preferences defaults() { return new Preferences(false, List.of(), null); }

    /** The file's values; the defaults for a missing file, and with a problem for an unreadable one or a bad value. */
    static Preferences load(Path file) {
        if (file == null || !Files.isRegularFile(file)) return defaults();
        List<String> lines;
        try {
            if (Files.size(file) > MAX_BYTES) return new Preferences(false, List.of(), file + ": larger than 1 MiB, not read; the default preferences are used");
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return new Preferences(false, List.of(), "Cannot read " + file + " (" + e.getMessage() + "); the default preferences are used");
        }
        boolean beside = false;
        String problem = null;
        List<String> others = new ArrayList<>();
        for (String line : lines) {
            int c = line.indexOf(':');
            if (line.startsWith("#") || c < 0) continue;
            String key = line.substring(0, c).strip(), value = line.substring(c + 1).strip();
            if (key.equals(DETAILS_BESIDE_LIST)) {
                if (value.equalsIgnoreCase("TRUE")) beside = true;
                else if (!value.equalsIgnoreCase("FALSE")) problem = file + ": " + key + ": " + value + " is not TRUE or FALSE; FALSE used";
            } else {
                others.add(line);
            }
        }
        return new Preferences(beside, List.copyOf(others), problem);
    }

    Preferences withDetailsBesideList(boolean beside) { return new Preferences(beside, others, null); }

    /** Writes the file; null, or why it could not be written. */
    String save(Path file) {
        StringBuilder b = new StringBuilder("# Preferences of the MetaRoCE Analyzer (Edit > Preferences...), Wireshark's format\n");
        b.append("# Packet details and bytes to the right of the packet list (TRUE) or below it (FALSE)\n");
        b.append(DETAILS_BESIDE_LIST).append(": ").append(detailsBesideList ? "TRUE" : "FALSE").append('\n');
        for (String o : others) b.append(o).append('\n');
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, b, StandardCharsets.UTF_8);
            return null;
        } catch (IOException | RuntimeException e) {
            return "Cannot save the preferences to " + file + ": " + e.getMessage();
        }
    }
}

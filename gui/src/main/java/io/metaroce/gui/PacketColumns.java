package io.metaroce.gui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The packet list's columns as saved beside the coloring rules ({@code columns}): one line per column in their
 * order, tab-separated title, field (empty for a built-in column), shown or hidden, width. A file that does not
 * read so (a typo, a field this version does not know) is ignored whole, with one line saying why: the default
 * columns are shown, never half a file's.
 */
final class PacketColumns {
    private PacketColumns() { }

    static final String HEADER = "# MetaRoCE Analyzer packet list columns, in order: title<TAB>field (empty: built-in)<TAB>shown|hidden<TAB>width";
    static final double MIN_WIDTH = 10, MAX_WIDTH = 5000;

    /** What was read: the columns, and why the file was ignored (null when it was not). */
    record Loaded(List<ColumnSpec> columns, String problem) { }

    /** The file beside the coloring rules' file. */
    static Path fileBeside(Path coloringFile) { return coloringFile.resolveSibling("columns"); }

    static List<ColumnSpec> defaults() {
        List<ColumnSpec> out = new ArrayList<>();
        for (int i = 0; i < PacketTable.COLUMNS.length; i++) out.add(new ColumnSpec(PacketTable.COLUMNS[i], null, true, PacketTable.WIDTHS[i]));
        return out;
    }

    /** The saved columns; the defaults when there is no file, or with a problem when it does not read. */
    static Loaded load(Path file) {
        if (!Files.isRegularFile(file)) return new Loaded(defaults(), null);
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {     // unreadable, or not UTF-8
            return new Loaded(defaults(), ignored(file, "cannot read it: " + e.getMessage()));
        }
        List<ColumnSpec> out = new ArrayList<>();
        Set<String> builtins = new HashSet<>();
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] p = line.split("\t", -1);
            String why = null;
            double width = 0;
            if (p.length != 4) why = "expected 4 tab-separated values, found " + p.length;
            else if (p[0].isBlank()) why = "a column needs a title";
            else if (!p[2].equals("shown") && !p[2].equals("hidden")) why = "'" + p[2] + "' is neither shown nor hidden";
            else {
                try {
                    width = Double.parseDouble(p[3]);
                    if (!(width >= MIN_WIDTH && width <= MAX_WIDTH)) why = "width " + p[3] + " is not between 10 and 5000";
                } catch (NumberFormatException e) {
                    why = "width '" + p[3] + "' is not a number";
                }
            }
            if (why == null && p[1].isEmpty()) {
                if (!List.of(PacketTable.COLUMNS).contains(p[0])) why = "'" + p[0] + "' is not a built-in column (give a field for a custom one)";
                else if (!builtins.add(p[0])) why = "'" + p[0] + "' is listed twice";
            } else if (why == null) why = CustomColumn.problem(p[1]);
            if (why != null) return new Loaded(defaults(), ignored(file, "line " + (n + 1) + ": " + why));
            out.add(new ColumnSpec(p[0], p[1].isEmpty() ? null : p[1], p[2].equals("shown"), width));
        }
        // A built-in column this file does not name (one added after it was saved) is shown at the end.
        for (ColumnSpec d : defaults()) if (!builtins.contains(d.title())) out.add(d);
        return new Loaded(out, null);
    }

    private static String ignored(Path file, String why) {
        return "metaroce gui: ignoring the saved columns in " + file + " (" + why + "); showing the default columns";
    }

    static void save(Path file, List<ColumnSpec> columns) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        for (ColumnSpec c : columns) {
            b.append(oneLine(c.title())).append('\t').append(c.field() == null ? "" : c.field()).append('\t')
                    .append(c.shown() ? "shown" : "hidden").append('\t')
                    .append(Math.round(Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, c.width())))).append('\n');
        }
        Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
    }

    /** A title as one field of a line (no tabs or line breaks; they would split it). */
    static String oneLine(String title) { return title.replaceAll("[\\t\\r\\n]+", " ").strip(); }
}

package io.metaroce.gui.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import javafx.scene.control.Control;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableView;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;

/**
 * "Copy > as CSV / as YAML" of the statistics tables, as Wireshark's Conversations dialog has it: the table's
 * visible columns (in their shown order, headers first) and its rows in the current sort order (a tree table: its
 * expanded rows, with their depth), each cell as the table shows it. One helper for every table, so that each copies
 * the same way. CSV follows RFC 4180 (a field with a comma, a quote or a line break is quoted, quotes doubled; CRLF
 * line ends); YAML is a list of one mapping per row, keyed by column header, strings double-quoted.
 */
public final class TableCopy {
    private TableCopy() { }

    /** A column's property holding a Function&lt;Object, String&gt; that formats its values as its cells show them. */
    public static final String FORMAT = "metaroce.copy.format";

    /** A table as a header and rows of cell texts (null: an empty cell). */
    public record Grid(List<String> header, List<List<String>> rows) { }

    /** The "Copy" menu button for a table or tree table; status (may be null) says what was copied. */
    public static MenuButton button(Control table, Label status) {
        return button(() -> table, status);
    }

    /** As {@link #button(Control, Label)}, copying the table table gives when clicked (a tab pane's selected one). */
    public static MenuButton button(java.util.function.Supplier<Control> table, Label status) {
        MenuItem csv = new MenuItem("as CSV");
        csv.setId("copy-csv");
        MenuItem yaml = new MenuItem("as YAML");
        yaml.setId("copy-yaml");
        MenuButton b = new MenuButton("Copy", null, csv, yaml);
        b.setId("table-copy");
        csv.setOnAction(e -> {
            Grid g = grid(table.get());
            toClipboard(csv(g), g.rows().size() + " rows as CSV", status);
        });
        yaml.setOnAction(e -> {
            Grid g = grid(table.get());
            toClipboard(yaml(g), g.rows().size() + " rows as YAML", status);
        });
        return b;
    }

    private static void toClipboard(String text, String what, Label status) {
        ClipboardContent c = new ClipboardContent();
        c.putString(text);
        Clipboard.getSystemClipboard().setContent(c);
        if (status != null) status.setText("Copied " + what);
    }

    /** What a table or tree table shows now. */
    public static Grid grid(Control table) {
        if (table instanceof TableView<?> t) return grid(t);
        if (table instanceof TreeTableView<?> t) return grid(t);
        throw new IllegalArgumentException("not a table: " + table);
    }

    static <S> Grid grid(TableView<S> t) {
        List<TableColumn<S, ?>> cols = t.getVisibleLeafColumns();
        List<String> header = new ArrayList<>();
        for (TableColumn<S, ?> c : cols) header.add(c.getText());
        List<List<String>> rows = new ArrayList<>(t.getItems().size());
        for (int r = 0; r < t.getItems().size(); r++) {
            List<String> row = new ArrayList<>(cols.size());
            for (TableColumn<S, ?> c : cols) row.add(text(c.getProperties().get(FORMAT), c.getCellData(r)));
            rows.add(row);
        }
        return new Grid(header, rows);
    }

    static <S> Grid grid(TreeTableView<S> t) {
        List<TreeTableColumn<S, ?>> cols = t.getVisibleLeafColumns();
        List<String> header = new ArrayList<>();
        header.add("Level");
        for (TreeTableColumn<S, ?> c : cols) header.add(c.getText());
        int n = t.getExpandedItemCount();
        List<List<String>> rows = new ArrayList<>(n);
        for (int r = 0; r < n; r++) {
            TreeItem<S> item = t.getTreeItem(r);
            if (item == null) continue;
            List<String> row = new ArrayList<>(cols.size() + 1);
            // Depth under the shown top (0 for the rows at the top), so that the tree can be rebuilt from the text.
            row.add(Integer.toString(t.getTreeItemLevel(item) - (t.isShowRoot() ? 0 : 1)));
            for (TreeTableColumn<S, ?> c : cols) row.add(text(c.getProperties().get(FORMAT), c.getCellData(item)));
            rows.add(row);
        }
        return new Grid(header, rows);
    }

    @SuppressWarnings("unchecked")
    private static String text(Object format, Object value) {
        if (format instanceof Function<?, ?> f) return ((Function<Object, String>) f).apply(value);
        return value == null ? null : value.toString();
    }

    /** RFC 4180: header line, then a line per row, CRLF after each; an empty cell is an empty field. */
    public static String csv(Grid g) {
        StringBuilder b = new StringBuilder();
        line(b, g.header());
        for (List<String> r : g.rows()) line(b, r);
        return b.toString();
    }

    private static void line(StringBuilder b, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) b.append(',');
            b.append(field(cells.get(i)));
        }
        b.append("\r\n");
    }

    /** An RFC 4180 field: quoted when it holds a comma, a quote or a line break, quotes doubled. */
    public static String field(String s) {
        if (s == null) return "";
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ',' || c == '"' || c == '\n' || c == '\r') return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }

    /**
     * Parses RFC 4180 text back into rows of fields (the tests' check that a copy reads back as the cells; also what a
     * user's spreadsheet does).
     */
    public static List<List<String>> parseCsv(String text) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder f = new StringBuilder();
        boolean quoted = false, any = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    f.append('"');
                    i++;
                } else if (c == '"') quoted = false;
                else f.append(c);
            } else if (c == '"') {
                quoted = true;
                any = true;
            } else if (c == ',') {
                row.add(f.toString());
                f.setLength(0);
            } else if (c == '\r' || c == '\n') {
                if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') i++;
                row.add(f.toString());
                rows.add(row);
                row = new ArrayList<>();
                f.setLength(0);
                any = false;
            } else {
                f.append(c);
                any = true;
            }
        }
        if (any || f.length() > 0 || !row.isEmpty()) {
            row.add(f.toString());
            rows.add(row);
        }
        return rows;
    }

    /**
     * YAML: a document of one mapping per row ("- Flow: ..."), keys the column headers; numbers plain, other text
     * double-quoted (JSON escapes, which YAML reads), an empty cell null.
     */
    public static String yaml(Grid g) {
        StringBuilder b = new StringBuilder("---\n");
        if (g.rows().isEmpty()) return b.append("[]\n").toString();
        for (List<String> r : g.rows()) {
            for (int i = 0; i < g.header().size(); i++) {
                b.append(i == 0 ? "- " : "  ").append(quote(g.header().get(i))).append(": ");
                String v = i < r.size() ? r.get(i) : null;
                b.append(v == null || v.isEmpty() ? "null" : isNumber(v) ? v : quote(v)).append('\n');
            }
        }
        return b.toString();
    }

    private static boolean isNumber(String s) {
        return s.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?");
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }
}

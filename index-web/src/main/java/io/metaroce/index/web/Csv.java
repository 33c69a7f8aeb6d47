package io.metaroce.index.web;

import io.metaroce.index.FieldDef;
import io.metaroce.index.FieldType;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * The viewer's CSV (RFC 4180: a field with a comma, quote or line break in quotes, a quote doubled, lines ended by
 * CRLF), made safe to open in a spreadsheet: operators do, and a capture path or rule text beginning with {@code =}
 * would run there as a formula (OWASP's "CSV injection"), so such a cell gets a leading {@code '}.
 */
final class Csv {
    /** Times as {@code search} prints them in its table: UTC, microseconds. */
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private Csv() {}

    /** One line of cells. */
    static void row(StringBuilder b, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) b.append(',');
            String c = unformula(cells.get(i));
            boolean quote = c.indexOf(',') >= 0 || c.indexOf('"') >= 0 || c.indexOf('\n') >= 0 || c.indexOf('\r') >= 0;
            if (quote) b.append('"').append(c.replace("\"", "\"\"")).append('"');
            else b.append(c);
        }
        b.append("\r\n");
    }

    /** A stored value as a cell: times in UTC, several values joined by "; ", none empty. */
    static String cell(FieldDef f, Object v) {
        if (v == null) return "";
        if (v instanceof List<?> list) {
            StringBuilder b = new StringBuilder();
            for (Object x : list) {
                if (!b.isEmpty()) b.append("; ");
                b.append(cell(f, x));
            }
            return b.toString();
        }
        if (f.type() == FieldType.TIME && v instanceof Long ns) return time(ns);
        return String.valueOf(v);
    }

    static String time(long ns) { return TIME.format(Instant.ofEpochSecond(Math.floorDiv(ns, 1_000_000_000L), Math.floorMod(ns, 1_000_000_000L))); }

    /** A value a spreadsheet would take for a formula (= + - @, tab, CR first), with a leading ' ; a number as it is. */
    static String unformula(String s) {
        if (s.isEmpty() || "=+-@\t\r".indexOf(s.charAt(0)) < 0 || s.matches("-?\\d+(\\.\\d+)?")) return s;
        return "'" + s;
    }
}

package io.metaroce.cli;

import static io.metaroce.dissector.FrameSummary.Style.LINE;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FieldFormat;
import io.metaroce.dissector.FrameBatch;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.FrameSummary;
import io.metaroce.dissector.NameResolver;
import io.metaroce.protocol.FieldDef;
import java.util.ArrayList;
import java.util.List;

/**
 * tshark's {@code -o gui.column.format:"Title","%fmt",...}: the columns of dissect's text output (and -T tabs, psml),
 * chosen by Wireshark's column formats ({@code %m}, {@code %t}, {@code %s}, {@code %Cus:FIELD[:OCCURRENCE]}, ...;
 * {@code -G column-formats} lists them). Each column is drawn as the default line draws it (the number right-aligned
 * in six, an arrow between a source column and the destination column right after it), so the default format gives
 * the default line byte for byte.
 */
final class CustomColumns {
    /** Wireshark's default columns, which are also the default line's. */
    static final String DEFAULT = "\"No.\",\"%m\",\"Time\",\"%t\",\"Source\",\"%s\",\"Destination\",\"%d\",\"Protocol\",\"%p\",\"Length\",\"%L\",\"Info\",\"%i\"";

    /** The formats taken here, with Wireshark's descriptions (-G column-formats), in its order. */
    static final String[][] FORMATS = {
            {"%q", "802.1Q VLAN id"}, {"%Yt", "Absolute date, as YYYY-MM-DD, and time"},
            {"%YDOYt", "Absolute date, as YYYY/DOY, and time"}, {"%At", "Absolute time"}, {"%Cus", "Custom"},
            {"%Tt", "Delta time"}, {"%Gt", "Delta time displayed"}, {"%rd", "Dest addr (resolved)"},
            {"%ud", "Dest addr (unresolved)"}, {"%rD", "Dest port (resolved)"}, {"%uD", "Dest port (unresolved)"},
            {"%d", "Destination address"}, {"%D", "Destination port"}, {"%hd", "Hardware dest addr"},
            {"%hs", "Hardware src addr"}, {"%rhd", "Hw dest addr (resolved)"}, {"%uhd", "Hw dest addr (unresolved)"},
            {"%rhs", "Hw src addr (resolved)"}, {"%uhs", "Hw src addr (unresolved)"}, {"%f", "IP DSCP Value"},
            {"%i", "Information"}, {"%rnd", "Net dest addr (resolved)"}, {"%und", "Net dest addr (unresolved)"},
            {"%rns", "Net src addr (resolved)"}, {"%uns", "Net src addr (unresolved)"}, {"%nd", "Network dest addr"},
            {"%ns", "Network src addr"}, {"%m", "Number"}, {"%L", "Packet length (bytes)"}, {"%p", "Protocol"},
            {"%Rt", "Relative time"}, {"%s", "Source address"}, {"%S", "Source port"}, {"%rs", "Src addr (resolved)"},
            {"%us", "Src addr (unresolved)"}, {"%rS", "Src port (resolved)"}, {"%uS", "Src port (unresolved)"},
            {"%Yut", "UTC date, as YYYY-MM-DD, and time"}, {"%YDOYut", "UTC date, as YYYY/DOY, and time"},
            {"%Aut", "UTC time"}, {"%t", "Time (format as specified)"}};

    /** Wireshark's formats for what our frames never carry (radio, Fibre Channel, firewall logs, ...). */
    private static final List<String> OTHERS = List.of("%B", "%V", "%y", "%a", "%I", "%F", "%e", "%x", "%E");

    /** What a column shows. */
    enum Kind { NUMBER, TIME, SOURCE, DESTINATION, NET_SOURCE, NET_DESTINATION, HW_SOURCE, HW_DESTINATION, PROTOCOL, LENGTH, INFO, FIELDS }

    /**
     * One column.
     *
     * @param timeMode for TIME: the index into {@link SummaryLines#TIME_FORMATS}, or -1 for -t's format (%t)
     * @param resolved for addresses: names as -N says (true), or the digits always (false)
     * @param fields for FIELDS: the fields named (%Cus:a||b), each a catalogue field or a pseudo-field; unknown names
     *               are left out (tshark shows such a column empty)
     * @param occurrence for FIELDS: 0 every value, n the n-th, -n the n-th from the end
     */
    record Column(String title, String format, Kind kind, int timeMode, boolean resolved, Object[] fields, String[] displays, int occurrence) {
        boolean isSource() { return kind == Kind.SOURCE || kind == Kind.NET_SOURCE || kind == Kind.HW_SOURCE; }

        boolean isDestination() { return kind == Kind.DESTINATION || kind == Kind.NET_DESTINATION || kind == Kind.HW_DESTINATION; }
    }

    private CustomColumns() {}

    /**
     * The columns of a gui.column.format value: quoted (or bare) strings separated by commas, title and format in
     * turn. A bad value throws with tshark's message for the whole -o flag.
     */
    static List<Column> parse(String value, String flag) {
        List<String> items = strings(value, flag);
        if (items.isEmpty() || items.size() % 2 != 0) throw invalid(flag);
        List<Column> columns = new ArrayList<>();
        for (int i = 0; i < items.size(); i += 2) columns.add(column(items.get(i), items.get(i + 1), flag));
        return List.copyOf(columns);
    }

    /** Wireshark's string list: "a", "b c", d; backslash escapes a quote inside quotes. */
    private static List<String> strings(String value, String flag) {
        List<String> out = new ArrayList<>();
        int i = 0, n = value.length();
        while (i < n) {
            while (i < n && Character.isWhitespace(value.charAt(i))) i++;
            if (i == n) break;
            StringBuilder b = new StringBuilder();
            if (value.charAt(i) == '"') {
                i++;
                while (i < n && value.charAt(i) != '"') {
                    if (value.charAt(i) == '\\' && i + 1 < n) i++;
                    b.append(value.charAt(i++));
                }
                if (i == n) throw invalid(flag);   // no closing quote
                i++;
            } else {
                while (i < n && value.charAt(i) != ',') b.append(value.charAt(i++));
            }
            out.add(b.toString().strip());
            while (i < n && Character.isWhitespace(value.charAt(i))) i++;
            if (i < n && value.charAt(i) != ',') throw invalid(flag);
            i++;
        }
        return out;
    }

    private static Column column(String title, String format, String flag) {
        if (format.startsWith("%Cus:")) return custom(title, format, format.substring("%Cus:".length()), flag);
        return switch (format) {
            case "%m" -> simple(title, format, Kind.NUMBER);
            case "%t" -> time(title, format, -1);
            case "%Rt" -> time(title, format, 0);
            case "%At" -> time(title, format, 1);
            case "%Yt" -> time(title, format, 2);
            case "%YDOYt" -> time(title, format, 3);
            case "%Tt" -> time(title, format, 4);
            case "%Gt" -> time(title, format, 5);
            case "%Aut" -> time(title, format, 7);
            case "%Yut" -> time(title, format, 8);
            case "%YDOYut" -> time(title, format, 9);
            case "%s", "%rs" -> address(title, format, Kind.SOURCE, true);
            case "%us" -> address(title, format, Kind.SOURCE, false);
            case "%d", "%rd" -> address(title, format, Kind.DESTINATION, true);
            case "%ud" -> address(title, format, Kind.DESTINATION, false);
            case "%ns", "%rns" -> address(title, format, Kind.NET_SOURCE, true);
            case "%uns" -> address(title, format, Kind.NET_SOURCE, false);
            case "%nd", "%rnd" -> address(title, format, Kind.NET_DESTINATION, true);
            case "%und" -> address(title, format, Kind.NET_DESTINATION, false);
            case "%hs", "%rhs" -> address(title, format, Kind.HW_SOURCE, true);
            case "%uhs" -> address(title, format, Kind.HW_SOURCE, false);
            case "%hd", "%rhd" -> address(title, format, Kind.HW_DESTINATION, true);
            case "%uhd" -> address(title, format, Kind.HW_DESTINATION, false);
            case "%S", "%rS", "%uS" -> custom(title, format, "udp.srcport", flag);
            case "%D", "%rD", "%uD" -> custom(title, format, "udp.dstport", flag);
            case "%q" -> custom(title, format, "vlan.id", flag);
            case "%f" -> custom(title, format, "ip.dscp||ipv6.dscp", flag);
            case "%p" -> simple(title, format, Kind.PROTOCOL);
            case "%L" -> simple(title, format, Kind.LENGTH);
            case "%i" -> simple(title, format, Kind.INFO);
            default -> throw new IllegalArgumentException(OTHERS.contains(format)
                    ? "-o flag \"" + flag + "\": column format " + format + " is for traffic other than RoCE and is not offered here (-G column-formats lists the formats)"
                    : "Invalid -o flag \"" + flag + "\"");
        };
    }

    private static Column simple(String title, String format, Kind kind) {
        return new Column(title, format, kind, -1, true, null, null, 0);
    }

    private static Column time(String title, String format, int mode) {
        return new Column(title, format, Kind.TIME, mode, true, null, null, 0);
    }

    private static Column address(String title, String format, Kind kind, boolean resolved) {
        return new Column(title, format, kind, -1, resolved, null, null, 0);
    }

    /**
     * %Cus:FIELD[||FIELD...][:OCCURRENCE[:R|U]] (spec is what follows "%Cus:"; the port, VLAN and DSCP formats are
     * such columns too): unknown fields give an empty column, as in tshark.
     */
    private static Column custom(String title, String format, String spec, String flag) {
        String[] parts = spec.split(":", -1);
        if (parts[0].isBlank() || parts.length > 3) throw invalid(flag);
        int occurrence = 0;
        if (parts.length > 1 && !parts[1].isEmpty()) {
            try {
                occurrence = Integer.parseInt(parts[1].strip());
            } catch (NumberFormatException e) {
                throw invalid(flag);
            }
        }
        List<Object> fields = new ArrayList<>();
        List<String> displays = new ArrayList<>();
        for (String name : parts[0].split("\\|\\|")) {
            name = name.strip();
            FieldDef f = FieldCatalog.get().field(name);
            Object field = f != null ? f : TsharkOutputs.pseudo(name);
            if (field == null) continue;
            fields.add(field);
            displays.add(FieldCatalog.tsharkDisplay(name));
        }
        return new Column(title, format, Kind.FIELDS, -1, true, fields.toArray(), displays.toArray(new String[0]), occurrence);
    }

    private static IllegalArgumentException invalid(String flag) {
        return new IllegalArgumentException("Invalid -o flag \"" + flag + "\"");
    }

    /** The catalogue fields the columns show (the analysis runs first when one is an analysis.* field). */
    static List<FieldDef> fields(List<Column> columns) {
        List<FieldDef> l = new ArrayList<>();
        for (Column c : columns) {
            if (c.fields() == null) continue;
            for (Object f : c.fields()) if (f instanceof FieldDef d) l.add(d);
        }
        return l;
    }

    /** Whether a column shows the delta to the previous displayed frame (%Gt, or %t under -t dd): one worker, in order. */
    static boolean needsOrder(List<Column> columns, int[] time) {
        for (Column c : columns) {
            int mode = c.kind() != Kind.TIME ? -1 : c.timeMode() >= 0 ? c.timeMode() : time == null ? 0 : time[0];
            if (mode == 5) return true;
        }
        return false;
    }

    /** How the columns are laid out: the text line, -T tabs, or -T psml's sections. */
    enum Layout { TEXT, TABS, PSML }

    /** -T psml's structure element: the columns' titles. */
    static void psmlStructure(ByteOut out, List<Column> columns) {
        for (Column c : columns) out.ascii("<section>").str(TsharkOutputs.xml(c.title())).ascii("</section>\n");
    }

    /** The text output's sink: one line per frame with these columns (or a psml packet element). */
    static final class Lines implements DissectCommand.FrameSink {
        /** Where the columns are drawn: the output, or for psml a cell escaped into the output column by column. */
        private final ByteOut out;
        private final ByteOut psml;
        private final java.io.ByteArrayOutputStream cell;
        private final Column[] columns;
        /** Per TIME column, its own clock (each keeps the capture start and the previous shown frame). */
        private final SummaryLines[] clocks;
        private final TsharkOutputs.Columns pseudo;
        private final char separator;
        private NameResolver names = NameResolver.NONE;

        /** @param time -t/-u's format (%t's format and the precision of every time column), or null for the default */
        Lines(ByteOut out, List<Column> columns, int[] time, Layout layout) {
            this.cell = layout == Layout.PSML ? new java.io.ByteArrayOutputStream(256) : null;
            this.psml = layout == Layout.PSML ? out : null;
            this.out = layout == Layout.PSML ? new ByteOut(cell) : out;
            out = this.out;
            this.columns = columns.toArray(new Column[0]);
            this.clocks = new SummaryLines[this.columns.length];
            for (int i = 0; i < clocks.length; i++) {
                Column c = this.columns[i];
                if (c.kind() != Kind.TIME) continue;
                int[] format = c.timeMode() < 0 ? time
                        : time == null ? new int[] {c.timeMode(), 9} : new int[] {c.timeMode(), time[1], time.length > 2 ? time[2] : 0};
                clocks[i] = new SummaryLines(out, format);
            }
            this.pseudo = new TsharkOutputs.Columns(out, time);
            this.separator = layout == Layout.TABS ? '\t' : ' ';
        }

        Lines names(NameResolver r) {
            names = r;
            pseudo.names(r, ",");
            return this;
        }

        @Override
        public void batch(FrameBatch batch) {
            for (SummaryLines c : clocks) if (c != null) c.batch(batch);
            pseudo.batch(batch);
        }

        @Override
        public void frame(Dissection d, FrameFields ff) {
            if (psml != null) {
                psml.ascii("<packet>\n");
                for (int i = 0; i < columns.length; i++) {
                    write(columns[i], i, d, ff);
                    out.flush();
                    psml.ascii("<section>").str(TsharkOutputs.xml(cell.toString(java.nio.charset.StandardCharsets.UTF_8))).ascii("</section>\n");
                    cell.reset();
                }
                psml.ascii("</packet>\n\n");
                return;
            }
            for (int i = 0; i < columns.length; i++) {
                Column c = columns[i];
                if (i > 0) {
                    boolean arrow = columns[i - 1].isSource() && c.isDestination();
                    if (!arrow) out.ch(separator);
                    else out.str(separator == ' ' ? " \u2192 " : "\t\u2192\t");
                }
                write(c, i, d, ff);
            }
            out.ch('\n');
        }

        private void write(Column c, int i, Dissection d, FrameFields ff) {
            NameResolver n = c.resolved() ? names : NameResolver.NONE;
            switch (c.kind()) {
                case NUMBER -> {
                    String no = Long.toString(d.number());
                    for (int k = no.length(); k < 6 && psml == null; k++) out.ch(' ');   // psml's sections are not padded
                    out.ascii(no);
                }
                case TIME -> clocks[i].timeColumn(d);
                case SOURCE -> out.str(FrameSummary.source(d, LINE, n));
                case DESTINATION -> out.str(FrameSummary.destination(d, LINE, n));
                case NET_SOURCE, NET_DESTINATION -> network(d, n, c.kind() == Kind.NET_SOURCE);
                case HW_SOURCE, HW_DESTINATION -> {
                    int eth = d.offsetOf(io.metaroce.protocol.Eth.HEADER);
                    if (eth >= 0) out.str(n.mac(c.kind() == Kind.HW_SOURCE ? io.metaroce.protocol.Eth.src(d.data(), eth)
                            : io.metaroce.protocol.Eth.dst(d.data(), eth)));
                }
                case PROTOCOL -> out.ascii(FrameSummary.protocol(d, LINE));
                case LENGTH -> out.num(d.originalLength());
                case INFO -> out.str(FrameSummary.info(d, LINE));
                case FIELDS -> fields(c, d, ff);
            }
        }

        /** The IPv4 or IPv6 address (empty for a frame without an IP header: an Ethernet-only or RoCEv1 frame). */
        private void network(Dissection d, NameResolver n, boolean source) {
            int ip = d.offsetOf(io.metaroce.protocol.Ip.HEADER);
            int ip6 = d.offsetOf(io.metaroce.protocol.Ipv6.HEADER);
            if (ip >= 0) {
                out.str(n.ipv4(source ? io.metaroce.protocol.Ip.src(d.data(), ip) : io.metaroce.protocol.Ip.dst(d.data(), ip)));
            } else if (ip6 >= 0) {
                out.str(n.ipv6(source ? io.metaroce.protocol.Ipv6.src(d.data(), ip6) : io.metaroce.protocol.Ipv6.dst(d.data(), ip6)));
            }
        }

        /** Every value of every field named (tshark joins them with commas), or the occurrence asked for. */
        private void fields(Column c, Dissection d, FrameFields ff) {
            boolean first = true;
            for (int k = 0; k < c.fields().length; k++) {
                Object f = c.fields()[k];
                if (!(f instanceof FieldDef def)) {
                    if (!first) out.ch(',');
                    pseudo.write(out, (TsharkOutputs.Pseudo) f, d);
                    first = false;
                    continue;
                }
                int count = ff.count(def);
                if (count == 0) continue;
                int from = 0, to = count;
                if (c.occurrence() != 0) {
                    from = c.occurrence() > 0 ? c.occurrence() - 1 : count + c.occurrence();
                    to = from + 1;
                    if (from < 0 || from >= count) continue;
                }
                for (int i = from; i < to; i++) {
                    if (!first) out.ch(',');
                    value(def, ff, i, c.displays()[k]);
                    first = false;
                }
            }
        }

        /**
         * A value as Wireshark's custom columns show it: a named value by its name (an opcode's, a CM message's),
         * a flag as True or False, the rest as -T fields prints it.
         */
        private void value(FieldDef f, FrameFields ff, int i, String display) {
            if (f.type() == io.metaroce.protocol.ValueType.BOOL) {
                out.ascii(ff.longValue(f, i) != 0 ? "True" : "False");
                return;
            }
            io.metaroce.protocol.EnumValueDef named = f.enumDef() == null || f.type() != io.metaroce.protocol.ValueType.UINT
                    ? null : f.enumDef().of(ff.longValue(f, i));
            if (named != null) out.str(named.label());
            else FieldFormat.tshark(out, ff, f, i, display);
        }
    }
}

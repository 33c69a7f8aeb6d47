package io.metaroce.cli;

import io.metaroce.dissector.ByteOut;
import java.util.List;

/**
 * dissect's {@code -o NAME:VALUE}, tshark's preference override, for the preferences that mean something here:
 * {@code gui.column.format} (the text output's columns, {@link CustomColumns}) and {@code infiniband.rroce.port}
 * (Wireshark's RoCEv2 UDP port: it replaces 4791, as in Wireshark; {@code -d udp.port==N,roce} adds a port instead).
 * A preference of another dissector is refused with tshark's message rather than ignored, so a script that relies on
 * it learns at once that it had no effect.
 *
 * @param columns the text output's columns, or null for the default line
 * @param rocePort the UDP port read as RoCEv2 instead of 4791, or null
 */
record DissectPreferences(List<CustomColumns.Column> columns, Integer rocePort, String columnFormat) {
    static final String COLUMN_FORMAT = "gui.column.format", ROCE_PORT = "infiniband.rroce.port";
    static final DissectPreferences DEFAULT = new DissectPreferences(null, null, null);

    /** The -o flags in order (a later one wins, as in tshark); throws with tshark's message for a bad one. */
    static DissectPreferences parse(List<String> flags) {
        DissectPreferences p = DEFAULT;
        for (String flag : flags) {
            int colon = flag.indexOf(':');
            if (colon <= 0) throw new IllegalArgumentException("Invalid -o flag \"" + flag + "\"");
            String name = flag.substring(0, colon).strip(), value = flag.substring(colon + 1).strip();
            switch (name) {
                case COLUMN_FORMAT -> p = new DissectPreferences(CustomColumns.parse(value, flag), p.rocePort, value);
                case ROCE_PORT -> {
                    int port;
                    try {
                        port = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("Invalid -o flag \"" + flag + "\"");
                    }
                    if (port < 0 || port > 65535) throw new IllegalArgumentException("Invalid -o flag \"" + flag + "\"");
                    p = new DissectPreferences(p.columns, port, p.columnFormat);
                }
                default -> throw new IllegalArgumentException("-o flag \"" + flag + "\" specifies unknown preference"
                        + " (this tool's are " + COLUMN_FORMAT + " and " + ROCE_PORT + ": dissect -G defaultprefs)");
            }
        }
        return p;
    }

    /**
     * -G defaultprefs and currentprefs: the preferences in Wireshark's preferences file layout (a description as
     * comments, then the line; commented out while it has its default value), so the lines can be pasted into a
     * Wireshark profile or given back to -o.
     */
    void write(ByteOut out, boolean current) {
        out.ascii("# Preferences of metaroce dissect (-o NAME:VALUE), in Wireshark's preferences file layout.\n")
                .ascii("# Preferences that are commented out have their default value.\n\n");
        out.ascii("# Packet list column format (dissect's text output and -T tabs; -G column-formats lists the formats)\n")
                .ascii("# Each pair of strings consists of a column title and its format\n");
        boolean columnsSet = current && columnFormat != null;
        if (!columnsSet) out.ch('#');
        out.ascii(COLUMN_FORMAT).ascii(": ");
        List<CustomColumns.Column> shown = columnsSet ? columns : CustomColumns.parse(CustomColumns.DEFAULT, CustomColumns.DEFAULT);
        for (int i = 0; i < shown.size(); i++) {
            out.ascii("\n").ascii(columnsSet ? "\t" : "#\t").ch('"').str(shown.get(i).title().replace("\"", "\\\"")).ascii("\", \"")
                    .str(shown.get(i).format()).ch('"');
            if (i < shown.size() - 1) out.ch(',');
        }
        out.ascii("\n\n# The UDP port for RROCE messages (default 4791)\n# A decimal number\n");
        boolean portSet = current && rocePort != null;
        if (!portSet) out.ch('#');
        out.ascii(ROCE_PORT).ascii(": ").num(portSet ? rocePort : 4791).ch('\n');
    }

    /** -G column-formats: tshark's layout, then how to get the default columns. */
    static void columnFormats(ByteOut out) {
        for (String[] f : CustomColumns.FORMATS) out.ascii(f[0]).ch('\t').ascii(f[1]).ch('\n');
        out.ascii("\nFor example, to print Wireshark's default columns:\n\nmetaroce dissect -o '")
                .ascii(COLUMN_FORMAT).ch(':').ascii(CustomColumns.DEFAULT).ascii("'\n");
    }
}

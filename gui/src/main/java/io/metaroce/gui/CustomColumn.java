package io.metaroce.gui;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FieldFormat;
import io.metaroce.dissector.FrameFields;
import io.metaroce.protocol.FieldDef;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A packet-list column showing one field, as Wireshark's custom columns ("Apply as Column"): the field as it was
 * named (ours or its Wireshark alias: the name decides tshark's print format, as for {@code dissect -e}), its
 * definition, and that format.
 */
record CustomColumn(String field, FieldDef def, String display) {
    /** The occurrences are joined as tshark -T fields' default aggregator joins them. */
    static final String AGGREGATOR = ",";

    /** The column of a field name that {@code dissect -e} accepts, or null. */
    static CustomColumn of(String field) {
        FieldDef f = field == null ? null : FieldCatalog.get().field(field.strip());
        return f == null ? null : new CustomColumn(field.strip(), f, FieldCatalog.tsharkDisplay(field.strip()));
    }

    /** Why field cannot be a column (the words of {@code dissect -e}), or null when it can. */
    static String problem(String field) {
        if (field == null || field.isBlank()) return "A custom column needs a field name (bth.psn, aeth.syndrome, ...)";
        if (of(field) != null) return null;
        String why = FieldCatalog.unmappedReason(field.strip());
        return "'" + field.strip() + "' is not a valid field (see dissect --list-fields)" + (why == null ? "" : "; no equivalent here: " + why);
    }

    /** Wireshark's title for a new column of this field: the field's display name. */
    String defaultTitle() { return def.label() == null || def.label().isBlank() ? field : def.label(); }

    /**
     * Formats custom columns' values with one reused buffer (a ByteOut holds 64 KiB: one per decoder, not per cell).
     * Not thread-safe: one per thread.
     */
    static final class Text {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        private final ByteOut out = new ByteOut(bytes);

        /** The column's text for the decoded frame: what {@code dissect -T fields -e FIELD} prints for it. */
        String of(CustomColumn c, FrameFields ff) {
            if (ff.count(c.def()) == 0) return "";
            bytes.reset();
            FieldFormat.occurrences(out, ff, c.def(), c.display(), AGGREGATOR);
            out.flush();
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }
}

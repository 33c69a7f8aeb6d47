package io.metaroce.gui;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.ExpertItem;
import io.metaroce.dissector.FieldFormat;
import io.metaroce.dissector.FieldNode;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.FrameTree;
import io.metaroce.dissector.KaitaiFrameTree;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.ValueType;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javafx.scene.control.TreeItem;

/**
 * Builds the field tree of one frame from the dissector's {@link KaitaiFrameTree} (the Kaitai parsers' values and
 * byte ranges, the packet list's flyweights only for the frame's verdicts): a line per layer and field (label,
 * value with enum name, bytes), the expert items as children of the nodes they are about and again, all of them,
 * under "Expert Info", and the {@code analysis.*} verdicts under "Analysis". Pure: no window needed (tests build
 * it directly).
 */
final class FieldTreeModel {
    private FieldTreeModel() { }

    /** The root (not shown) whose children are the frame summary, the layers, payload, ICRC, analysis, expert. */
    static TreeItem<TreeEntry> build(Dissection d, FrameFields ff) {
        return build(d, ff, d.comment() == null ? List.of() : List.of(d.comment()));
    }

    /**
     * As {@link #build(Dissection, FrameFields)} with the frame's comments as edited (Edit > Packet Comments): after
     * the frame line, Wireshark's "Packet comments" line with a child per comment (its filter: {@code frame.comment == "..."}).
     */
    static TreeItem<TreeEntry> build(Dissection d, FrameFields ff, List<String> comments) {
        FrameTree t = KaitaiFrameTree.of(d, ff);
        TreeItem<TreeEntry> root = new TreeItem<>(new TreeEntry("Frame " + t.number(), null, null, 0, t.capturedLength(), null, null));
        root.getChildren().add(new TreeItem<>(new TreeEntry("Frame " + t.number() + ": " + t.originalLength() + " bytes on wire, "
                + t.capturedLength() + " bytes captured; " + t.protocols(), null, null, 0, t.capturedLength(),
                comments.isEmpty() ? null : "Comment: " + String.join("\n", comments), "frame.number == " + t.number())));
        if (!comments.isEmpty()) {
            TreeItem<TreeEntry> c = new TreeItem<>(new TreeEntry("Packet comments", null, null, -1, 0,
                    "Edit > Packet Comments adds, edits and deletes them; File > Save writes them", "frame.comment"));
            for (String s : comments)
                c.getChildren().add(new TreeItem<>(new TreeEntry(s, null, null, -1, 0, "frame.comment",
                        "frame.comment == \"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")));
            c.setExpanded(true);
            root.getChildren().add(c);     // after the frame line (the details pane adds its time lines there)
        }
        for (FieldNode n : t.roots()) root.getChildren().add(item(n, ff));
        if (!t.expert().isEmpty()) {
            TreeItem<TreeEntry> ex = new TreeItem<>(new TreeEntry("Expert Info (" + t.expert().size() + ")", null, null, -1, 0,
                    "Everything the dissector found wrong or notable in this frame", "expert.id"));
            for (ExpertItem e : t.expert()) ex.getChildren().add(expert(e));
            root.getChildren().add(ex);
        }
        return root;
    }

    private static TreeItem<TreeEntry> item(FieldNode n, FrameFields ff) {
        String text = text(n);
        String tip = n.field() != null ? n.field().name() + (n.field().doc() != null ? "\n" + n.field().doc() : "")
                : n.header() != null && n.kind() == FieldNode.Kind.LAYER ? n.header().id() + (n.header().doc() != null ? "\n" + n.header().doc() : "")
                : null;
        String filter = filterOf(n, ff);
        TreeItem<TreeEntry> it = new TreeItem<>(new TreeEntry(text, n, null, n.offset(), n.length(), tip, filter, linkOf(n, ff)));
        for (FieldNode c : n.children()) it.getChildren().add(item(c, ff));
        for (ExpertItem e : n.expert()) it.getChildren().add(expert(e));
        if (n.kind() == FieldNode.Kind.ANALYSIS) it.setExpanded(true);
        return it;
    }

    /**
     * The fields whose value is another frame's number (Wireshark's FT_FRAMENUM): their lines link to that frame
     * (Go to Linked Packet, a double-click or Enter on the line).
     */
    static final java.util.Set<String> FRAME_LINKS = java.util.Set.of("analysis.original_frame", "analysis.acked_by_frame",
            "analysis.repeated_response_request");

    /** The frame a line's value refers to, 0 for none. */
    static int linkOf(FieldNode n, FrameFields ff) {
        FieldDef f = n.field();
        if (f == null || !FRAME_LINKS.contains(f.name())) return 0;
        int occ = n.occurrence();
        if (occ < 0 || occ >= ff.count(f)) return 0;
        long v = ff.longValue(f, occ);
        return v > 0 && v <= Integer.MAX_VALUE ? (int) v : 0;
    }

    private static TreeItem<TreeEntry> expert(ExpertItem e) {
        return new TreeItem<>(new TreeEntry(text(e), null, e, e.offset(), e.length(), e.id(), "expert.id == \"" + e.id() + "\""));
    }

    private static String text(FieldNode n) { return n.value() == null ? n.label() : n.label() + ": " + n.value(); }

    private static String text(ExpertItem e) {
        return "[" + e.severity().label() + "/" + e.group().name().toLowerCase() + "] " + e.message()
                + (e.rule() != null ? " (" + e.rule() + ")" : "");
    }

    /**
     * The texts of the lines {@link #build} makes for the layers, fields and expert items, in its order, without
     * building the tree (no filters, tooltips or tree items): what Find Packet searches in the packet details.
     */
    static void lines(Dissection d, FrameFields ff, List<String> out) {
        FrameTree t = KaitaiFrameTree.of(d, ff);
        for (FieldNode n : t.roots()) lines(n, out);
        for (ExpertItem e : t.expert()) out.add(text(e));
    }

    private static void lines(FieldNode n, List<String> out) {
        out.add(text(n));
        for (FieldNode c : n.children()) lines(c, out);
        for (ExpertItem e : n.expert()) out.add(text(e));
    }

    /** A display filter matching this node's value: {@code bth.psn == 123}, a protocol name for a layer. */
    static String filterOf(FieldNode n, FrameFields ff) {
        if (n.kind() == FieldNode.Kind.LAYER && n.header() != null) return n.header().id();
        if (n.kind() == FieldNode.Kind.ICRC) return "icrc.status == \"" + ff.dissection().icrcStatus().label() + "\"";
        if (n.kind() == FieldNode.Kind.PAYLOAD) return "payload.len == " + ff.dissection().payloadLength();
        FieldDef f = n.field();
        if (f == null) return null;
        int occ = n.occurrence();   // analysis fields: 0, their only occurrence
        if (occ < 0 || occ >= ff.count(f)) return f.name();
        return filterOf(f, ff, occ);
    }

    /** A display filter matching occurrence occ of f in the frame (a custom column's cell: its first). */
    static String filterOf(FieldDef f, FrameFields ff, int occ) {
        if (f.type() == ValueType.BOOL) return ff.longValue(f, occ) != 0 ? f.name() + " == true" : f.name() + " == false";
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ByteOut out = new ByteOut(bytes)) {
            FieldFormat.plain(out, ff, f, occ);
        }
        String v = bytes.toString(StandardCharsets.UTF_8);
        return switch (f.type()) {
            case STRING -> f.name() + " == \"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
            case BYTES -> v.isEmpty() ? f.name() : f.name() + " == " + colons(v);
            default -> f.name() + " == " + v;
        };
    }

    private static String colons(String hex) {
        StringBuilder b = new StringBuilder(hex.length() * 3 / 2);
        for (int i = 0; i + 1 < hex.length(); i += 2) {
            if (i > 0) b.append(':');
            b.append(hex, i, i + 2);
        }
        return b.toString();
    }

    /** Every entry of the tree in depth-first order (tests, search). */
    static void walk(TreeItem<TreeEntry> item, List<TreeItem<TreeEntry>> out) {
        out.add(item);
        for (TreeItem<TreeEntry> c : item.getChildren()) walk(c, out);
    }
}

package io.metaroce.dissector;

import io.metaroce.dissector.FieldNode.Kind;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Spec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * The decoded tree of one frame, as a tree view shows it: per layer a node, per field a node with its label,
 * display value and bytes (see {@link FieldNode}), the payload, pad, ICRC and FCS, and the expert items on the
 * nodes they are about. Built from a {@link Dissection} and owns copies of everything it shows, so it stays
 * valid after the dissection is reused for the next frame. {@code dissect -V} prints it.
 *
 * <p>{@link #roots()} tile the captured bytes in order: every captured byte belongs to exactly one root with
 * bytes (bytes no header accounts for are {@link Kind#DATA} nodes). A header carried inside another header's
 * field (CM private data) is a child of that field; CM MADs are children of the payload.
 */
public final class FrameTree {
    private final long number;
    private final long timeNanos;
    private final long originalLength;
    private final int capturedLength;
    private final String protocols;
    private final String comment;
    private final List<FieldNode> roots = new ArrayList<>();
    private final List<FieldNode> layers = new ArrayList<>();
    private final List<ExpertItem> expert;
    private final List<ExpertItem> frameExpert = new ArrayList<>(0);
    private FieldNode payload, icrc, fcs, analysis;

    private FrameTree(Dissection d, List<ExpertItem> more) {
        number = d.number();
        timeNanos = d.timeNanos();
        originalLength = d.originalLength();
        capturedLength = d.capturedLength();
        protocols = d.protocols();
        comment = d.comment();
        List<ExpertItem> all = new ArrayList<>(d.expert());
        all.addAll(more);
        expert = List.copyOf(all);
    }

    /** Builds the node of one layer (its fields as children); returns null for "as the flyweights read it". */
    interface LayerNodes {
        FieldNode layer(Dissection d, FrameFields ff, int i, HeaderDef h, int occurrence);
    }

    /** The tree of the frame d holds. */
    public static FrameTree of(Dissection d) { return of(d, new FrameFields().of(d)); }

    /** The tree of the frame d holds; ff reads its fields ({@code ff.of(d)} done). */
    public static FrameTree of(Dissection d, FrameFields ff) {
        return of(d, ff, (dd, f, i, h, occurrence) -> null, List.of());
    }

    /** The tree with the layer nodes another decoder built ({@link KaitaiFrameTree}) and its expert items added. */
    static FrameTree of(Dissection d, FrameFields ff, LayerNodes nodes, List<ExpertItem> more) {
        FrameTree t = new FrameTree(d, more);
        t.build(d, ff, nodes);
        return t;
    }

    public long number() { return number; }
    public long timeNanos() { return timeNanos; }
    public long originalLength() { return originalLength; }
    public int capturedLength() { return capturedLength; }
    /** As tshark's frame.protocols: "eth:ip:udp:bth:reth". */
    public String protocols() { return protocols; }
    /** The packet comment, or null. */
    public String comment() { return comment; }

    /** Top-level nodes in byte order (they tile the captured bytes), then those without bytes (analysis). */
    public List<FieldNode> roots() { return Collections.unmodifiableList(roots); }

    /** One LAYER node per layer of the dissection, in dissection order (carried and nested ones included). */
    public List<FieldNode> layers() { return Collections.unmodifiableList(layers); }

    /** The transport payload, or null when the frame has no RoCE payload. */
    public FieldNode payload() { return payload; }

    /** The ICRC, or null when the frame has none; without bytes when the snap length cut it. */
    public FieldNode icrc() { return icrc; }

    /** The Ethernet FCS, or null. Its value is null when the FCS was announced by the file but not checked. */
    public FieldNode fcs() { return fcs; }

    /** The analysis.* values, or null when none are attached. */
    public FieldNode analysis() { return analysis; }

    /** Every expert item of the frame, in the order the dissector found them. */
    public List<ExpertItem> expert() { return expert; }

    /** The expert items about the frame as a whole (no layer, field or bytes of their own). */
    public List<ExpertItem> frameExpert() { return Collections.unmodifiableList(frameExpert); }

    // ------------------------------------------------------------------ building

    private void build(Dissection d, FrameFields ff, LayerNodes nodes) {
        int[] seen = new int[Spec.HEADERS.size()];
        List<FieldNode> top = new ArrayList<>();
        for (int i = 0; i < d.layerCount(); i++) {
            HeaderDef h = d.layer(i);
            int occurrence = seen[h.index()]++;
            FieldNode node = nodes.layer(d, ff, i, h, occurrence);
            if (node == null) node = layer(d, ff, i, h, occurrence);
            layers.add(node);
            FieldNode parent = container(d, i);
            if (parent != null) parent.children.add(node);
            else top.add(node);
        }
        int cap = capturedLength;
        // Payload and pad end where the captured bytes do, or at the FCS when one was found: a frame cut short of
        // its IP length (see Dissector: the capturing device cut it) still ends with its Ethernet FCS.
        int dataEnd = d.fcsOffset() >= 0 ? Math.min(cap, d.fcsOffset()) : cap;
        if (d.payloadOffset() >= 0) {
            int start = d.payloadOffset(), len = Math.max(0, d.payloadLength());
            String v = d.payloadLength() + " bytes" + (d.padCount() > 0 ? " + " + d.padCount() + " pad" : "");
            payload = new FieldNode(Kind.PAYLOAD, "Payload", v, null, null, -1, 0, Math.min(start, dataEnd),
                    clip(start, len, dataEnd), 0);
            // Headers inside the payload (CM MADs) move under it.
            for (var it = top.iterator(); it.hasNext(); ) {
                FieldNode n = it.next();
                if (n.offset() >= start && n.end() <= start + len && n.offset() < cap) {
                    payload.children.add(n);
                    it.remove();
                }
            }
            top.add(payload);
            int padStart = start + len;
            int padEnd = Math.min(padStart + d.padCount(), d.icrcOffset() >= 0 ? d.icrcOffset() : Integer.MAX_VALUE);
            if (padEnd > padStart && padStart < dataEnd)
                top.add(new FieldNode(Kind.PADDING, "Pad", (padEnd - padStart) + " bytes", null, null, -1, 0, padStart,
                        Math.min(padEnd, dataEnd) - padStart, 0));
        }
        if (d.icrcStatus() != IcrcStatus.NONE) {
            String v = switch (d.icrcStatus()) {
                case GOOD -> "0x" + hex8(d.icrcValue()) + " [good]";
                case BAD -> "0x" + hex8(d.icrcValue()) + " [bad, computed 0x" + hex8(d.icrcComputed()) + "]";
                default -> "[unchecked]";
            };
            boolean captured = d.icrcOffset() >= 0 && d.icrcOffset() + 4 <= dataEnd;
            icrc = new FieldNode(Kind.ICRC, "Invariant CRC", v, null, null, -1, 0, captured ? d.icrcOffset() : -1,
                    captured ? 4 : 0, 0);
            top.add(icrc);
        }
        if (d.fcsOffset() >= 0) {
            fcs = new FieldNode(Kind.FCS, "Ethernet FCS", d.fcsStatus() == null ? null : "[" + d.fcsStatus() + "]", null, null,
                    -1, 0, d.fcsOffset(), d.fcsLength(), 0);
            top.add(fcs);
        }
        // Byte order, then fill the gaps so that the roots tile the captured bytes.
        List<FieldNode> ranged = new ArrayList<>();
        List<FieldNode> unranged = new ArrayList<>();
        for (FieldNode n : top) (n.hasBytes() ? ranged : unranged).add(n);
        ranged.sort(Comparator.comparingInt(FieldNode::offset));
        int at = 0;
        for (FieldNode n : ranged) {
            if (n.offset() > at) roots.add(data(at, n.offset()));
            roots.add(n);
            at = Math.max(at, n.end());
        }
        if (at < cap) roots.add(data(at, cap));
        roots.addAll(unranged);
        if (d.extra().size() > 0) {
            analysis = new FieldNode(Kind.ANALYSIS, "Analysis", null, null, null, -1, 0, -1, 0, 0);
            for (int i = 0; i < d.extra().size(); i++) {
                FieldDef f = d.extra().field(i);
                analysis.children.add(new FieldNode(Kind.FIELD, f.label(), FieldFormat.display(ff, f, 0), f, null, -1, 0, -1, 0, 0));
            }
            roots.add(analysis);
        }
        for (ExpertItem e : expert) attach(e);
    }

    private static FieldNode data(int from, int to) {
        return new FieldNode(Kind.DATA, "Data", (to - from) + " bytes", null, null, -1, 0, from, to - from, 0);
    }

    private static int clip(int start, int len, int cap) { return Math.max(0, Math.min(start + len, cap) - Math.min(start, cap)); }

    /** The field node (or layer) of an earlier layer that holds layer i (a header carried in a field), or null. */
    private FieldNode container(Dissection d, int i) {
        int off = d.layerOffset(i), end = d.layerEnd(i);
        for (int k = i - 1; k >= 0; k--) {
            if (d.layerOffset(k) <= off && end <= d.layerEnd(k) && d.layerEnd(k) - d.layerOffset(k) > end - off) {
                FieldNode holder = layers.get(k);
                for (FieldNode f : holder.children)
                    if (f.kind() == Kind.FIELD && f.offset() <= off && end <= f.end()) return f;
                return holder;
            }
        }
        return null;
    }

    /** A layer's line: the header's title, with its name in the standard when the title does not say it. */
    static String layerLabel(HeaderDef h) {
        return h.origId() != null && !h.title().contains(h.origId()) ? h.title() + " (" + h.origId() + ")" : h.title();
    }

    /** Bits of a field within its containing bytes (see {@link FieldNode#bitMask()}), 0 when it fills them. */
    static long bitMask(FieldDef f) {
        int lead = f.bitOffset() % 8;
        int span = (lead + f.bitWidth() + 7) / 8 * 8;
        if (f.isSubfield()) return f.mask() << (span - lead - f.bitWidth());
        return lead == 0 && f.bitWidth() % 8 == 0 ? 0 : ((1L << f.bitWidth()) - 1) << (span - lead - f.bitWidth());
    }

    private static FieldNode layer(Dissection d, FrameFields ff, int i, HeaderDef h, int occurrence) {
        String label = layerLabel(h);
        int off = d.layerOffset(i);
        FieldNode node = new FieldNode(Kind.LAYER, label, null, null, h, i, occurrence, off, d.layerLength(i), 0);
        FieldNode parent = null;
        for (int k = h.firstField(); k < h.firstField() + h.fieldCount(); k++) {
            FieldDef f = Spec.FIELDS.get(k);
            int bytes = (f.bitOffset() % 8 + f.bitWidth() + 7) / 8;
            FieldNode n = new FieldNode(Kind.FIELD, f.label(), FieldFormat.display(ff, f, occurrence), f, h, i, occurrence,
                    off + f.bitOffset() / 8, bytes, bitMask(f));
            if (f.isSubfield() && parent != null) parent.children.add(n);
            else {
                node.children.add(n);
                parent = n;
            }
        }
        int extra = d.layerLength(i) - h.size();
        if (extra > 0) {
            String what = h.index() == Ip.HEADER ? "Options" : "Extension headers";
            node.children.add(new FieldNode(Kind.OPTIONS, what, extra + " bytes", null, h, i, occurrence, off + h.size(), extra, 0));
        }
        return node;
    }

    /** Puts an expert item on the node it is about: its field, its layer, or the deepest node holding its bytes. */
    private void attach(ExpertItem e) {
        FieldNode target = null;
        if (e.layer() >= 0 && e.layer() < layers.size()) {
            target = layers.get(e.layer());
            if (e.field() >= 0) {
                FieldNode f = find(target.children, e.field());
                if (f != null) target = f;
            }
        } else if (e.hasRange()) {
            target = deepest(roots, e.offset());
        }
        if (target != null) target.expert.add(e);
        else frameExpert.add(e);
    }

    private static FieldNode find(List<FieldNode> nodes, int fieldId) {
        for (FieldNode n : nodes) {
            if (n.field() != null && n.field().id() == fieldId) return n;
            FieldNode c = n.kind() == Kind.FIELD ? find(n.children, fieldId) : null;
            if (c != null) return c;
        }
        return null;
    }

    private static FieldNode deepest(List<FieldNode> nodes, int offset) {
        for (FieldNode n : nodes) {
            if (n.hasBytes() && n.offset() <= offset && offset < n.end()) {
                FieldNode c = deepest(n.children, offset);
                return c != null ? c : n;
            }
        }
        return null;
    }

    private static String hex8(long v) {
        String h = Long.toHexString(v);
        return h.length() >= 8 ? h : "0".repeat(8 - h.length()) + h;
    }
}

package io.metaroce.dissector;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import io.metaroce.dissector.FieldNode.Kind;
import io.metaroce.protocol.Bth;
import io.metaroce.protocol.Expert;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.ValueType;
import io.metaroce.protocol.kaitai.pos.RoceFrame;
import io.metaroce.protocol.kaitai.pos.RoceTransport;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The field tree of one frame as the Kaitai parsers decode it (the GUI's field tree): the parsers the build
 * compiles from the spec's .ksy files with {@code --read-pos}, so every attribute knows its byte range. Each header
 * the Kaitai parse meets becomes a layer node, its catalogue fields the children, with the Kaitai value (label,
 * enum name and doc from the catalogue) and the Kaitai byte range; a bit field covers the bytes that hold it.
 *
 * <p>The flyweight {@link Dissection} of the same frame, microseconds and already made for the packet list, decides
 * which headers the frame has (UDP port 4791 or a decode-as rule makes a UDP payload RoCE; the k-th layer of a
 * header is the k-th Kaitai object of it) and adds what a parser of the bytes cannot know: the ICRC verdict,
 * expert items, analysis verdicts. Payload, pad, ICRC and FCS ranges come from {@link FrameTree}. Kaitai parses
 * the frame lazily, read by read, so a frame cut short keeps every header read before the cut; a header the
 * dissector read but Kaitai did not (which the agreement test says does not happen on the samples) is shown as
 * the dissector reads it, with an expert item saying so. Only the one selected frame is decoded this way: the
 * packet list, filters, {@code dissect} and {@code analyze} keep the flyweights (Kaitai is about 15 times slower).
 */
public final class KaitaiFrameTree {
    private static final int LINKTYPE_ETHERNET = 1;
    /** Larger than any IP packet: a UDP length beyond it is garbage, not a transport to zero-fill. */
    private static final int MAX_TRANSPORT = 1 << 16;

    private KaitaiFrameTree() { }

    /** The tree of the frame d holds; ff reads its fields ({@code ff.of(d)} done). */
    public static FrameTree of(Dissection d, FrameFields ff) { return of(d, ff, parse(d)); }

    /** The Kaitai objects of the frame d holds, each with its absolute byte range (tests compare them). */
    public static KaitaiLayers parse(Dissection d) {
        byte[] bytes = d.data().toArray(ValueLayout.JAVA_BYTE);
        KaitaiLayers out = new KaitaiLayers(d.capturedLength());
        if (d.linkType() == LINKTYPE_ETHERNET) {
            RoceFrame root = new RoceFrame(new ByteBufferKaitaiStream(bytes));
            try {
                root._read();
            } catch (RuntimeException e) {
                out.failure("frame", e);
            }
            out.walk(root, 0, "frame");
        }
        // Another link type (SLL, raw IP), or an Ethernet frame whose transport Kaitai could not enter (the capture
        // cut it, so the UDP length runs past the bytes): parse the transport on its own, from the BTH on. When the
        // capture cut the frame, the bytes it lacks up to the ICRC are zeros here (Kaitai finds the payload's end
        // from the ICRC's), and what lies past the captured bytes is dropped as unread (KaitaiLayers' limit).
        if (d.isRoce() && !out.has(Spec.HEADERS.get(Bth.HEADER))) {
            int from = d.bthOffset();
            int to = d.capturedLength();
            if (d.fcsOffset() >= from) to = Math.min(to, d.fcsOffset());
            if (d.icrcOffset() >= from && d.icrcOffset() - from < MAX_TRANSPORT) to = d.icrcOffset() + 4;
            byte[] transport = Arrays.copyOfRange(bytes, from, to);
            RoceTransport t = new RoceTransport(new ByteBufferKaitaiStream(transport));
            try {
                t._read();
            } catch (RuntimeException e) {
                out.failure("transport", e);
            }
            out.walk(t, from, "transport");
        }
        return out;
    }

    static FrameTree of(Dissection d, FrameFields ff, KaitaiLayers k) {
        List<ExpertItem> more = new ArrayList<>(0);
        FrameTree.LayerNodes nodes = (dd, f, i, h, occurrence) -> {
            KaitaiLayers.Placed p = k.get(h, occurrence);
            if (p != null) return layer(d, i, h, occurrence, p);
            if (h.pseudo()) return null;
            String why = k.failures().isEmpty() ? "" : " (" + String.join("; ", k.failures()) + ")";
            more.add(new ExpertItem(Expert.FRAME_HEADER_TRUNCATED, h.origId() + " not read by the Kaitai parser" + why
                    + ": shown as the dissector reads it", i, -1, -1, 0));
            return null;
        };
        return FrameTree.of(d, ff, nodes, more);
    }

    private static FieldNode layer(Dissection d, int i, HeaderDef h, int occurrence, KaitaiLayers.Placed p) {
        int extra = Math.max(0, d.layerLength(i) - h.size());
        FieldNode node = new FieldNode(Kind.LAYER, FrameTree.layerLabel(h), null, null, h, i, occurrence, p.start(),
                p.end() - p.start() + extra, 0);
        FieldNode parent = null;
        for (int k = h.firstField(); k < h.firstField() + h.fieldCount(); k++) {
            FieldDef f = Spec.FIELDS.get(k);
            KaitaiLayers.Value v = p.value(f);
            if (v == null) continue;            // not read: the frame ended before it
            FieldNode n;
            if (f.isSubfield() && parent != null) {
                n = new FieldNode(Kind.FIELD, f.label(), text(f, v.value()), f, h, i, occurrence, parent.offset(), parent.length(),
                        FrameTree.bitMask(f));
                parent.children.add(n);
            } else {
                // A bit field covers the bytes that hold it: Kaitai's start is the byte after the previous bits,
                // so the first byte comes from the catalogue's bit offset, the end from Kaitai.
                boolean aligned = f.bitOffset() % 8 == 0 && f.bitWidth() % 8 == 0;
                int from = aligned && v.start() >= 0 ? v.start() : p.start() + f.bitOffset() / 8;
                int to = v.end() >= 0 ? v.end() : from + (f.bitOffset() % 8 + f.bitWidth() + 7) / 8;
                n = new FieldNode(Kind.FIELD, f.label(), text(f, v.value()), f, h, i, occurrence, from, Math.max(0, to - from),
                        FrameTree.bitMask(f));
                node.children.add(n);
                parent = n;
            }
        }
        if (extra > 0) {
            String what = h.index() == Ip.HEADER ? "Options" : "Extension headers";
            node.children.add(new FieldNode(Kind.OPTIONS, what, extra + " bytes", null, h, i, occurrence, p.end(), extra, 0));
        }
        return node;
    }

    /** The value as {@link FieldFormat#display(FrameFields, FieldDef, int)} shows the flyweight's. */
    static String text(FieldDef f, Object v) {
        if (v instanceof String str) return str;
        if (v instanceof byte[] b) {
            return f.type() == ValueType.IPV6 ? Addresses.ipv6(b) : FieldFormat.display(MemorySegment.ofArray(b));
        }
        long x = KaitaiLayers.number(v, f);
        return FieldFormat.display(f, x);
    }
}

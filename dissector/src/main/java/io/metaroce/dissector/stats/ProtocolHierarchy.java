package io.metaroce.dissector.stats;

import io.metaroce.dissector.Dissection;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Spec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Protocol hierarchy statistics, counted frame by frame: what {@code dissect -z io,phs} prints and the GUI's Protocol
 * Hierarchy window shows. A frame counts once under each prefix of its layer stack (eth, eth:ip, eth:ip:udp, ...)
 * with its length on the wire; it "ends" at its last layer. A tree of the stacks met, each node a header below its
 * parent: no allocation per frame once the stacks are known, memory bounded by the distinct stacks. Not thread safe:
 * one per worker, {@link #merge}d.
 */
public final class ProtocolHierarchy {
    /**
     * A protocol under its parent: its path ("eth:ip:udp"), its header, its depth (0 at the top), the frames and
     * bytes that contain this path, and those whose last layer it is (Wireshark's End Packets and End Bytes).
     */
    public record Row(String path, HeaderDef header, int depth, long frames, long bytes, long endFrames, long endBytes) {
        /** The header's id, its display filter name (bth, udp, ...). */
        public String protocol() { return header.id(); }
    }

    private static final Node[] NONE = {};

    /** A node of the tree: a header below its parent, and the frames that had that stack. */
    private static final class Node {
        final int header;
        Node[] kids = NONE;
        int kidCount;
        long frames, bytes, first = Long.MAX_VALUE;

        Node(int header) { this.header = header; }

        Node kid(int h) {
            for (int k = 0; k < kidCount; k++) if (kids[k].header == h) return kids[k];
            if (kidCount == kids.length) kids = Arrays.copyOf(kids, Math.max(4, kidCount * 2));
            Node n = new Node(h);
            kids[kidCount++] = n;
            return n;
        }
    }

    private final Node root = new Node(-1);
    private long frames, bytes;

    /** Counts a frame under each prefix of its layer stack. */
    public void add(Dissection d) {
        long len = d.originalLength();
        frames++;
        bytes += len;
        Node n = root;
        for (int i = 0; i < d.layerCount(); i++) {
            n = n.kid(d.layerHeader(i));
            n.frames++;
            n.bytes += len;
            if (d.number() < n.first) n.first = d.number();
        }
    }

    /** Adds another worker's counts (workers see disjoint frames). */
    public void merge(ProtocolHierarchy o) {
        frames += o.frames;
        bytes += o.bytes;
        merge(root, o.root);
    }

    private static void merge(Node to, Node from) {
        for (int k = 0; k < from.kidCount; k++) {
            Node f = from.kids[k], t = to.kid(f.header);
            t.frames += f.frames;
            t.bytes += f.bytes;
            t.first = Math.min(t.first, f.first);
            merge(t, f);
        }
    }

    /** Every frame counted (also those with no layer): Wireshark's 100 %. */
    public long frames() { return frames; }

    /** The bytes on the wire of every frame counted. */
    public long bytes() { return bytes; }

    /** The tree depth first, siblings in the order of their first frame (tshark: the order in which they were met). */
    public List<Row> rows() {
        List<Row> out = new ArrayList<>();
        rows(root, "", 0, out);
        return out;
    }

    private static void rows(Node parent, String prefix, int depth, List<Row> out) {
        Node[] kids = Arrays.copyOf(parent.kids, parent.kidCount);
        Arrays.sort(kids, Comparator.comparingLong((Node n) -> n.first));
        for (Node n : kids) {
            HeaderDef h = Spec.HEADERS.get(n.header);
            String path = prefix.isEmpty() ? h.id() : prefix + ":" + h.id();
            long endFrames = n.frames, endBytes = n.bytes;
            for (int k = 0; k < n.kidCount; k++) {
                endFrames -= n.kids[k].frames;
                endBytes -= n.kids[k].bytes;
            }
            out.add(new Row(path, h, depth, n.frames, n.bytes, endFrames, endBytes));
            rows(n, path, depth + 1, out);
        }
    }
}

package io.metaroce.analysis;

import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.FrameBatch;
import io.metaroce.dissector.FramePipeline;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Follow RoCE QP Stream (tshark -z follow, Wireshark's Analyze > Follow): the RDMA payload of one QP connection in
 * capture order, node 0's blocks and node 1's. The unit is the QP connection, not the UDP stream (every QP between
 * two hosts shares UDP port 4791): a requester's QP flow and the responder's flow the analysis paired with it
 * (requests one way; ACKs and READ responses the other). Streams are numbered 0, 1, ... in the order their first
 * frame appears in the capture; a stream may also be named by either direction's flow id ({@code analysis.flow}).
 * Node 0 is the sender of the stream's first frame. A block is one frame's {@code payload.data} (without pad and
 * ICRC, as captured); frames without payload (ACKs, READ requests, CNPs) give none, as tshark skips empty blocks.
 *
 * <p>Memory: one number per flow direction (the streams' numbering) and the payload of the ONE stream followed,
 * capped at {@link #MAX_BYTES}: past it the blocks are counted but not kept ({@link #leftOut()}).
 */
public final class QpFollow {
    /** Payload bytes kept for one stream (docs/robustness.md). */
    public static final long MAX_BYTES = 64L << 20;

    /** One frame's payload: its frame number, node (0 or 1), capture time and bytes. */
    public record Block(long frame, int node, long timeNanos, byte[] data) { }

    /** tshark's display modes (and Wireshark's C Arrays) in the order the GUI lists them. */
    public enum Mode {
        ASCII("ascii"), HEX("hex"), C_ARRAYS("carrays"), RAW("raw"), YAML("yaml");

        public final String word;

        Mode(String word) { this.word = word; }

        /** The mode of a -z word, or null. */
        public static Mode of(String word) {
            for (Mode m : values()) if (m.word.equals(word)) return m;
            return null;
        }
    }

    private final int stream;
    private final String[] nodeFlow = new String[2];
    private final String[] nodeText = {":0", ":0"};
    private final List<Block> blocks = new ArrayList<>();
    private final long[] bytes = new long[2];
    private final List<Long> frames = new ArrayList<>();
    private long kept;
    private long leftOut;
    private int streams;

    private static final String GSI = "/0x000001";

    private QpFollow(int stream) { this.stream = stream; }

    /**
     * Reads the capture in order and keeps the payload of one stream: by number ({@code flowId} null) or by
     * either direction's flow id. {@code fields} reads the finished analysis (its pairing of the two directions).
     * Returns null when cancelled.
     */
    public static QpFollow collect(PacketSource src, DissectorConfig config, AnalysisFrameFields fields, int stream,
            String flowId, BooleanSupplier cancelled) throws InterruptedException {
        Collector c = new Collector(fields, stream, flowId);
        Dissector dissector = new Dissector(config);
        Dissection d = new Dissection();
        FramePipeline.run(src, 1, () -> new FramePipeline.Worker<Boolean>() {
            @Override
            public Boolean process(FrameBatch batch) {
                if (cancelled.getAsBoolean()) return false;
                for (int i = 0; i < batch.size(); i++) c.frame(batch.dissect(i, dissector, d));
                return true;
            }
        }, new FramePipeline.ResultSink<Boolean>() {
            @Override
            public boolean accept(Boolean more) { return more; }
        });
        return cancelled.getAsBoolean() ? null : c.result();
    }

    /**
     * The pass, fed every frame in capture order (dissected; the analysis need not be attached): numbers the
     * connections as met and keeps the chosen one's blocks. The GUI feeds it from its frame index.
     */
    public static final class Collector {
        private final AnalysisFrameFields fields;
        private final String flowId;
        /** Each direction's flow id (the flow's own string) to its connection's number. */
        private final Map<String, Integer> numbers = new HashMap<>();
        private int nextNumber;
        private int target;
        private QpFollow result;

        /** Follows stream number {@code stream}, or (flowId not null) the stream of that flow id. */
        public Collector(AnalysisFrameFields fields, int stream, String flowId) {
            this.fields = fields;
            this.flowId = flowId;
            this.target = flowId == null ? stream : -1;
            this.result = new QpFollow(target);
        }

        public void frame(Dissection d) {
            String[] ids = fields.flowIds(d);
            if (ids == null) return;
            // Management datagrams go QP 1 to QP 1 (the GSI) and are never paired: the two directions are one stream.
            if (ids[1] == null && ids[0].endsWith(GSI)) {
                String[] p = split(ids[0]);
                ids[1] = p[1] + ">" + p[0] + GSI;
            }
            Integer n = numbers.get(ids[0]);
            if (n == null) {
                n = ids[1] == null ? null : numbers.get(ids[1]);
                if (n == null) n = nextNumber++;
                numbers.put(ids[0], n);
                if (ids[1] != null) numbers.put(ids[1], n);
            }
            if (target < 0 && (ids[0].equals(flowId) || flowId.equals(ids[1]))) {
                target = n;
                result = new QpFollow(n);
            }
            if (n == target) result.add(d, ids);
        }

        /** The stream followed (empty when it never appeared), with the count of streams seen. */
        public QpFollow result() {
            result.streams = nextNumber;
            return result;
        }
    }

    private void add(Dissection d, String[] ids) {
        if (nodeFlow[0] == null) {
            nodeFlow[0] = ids[0];
            nodeFlow[1] = ids[1];
            // A flow id is "src>dst/0xQP": node 1 is dst with that QP; node 0's QP is the other direction's.
            String[] own = split(ids[0]);
            nodeText[0] = own[0] + ":" + (ids[1] == null ? "?" : split(ids[1])[2]);
            nodeText[1] = own[1] + ":" + own[2];
        }
        frames.add(d.number());
        int node = ids[0].equals(nodeFlow[0]) ? 0 : 1;
        int captured = d.payloadOffset() < 0 ? 0 : Math.min(d.payloadLength(), d.capturedLength() - d.payloadOffset());
        if (captured <= 0) return;
        bytes[node] += captured;
        if (kept + captured > MAX_BYTES) {
            leftOut += captured;
            return;
        }
        kept += captured;
        MemorySegment s = d.data().asSlice(d.payloadOffset(), captured);
        blocks.add(new Block(d.number(), node, d.timeNanos(), s.toArray(ValueLayout.JAVA_BYTE)));
    }

    /** "src>dst/0xQP" as {src, dst, 0xQP}. */
    private static String[] split(String flowId) {
        int gt = flowId.indexOf('>'), slash = flowId.lastIndexOf('/');
        return new String[] {flowId.substring(0, gt), flowId.substring(gt + 1, slash), flowId.substring(slash + 1)};
    }

    /** The stream's number (-1: a flow id that no frame had). */
    public int stream() { return stream; }

    /** How many streams the capture has (the numbers are 0 to this minus one). */
    public int streams() { return streams; }

    /** The stream's frames, with payload or without, in capture order. */
    public List<Long> frames() { return frames; }

    /** The payload blocks kept, in capture order. */
    public List<Block> blocks() { return blocks; }

    /** Payload bytes node 0 (0) or node 1 (1) sent, also those past the cap. */
    public long bytes(int node) { return bytes[node]; }

    /** Payload bytes past {@link #MAX_BYTES}, counted but not kept. */
    public long leftOut() { return leftOut; }

    /** A node as "address:0xQP" ("?" for a QP the analysis could not pair), ":0" for an empty stream (tshark's). */
    public String node(int node) { return nodeText[node]; }

    /** A node's flow id (what it sent), or null. */
    public String flowOf(int node) { return nodeFlow[node]; }

    /** The display filter selecting the stream's frames (null for an empty stream). */
    public String filter() {
        if (nodeFlow[0] == null) return null;
        String f = "analysis.flow == \"" + nodeFlow[0] + "\"";
        return nodeFlow[1] == null ? f : f + " || analysis.flow == \"" + nodeFlow[1] + "\"";
    }

    static final String RULE = "===================================================================\n";

    /**
     * The stream as tshark -z follow,roce,MODE prints it (yaml without the rules, as tshark). {@code only}: -1 both
     * nodes, else that node's blocks only (the GUI's direction chooser). {@code filterLine}: what "Filter:" says.
     */
    public String text(Mode mode, int only, String filterLine) {
        return text(mode, only, filterLine, 1, Integer.MAX_VALUE);
    }

    /** As {@link #text(Mode, int, String)}, with only the blocks (chunks, from 1) first to last, as tshark's RANGE. */
    public String text(Mode mode, int only, String filterLine, int first, int last) {
        StringBuilder b = new StringBuilder();
        if (mode == Mode.YAML) {
            yaml(b, only, first, last);
            return b.toString();
        }
        if (filterLine != null) {
            b.append('\n').append(RULE).append("Follow: roce,").append(mode.word).append('\n');
            b.append("Filter: ").append(filterLine).append('\n');
            b.append("Node 0: ").append(nodeText[0]).append('\n');
            b.append("Node 1: ").append(nodeText[1]).append('\n');
        }
        long[] pos = new long[2];
        int[] index = new int[2];
        int chunk = 0;
        for (Block k : blocks) {
            if (only >= 0 && k.node != only) continue;
            chunk++;
            if (chunk < first || chunk > last) continue;
            block(b, mode, k, pos[k.node], index[k.node]++);
            pos[k.node] += k.data.length;
        }
        if (filterLine != null) b.append(RULE);
        return b.toString();
    }

    /** One block's text; in the GUI each block is one piece, so that a click names its frame. */
    public static void block(StringBuilder b, Mode mode, Block k, long offset, int index) {
        String tab = k.node == 1 ? "\t" : "";
        byte[] data = k.data;
        switch (mode) {
            case ASCII -> {
                b.append(tab).append(data.length).append('\n');
                for (byte x : data) {
                    int c = x & 0xFF;
                    b.append(c == '\n' || c == '\r' || (c >= 0x20 && c < 0x7F) ? (char) c : '.');
                }
                b.append('\n');
            }
            case HEX -> hex(b, tab, data, offset);
            case RAW -> {
                b.append(tab);
                for (byte x : data) hex2(b, x);
                b.append('\n');
            }
            case C_ARRAYS -> {
                b.append("char peer").append(k.node).append('_').append(index).append("[] = { /* Packet ")
                        .append(k.frame).append(" */\n");
                for (int i = 0; i < data.length; i++) {
                    b.append("0x");
                    hex2(b, data[i]);
                    if (i < data.length - 1) b.append(i % 8 == 7 ? ",\n" : ", ");
                }
                b.append(" };\n");
            }
            case YAML -> throw new IllegalArgumentException("yaml is the whole stream's");
        }
    }

    /** tshark's hex dump: offset, 16 bytes in two groups of 8, their ASCII in two groups; node 1 after a tab. */
    private static void hex(StringBuilder b, String tab, byte[] data, long offset) {
        for (int at = 0; at < data.length; at += 16) {
            int n = Math.min(16, data.length - at);
            String off = Long.toHexString(offset + at).toUpperCase(java.util.Locale.ROOT);
            b.append(tab);
            for (int i = off.length(); i < 8; i++) b.append('0');
            b.append(off).append("  ");
            for (int j = 0; j < 16; j++) {
                if (j < n) {
                    hex2(b, data[at + j]);
                    b.append(' ');
                } else b.append("   ");
                if (j == 7) b.append(' ');
            }
            b.append(' ');
            for (int j = 0; j < n; j++) {
                if (j == 8) b.append(' ');
                int c = data[at + j] & 0xFF;
                b.append(c >= 0x20 && c < 0x7F ? (char) c : '.');
            }
            b.append('\n');
        }
    }

    private static void hex2(StringBuilder b, byte x) {
        b.append(Character.forDigit((x >> 4) & 0xF, 16)).append(Character.forDigit(x & 0xF, 16));
    }

    /** tshark's yaml: the peers, then each packet's number, peer, time and base64 data (76 characters a line). */
    private void yaml(StringBuilder b, int only, int first, int last) {
        b.append("peers:\n");
        for (int p = 0; p < 2; p++) {
            String t = nodeText[p];
            int colon = t.lastIndexOf(':');
            b.append("  - peer: ").append(p).append('\n');
            b.append("    host: ").append(colon < 0 ? "" : t.substring(0, colon)).append('\n');
            b.append("    qp: ").append(colon < 0 ? "" : t.substring(colon + 1)).append('\n');
        }
        b.append("packets:\n");
        int chunk = 0;
        for (Block k : blocks) {
            if (only >= 0 && k.node != only) continue;
            chunk++;
            if (chunk < first || chunk > last) continue;
            b.append("  - packet: ").append(k.frame).append('\n');
            b.append("    peer: ").append(k.node).append('\n');
            String frac = Long.toString(1_000_000_000L + Math.floorMod(k.timeNanos, 1_000_000_000L)).substring(1);
            b.append("    timestamp: ").append(Math.floorDiv(k.timeNanos, 1_000_000_000L)).append('.').append(frac).append('\n');
            b.append("    data: !!binary |\n");
            String s = Base64.getEncoder().encodeToString(k.data);
            for (int i = 0; i < s.length(); i += 76) b.append("      ").append(s, i, Math.min(s.length(), i + 76)).append('\n');
        }
    }
}

package io.metaroce.gui.search;

import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowExtract;
import io.metaroce.index.FlowSchema;
import java.nio.file.Path;
import java.util.List;

/**
 * One row of the flow search: a flow document of the index, reduced to what the results table shows and what
 * opening its packets needs (the capture's path, size and hash, the flow id).
 *
 * @param id the document id ({@code <capture hash>/<flow id>#0}), as {@code metaroce search -T jsonl} prints it
 * @param packets the flow's packet counter (the analyze JSON's {@code packets})
 * @param rules the conformance rules the flow broke (indexed with {@code --rules}; empty otherwise)
 */
public record FlowHit(String id, String rootId, String capturePath, long captureSize, String captureHash, String flow,
                      String src, String dst, long destQp, Long firstNs, Long lastNs, long packets,
                      long retransmissions, long naks, long ceMarks, long cnps, List<String> rules) {
    public FlowHit { rules = List.copyOf(rules); }

    static FlowHit of(FlowDocument d) {
        return new FlowHit(d.id(), d.getString(FlowSchema.ROOT_ID), d.getString(FlowSchema.CAPTURE_PATH),
                num(d, FlowSchema.CAPTURE_SIZE), d.getString(FlowSchema.CAPTURE_HASH), d.getString(FlowSchema.FLOW),
                d.getString(FlowSchema.SRC), d.getString(FlowSchema.DST), num(d, FlowSchema.DEST_QP),
                d.getLong(FlowSchema.FIRST), d.getLong(FlowSchema.LAST), num(d, "packets"), num(d, "retransmitted_packets"),
                num(d, "naks"), num(d, "ce_marks"), num(d, "cnps"),
                d.values(FlowSchema.RULES).stream().map(String::valueOf).toList());
    }

    private static long num(FlowDocument d, String field) {
        Long v = d.getLong(field);
        return v == null ? 0 : v;
    }

    /** The capture's file name (the table's Capture column; the whole path is its tooltip). */
    public String captureName() {
        Path p = Path.of(capturePath).getFileName();
        return p == null ? capturePath : p.toString();
    }

    /** The destination QP as the packet list and {@code search} print it, {@code 0x000201}. */
    public String destQpHex() { return String.format("0x%06x", destQp); }

    public int rulesBroken() { return rules.size(); }

    /** What extracting its packets needs ({@code metaroce extract}'s own entry point). */
    public FlowExtract.Flow extractRef() { return new FlowExtract.Flow(captureHash, rootId, flow); }
}

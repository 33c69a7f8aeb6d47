package io.metaroce.fuzz;

import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.ExpertItem;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.FrameTree;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Spec;

/**
 * What every dissection must satisfy, whatever the bytes: shared by the dissector and reader targets. A
 * violation throws {@link AssertionError}, which Jazzer reports as a finding.
 */
final class FrameContract {
    /** The dissector's last-resort message when a read escaped its bounds checks: a bug, not a verdict. */
    private static final String FALLBACK = "frame ends unexpectedly inside";

    private final FrameFields fields = new FrameFields();

    void check(Dissection d) {
        for (ExpertItem e : d.expert()) {
            if (e.severity() == null || e.message() == null || e.message().isBlank()) {
                throw new AssertionError("expert item without severity or message: " + e);
            }
            if (e.message().startsWith(FALLBACK)) {
                throw new AssertionError("a read was not bounds-checked: " + e.message());
            }
        }
        int previous = 0;
        for (int i = 0; i < d.layerCount(); i++) {
            HeaderDef h = d.layer(i);
            int off = d.layerOffset(i);
            if (off < previous || off + h.size() > d.capturedLength()) {
                throw new AssertionError("layer " + h.id() + " at " + off + " of a " + d.capturedLength() + "-byte frame");
            }
            previous = off;
        }
        // Everything -T fields, -V and -Y read must be readable.
        fields.of(d);
        d.protocols();
        for (FieldDef f : Spec.FIELDS) {
            int n = fields.count(f);
            for (int i = 0; i < n; i++) fields.value(f, i);
        }
        FrameTree.of(d, fields);
    }
}

package io.metaroce.gui.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaroce.analysis.FlowSummary;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FrameFields;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.gui.testutil.Sample;
import org.junit.jupiter.api.Test;

class ConversationRowTest {
    /** "Filter on this flow" selects exactly the flow's packets, for every flow of the sample. */
    @Test
    void flowFilterSelectsTheFlowsPackets() throws Exception {
        try (Sample s = Sample.open("metaroce-spray-lossy-path")) {
            Dissector dis = new Dissector();
            Dissection d = new Dissection();
            FrameFields ff = new FrameFields().of(d);
            for (FlowSummary f : s.session.flows()) {
                ConversationRow row = new ConversationRow(f);
                DisplayFilter flt = DisplayFilter.compile(row.filter(), FieldCatalog.get());
                long n = 0;
                for (int i = 1; i <= s.index.size(); i++) if (flt.matches(ff.of(s.index.dissect(i, dis, d)))) n++;
                assertEquals(f.counters().packets(), n, row.filter());
            }
            ConversationRow r = new ConversationRow(s.session.flow("10.0.0.1>10.0.0.2/0x000013"));
            assertEquals(8, r.retransmissions());
            assertEquals(3, r.spurious());
            assertEquals("0x000013", r.destQp());
            assertEquals(4L, r.paths());
        }
    }
}

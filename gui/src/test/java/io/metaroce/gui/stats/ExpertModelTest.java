package io.metaroce.gui.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.EventType;
import io.metaroce.gui.testutil.Sample;
import io.metaroce.protocol.RuleDef;
import io.metaroce.protocol.Severity;
import io.metaroce.validate.FileResult;
import org.junit.jupiter.api.Test;

class ExpertModelTest {
    /** Every event type counts as often as the analysis found it, every rule as often as validate did. */
    @Test
    void countsEqualAnalyzeAndValidate() throws Exception {
        try (Sample s = Sample.open("conformance-violations")) {
            FileResult v = s.validate();
            ExpertModel m = ExpertModel.of(s.session.events(), v);
            long events = 0;
            for (EventType t : EventType.values()) {
                assertEquals(s.session.events().count(t), m.count(t.label()), t.label());
                events += s.session.events().count(t);
            }
            long findings = 0;
            assertTrue(!v.rulesBroken().isEmpty());
            for (RuleDef r : v.rulesBroken()) {
                long[] c = v.counts(r.id());
                assertEquals(c[0] + c[1] + c[2], m.count(r.id()), r.id());
                findings += c[0] + c[1] + c[2];
            }
            assertEquals(events + findings, m.total());
            // Severities come worst first, and each level's count is the sum of its groups.
            Severity prev = Severity.ERROR;
            for (ExpertModel.SeverityNode sn : m.severities()) {
                assertTrue(sn.severity().compareTo(prev) <= 0);
                prev = sn.severity();
                assertEquals(sn.count(), sn.groups().stream().mapToLong(ExpertModel.GroupNode::count).sum());
            }
        }
    }

    /** The spray sample: 5 retransmissions and 3 spurious ones are notes, the path down an error, in their groups. */
    @Test
    void eventsLandInTheirSeverityAndGroup() throws Exception {
        try (Sample s = Sample.open("metaroce-spray-lossy-path")) {
            ExpertModel m = ExpertModel.of(s.session.events(), null);
            assertEquals(5, m.count("retransmission"));
            assertEquals(3, m.count("spurious_retransmission"));
            ExpertModel.SeverityNode errors = m.severities().get(0);
            assertEquals(Severity.ERROR, errors.severity());
            assertEquals("path", errors.groups().get(0).group());
            ExpertEntry down = errors.groups().get(0).rules().get(0).entries().get(0);
            assertEquals(s.session.events().of(EventType.PATH_DOWN).get(0).frame(), down.frame());
            assertTrue(down.message().startsWith("path 2 down"), down.message());
        }
    }
}

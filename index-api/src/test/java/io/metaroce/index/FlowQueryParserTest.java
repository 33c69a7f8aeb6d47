package io.metaroce.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.index.FlowQuery.And;
import io.metaroce.index.FlowQuery.IpRange;
import io.metaroce.index.FlowQuery.LongRange;
import io.metaroce.index.FlowQuery.Not;
import io.metaroce.index.FlowQuery.Or;
import io.metaroce.index.FlowQuery.Term;
import io.metaroce.index.FlowQuery.Wildcard;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlowQueryParserTest {
    private static FieldDef f(String n) { return FlowSchema.field(n); }

    private static long ns(String iso) {
        Instant i = Instant.parse(iso);
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    @Test
    void numericRangesOpenAndExclusive() {
        assertEquals(new LongRange(f("naks"), 5, Long.MAX_VALUE), FlowQueryParser.parse("naks:[5 TO *]"));
        assertEquals(new LongRange(f("naks"), 6, 9), FlowQueryParser.parse("naks:{5 TO 10}"));
        assertEquals(new LongRange(f("naks"), 6, Long.MAX_VALUE), FlowQueryParser.parse("naks:>5"));
        assertEquals(new LongRange(f("naks"), Long.MIN_VALUE, 5), FlowQueryParser.parse("naks:<=5"));
        assertEquals(new LongRange(f("naks"), 3, 3), FlowQueryParser.parse("naks:3"));
        assertEquals(new LongRange(f("naks"), Long.MAX_VALUE, Long.MAX_VALUE), FlowQueryParser.parse("naks:9223372036854775807"));
        assertEquals(new LongRange(f("first_ns"), Long.MIN_VALUE, Long.MIN_VALUE), FlowQueryParser.parse("first_ns:-9223372036854775808"));
        assertEquals(new LongRange(f("retransmissions_by_cause.nak"), 1, Long.MAX_VALUE),
                FlowQueryParser.parse("retransmissions_by_cause.nak:[1 TO *]"));
    }

    @Test
    void hexQpsAndAliases() {
        assertEquals(new LongRange(f("dest_qp"), 0x201, 0x201), FlowQueryParser.parse("dest_qp:0x000201"));
        assertEquals(new LongRange(f("dest_qp"), 0x201, 0x201), FlowQueryParser.parse("qp:513"));
        assertEquals(new LongRange(f("paths.3.ce_marks"), 1, Long.MAX_VALUE), FlowQueryParser.parse("paths.3.ce_marks:>=1"));
    }

    @Test
    void ipsAndCidr() throws Exception {
        IpRange q = (IpRange) FlowQueryParser.parse("src:10.0.0.0/24");
        assertEquals("10.0.0.0", IpAddresses.text(q.lo()));
        assertEquals("10.0.0.255", IpAddresses.text(q.hi()));
        IpRange one = (IpRange) FlowQueryParser.parse("dst:10.0.0.2");
        assertEquals(one.lo(), one.hi());
        IpRange v6 = (IpRange) FlowQueryParser.parse("src:fd00::/120");
        assertEquals("fd00::", IpAddresses.text(v6.lo()));
        assertEquals("fd00::ff", IpAddresses.text(v6.hi()));
        IpRange r = (IpRange) FlowQueryParser.parse("src:[10.0.0.1 TO 10.0.0.9]");
        assertEquals("10.0.0.9", IpAddresses.text(r.hi()));
    }

    @Test
    void humanTimesCoverTheirSpan() {
        assertEquals(new LongRange(f("first_ns"), ns("2026-11-30T02:00:00Z"), ns("2026-11-30T02:11:00Z") - 1),
                FlowQueryParser.parse("first:[2026-11-30T02:00 TO 2026-11-30T02:10]"));
        assertEquals(new LongRange(f("last_ns"), ns("2026-11-30T01:00:05.250Z"), ns("2026-11-30T01:00:05.260Z") - 1),
                FlowQueryParser.parse("last:2026-11-30T02:00:05.25+01:00"));
        assertEquals(new LongRange(f("first_ns"), ns("2026-11-30T00:00:00Z"), ns("2026-12-01T00:00:00Z") - 1),
                FlowQueryParser.parse("first_ns:2026-11-30"));
        assertEquals(new LongRange(f("first_ns"), 17, 17), FlowQueryParser.parse("first_ns:17"));
    }

    @Test
    void keywordsWildcardsAndQuotes() {
        assertEquals(new Wildcard(f("rules"), "MR-RTX-*"), FlowQueryParser.parse("rule:MR-RTX-*"));
        assertEquals(new Term(f("rules"), "MR-RTX-001"), FlowQueryParser.parse("rule:MR-RTX-001"));
        assertEquals(new Term(f("flow"), "10.0.0.1>10.0.0.2/0x000201"), FlowQueryParser.parse("flow:\"10.0.0.1>10.0.0.2/0x000201\""));
        assertEquals(new Term(f("capture_path"), "/a b/c*.pcap"), FlowQueryParser.parse("capture:\"/a b/c*.pcap\""));
        assertEquals(new FlowQuery.Exists(f("ce_without_cnp")), FlowQueryParser.parse("ce_without_cnp:*"));
        assertEquals(new FlowQuery.MatchAll(), FlowQueryParser.parse("*:*"));
    }

    @Test
    void booleanStructureAndPrecedence() {
        FlowQuery q = FlowQueryParser.parse("naks:>0 OR cnps:>0 AND NOT transport:metaroce");
        Or or = assertInstanceOf(Or.class, q);
        And and = assertInstanceOf(And.class, or.parts().get(1));
        assertInstanceOf(Not.class, and.parts().get(1));
        assertEquals(FlowQueryParser.parse("(naks:>0 || (cnps:>0 && !transport:metaroce))"), q);
        assertEquals(FlowQueryParser.parse("naks:>0 AND -rule:X"), FlowQueryParser.parse("naks:>0 NOT rule:X").equals(null) ? null
                : FlowQueryParser.parse("naks:>0 and not rule:X"));
        And implicit = assertInstanceOf(And.class, FlowQueryParser.parse("service:rc  naks:[1 TO *]"));
        assertEquals(2, implicit.parts().size());
        Or grouped = assertInstanceOf(Or.class, FlowQueryParser.parse("dest_qp:(0x201 OR 0x202)"));
        assertEquals(new LongRange(f("dest_qp"), 0x202, 0x202), grouped.parts().get(1));
    }

    @Test
    void aBareValueSearchesTheDefaultFieldsItFits() {
        Or ip = assertInstanceOf(Or.class, FlowQueryParser.parse("10.0.0.0/24"));
        assertEquals(List.of("src", "dst"), ip.parts().stream().map(p -> ((IpRange) p).field().name()).toList());
        Or word = assertInstanceOf(Or.class, FlowQueryParser.parse("nak"));
        assertEquals(3, word.parts().size()); // flow, rules, events: not an IP
    }

    @Test
    void errorsNameTheirColumn() {
        assertColumn(11, "naks:[5 TO", "a range bound was expected");
        assertColumn(9, "naks:[5 X 6]", "'TO' expected");
        assertColumn(1, "nakz:5", "unknown field 'nakz' (did you mean naks");
        assertColumn(9, "dest_qp:0xZZ", "not an integer");
        assertColumn(5, "src:10.0.0.300", "not an IP address");
        assertColumn(1, "(naks:1 OR cnps:2", "'(' at column 1 is never closed");
        assertColumn(8, "naks:1 )", "')' without a matching '('");
        assertColumn(11, "naks:1 AND", "the query ends where a term was expected");
        assertColumn(11, "transport:[a TO b]", "keyword field");
        assertColumn(7, "first:2026-13-01", "not a valid time");
        assertColumn(1, "offsets:1", "stored only");
        assertColumn(1, "   ", "empty query");
        assertColumn(12, "naks:1 AND AND cnps:1", "an operator where a term was expected");
        assertColumn(3, "a <<x*", "a comparison needs a field");
        assertColumn(7, "flow:(<x*)", "keyword field");
    }

    @Test
    void aComparisonInsideAFieldGroupIsOneOnThatField() {
        assertEquals(new LongRange(f("naks"), 6, Long.MAX_VALUE), FlowQueryParser.parse("naks:(>5)"));
    }

    private static void assertColumn(int column, String query, String words) {
        QuerySyntaxException e = assertThrows(QuerySyntaxException.class, () -> FlowQueryParser.parse(query));
        assertEquals(column, e.column(), e.getMessage());
        assertTrue(e.getMessage().contains(words), e.getMessage());
    }

    @Test
    void canonicalTextParsesBackToTheSameTree() {
        for (String q : List.of("naks:[5 TO *] AND dest_qp:0x201", "src:10.0.0.0/24 OR dst:fd00::1", "rule:MR-RTX-*",
                "flow:\"a b\\\"c\"", "NOT (events:nak OR last:[2026-11-30T02:00 TO *])", "paths.2.loss_rate:[0.5 TO *]",
                "nak", "*:*", "ce_without_cnp:*", "capture:\"AND\"", "naks:{9223372036854775806 TO *]",
                "paths.1.loss_rate:{0 TO *]", "paths.1.loss_rate:{* TO 1}", "first_ns:<=2026-11-30", "dest_qp:{* TO 0xFFFFFF}")) {
            FlowQuery tree = FlowQueryParser.parse(q);
            assertEquals(tree, FlowQueryParser.parse(tree.toString()), q + " -> " + tree);
        }
    }

    @Test
    void everyAcceptedTreePrintsAsAcceptedText() {
        // 64 NOTs are the deepest tree accepted; its canonical text nests each one in parentheses
        String deepest = "!".repeat(64) + "naks:1";
        FlowQuery tree = FlowQueryParser.parse(deepest);
        assertEquals(tree, FlowQueryParser.parse(tree.toString()));
        assertColumn(1, "!".repeat(65) + "naks:1", "nested deeper than 64 levels");
    }

    @Test
    void deepNestingIsAnErrorNotAStackOverflow() {
        String q = "(".repeat(10_000) + "naks:1" + ")".repeat(10_000);
        assertTrue(assertThrows(QuerySyntaxException.class, () -> FlowQueryParser.parse(q)).getMessage().contains("nested deeper"));
    }
}

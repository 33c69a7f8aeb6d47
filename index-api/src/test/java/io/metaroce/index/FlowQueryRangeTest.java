package io.metaroce.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.index.FlowQuery.LongRange;
import io.metaroce.index.FlowQuery.Or;
import org.junit.jupiter.api.Test;

/**
 * What the flow query parser refuses because no flow could match it: a value outside its field's range (a QP
 * number is 24 bits, a count never negative, a path id 16 bits, a rate a fraction), a range no value lies in, a
 * field clause without its field. Each used to parse, and the search said "0 flows match".
 */
class FlowQueryRangeTest {

    /**
     * A value no flow can hold, and a range no value lies in, are errors naming the field's range: before, each
     * silently matched nothing ("0 flows match"), which reads as "no such flow" (dest_qp:0x1000000, naks:[10 TO 1]).
     */
    @Test
    void valuesOutsideAFieldsRangeAndEmptyRangesAreErrors() {
        assertColumn(9, "dest_qp:0x1000000", "'0x1000000' is out of range for 'dest_qp' (0 to 0xFFFFFF: a QP number is 24 bits)");
        assertColumn(9, "dest_qp:-1", "out of range for 'dest_qp'");
        assertColumn(4, "qp:16777216", "out of range for 'dest_qp'");
        assertColumn(9, "src_qps:0x1000000", "out of range for 'src_qps'");
        assertColumn(15, "dest_qp:[0 TO 0x1000000]", "out of range for 'dest_qp'");
        assertColumn(10, "dest_qp:>0xFFFFFFFF", "out of range for 'dest_qp'");
        assertColumn(6, "naks:-1", "'-1' is out of range for 'naks' (0 or more)");
        assertColumn(7, "naks:[-5 TO 5]", "out of range for 'naks'");
        assertColumn(10, "path_ids:65536", "out of range for 'path_ids' (0 to 65535: a MetaRoCE path id is 16 bits)");
        assertColumn(12, "path_count:70000", "out of range for 'path_count'");
        assertColumn(19, "paths.1.loss_rate:2", "'2' is out of range for 'paths.1.loss_rate' (0 to 1: a fraction)");
        assertColumn(25, "paths.1.loss_rate:[* TO -0.5]", "out of range");
        assertColumn(1, "paths.70000.packets:1", "path id 70000 in 'paths.70000.packets' is beyond 65535");
        // inverted or empty ranges
        assertColumn(6, "naks:[10 TO 1]", "the range is empty: no value lies between its bounds");
        assertColumn(6, "naks:{5 TO 5}", "the range is empty");
        assertColumn(7, "first:[2026-11-30T02:10 TO 2026-11-30T02:00]", "the range is empty");
        assertColumn(5, "src:[10.0.0.9 TO 10.0.0.1]", "the range is empty");
        assertColumn(5, "src:[10.0.0.1 TO ::1]", "both be IPv4 or both IPv6");
        // ranges that lie outside the field's values
        assertColumn(6, "naks:<0", "the range matches nothing: 'naks' is 0 or more");
        assertColumn(9, "dest_qp:>0xFFFFFF", "the range matches nothing: 'dest_qp' is 0 to 0xFFFFFF");
        assertColumn(6, "naks:{9223372036854775807 TO *]", "matches nothing");
        assertColumn(19, "paths.1.loss_rate:>1", "matches nothing");
        assertColumn(10, "first_ns:<-9223372036854775808", "matches nothing");
        // the edges are values
        assertEquals(new LongRange(f("dest_qp"), 0xFFFFFF, 0xFFFFFF), FlowQueryParser.parse("dest_qp:0xFFFFFF"));
        assertEquals(new LongRange(f("dest_qp"), 0, 0), FlowQueryParser.parse("dest_qp:0"));
        assertEquals(new LongRange(f("path_ids"), 65535, 65535), FlowQueryParser.parse("path_ids:65535"));
        assertEquals(new LongRange(f("naks"), Long.MIN_VALUE, 0), FlowQueryParser.parse("naks:<1"));
    }

    @Test
    void aFieldClauseWithoutItsFieldIsAnError() {
        assertColumn(1, ":5", "a field name is missing before ':'");
        assertColumn(12, "naks:1 AND :x", "a field name is missing before ':'");
        assertEquals(2, assertInstanceOf(Or.class, FlowQueryParser.parse("::1")).parts().size()); // src or dst ::1
    }

    private static FieldDef f(String name) { return FlowSchema.field(name); }

    private static void assertColumn(int column, String query, String words) {
        QuerySyntaxException e = assertThrows(QuerySyntaxException.class, () -> FlowQueryParser.parse(query));
        assertEquals(column, e.column(), e.getMessage());
        assertTrue(e.getMessage().contains(words), e.getMessage());
    }
}

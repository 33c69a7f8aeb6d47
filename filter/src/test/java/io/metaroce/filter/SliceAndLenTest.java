package io.metaroce.filter;

import static io.metaroce.filter.TestFields.compile;
import static io.metaroce.filter.TestFields.compileError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.filter.TestFields.Frame;
import org.junit.jupiter.api.Test;

/** Wireshark's slices, len() and "contains" on protocols and addresses. */
class SliceAndLenTest {
    private static Frame frame() {
        return TestFields.frame()
                .add(TestFields.ETH_SRC, TestFields.mac("02:00:00:00:00:0a"))
                .add(TestFields.ETH_DST, TestFields.mac("02:00:00:00:00:14"))
                .add(TestFields.IP_SRC, TestFields.ip("10.0.0.1"))
                .add(TestFields.PAYLOAD, TestFields.bytes(0xde, 0xad, 0xbe, 0xef, 0x01))
                .add(TestFields.ICRC_STATUS, "good")
                .add(TestFields.BTH_PSN, 7)
                // A protocol's value is its bytes: opcode 0x11 first.
                .add(TestFields.BTH, TestFields.bytes(0x11, 0x40, 0xff, 0xff, 0x00, 0x00, 0x00, 0x12, 0x00, 0x00, 0x00, 0x07));
    }

    private static boolean m(String filter) {
        return compile(filter).matches(frame());
    }

    @Test
    void slicesFollowWiresharksRangeForms() {
        assertTrue(m("eth.src[0:3] == 02:00:00"));          // start 0, length 3
        assertFalse(m("eth.src[0:3] == 02:00:01"));
        assertTrue(m("eth.src[5] == 0a"));                  // one byte
        assertTrue(m("eth.src[-1] == 0x0a"));               // from the end
        assertTrue(m("eth.src[1-2] == 00:00"));             // 1 to 2 inclusive
        assertTrue(m("payload[2:] == be:ef:01"));           // to the end
        assertTrue(m("payload[:2] == de:ad"));
        assertTrue(m("payload[0,4] == de:01"));             // several ranges, concatenated
        assertTrue(m("ip.src[0] == 0a"));
        assertTrue(m("icrc.status[0:2] == \"go\""));
        assertTrue(m("bth[0] == 0x11"), "a protocol sliced: its first byte");
        assertFalse(m("payload[4:2]"), "a range past the end: no value, as in Wireshark");
        assertTrue(m("payload[4:1]"));
    }

    @Test
    void lenIsTheByteLengthOfTheValue() {
        assertTrue(m("len(eth.src) == 6"));
        assertTrue(m("len(payload) == 5 && len(payload[1:]) == 4"));
        assertTrue(m("len(bth) == 12"));
        assertTrue(m("len(icrc.status) > 3"));
        assertFalse(m("len(payload) < 5"));
    }

    @Test
    void containsWorksOnProtocolsAndAddresses() {
        assertTrue(m("bth contains ff:ff:00"));
        assertFalse(m("bth contains ab:cd"));
        assertTrue(m("eth.src contains 00:0a"));
        assertTrue(m("payload contains be:ef"));
    }

    @Test
    void normalizedTextKeepsSlicesAndLen() {
        DisplayFilter f = compile("len( payload )>1 and eth.src[0:3]==02:00:00");
        assertEquals("len(payload) > 1 and eth.src[0:3] == 02:00:00", f.toString());
        assertEquals(f.toString(), compile(f.toString()).toString());
        assertTrue(f.referencedFields().contains(TestFields.PAYLOAD), "the base field is what the filter reads");
    }

    @Test
    void errorsPointAtTheColumn() {
        FilterException e = compileError("bth.psn[0] == 1");
        assertEquals(8, e.column(), e.formatted());
        assertTrue(e.getMessage().contains("cannot be sliced"), e.getMessage());
        e = compileError("eth.src[0:x] == 02");
        assertEquals(9, e.column(), e.formatted());
        e = compileError("size(eth.src) == 6");
        assertEquals(1, e.column(), e.formatted());
        e = compileError("len(bth.psn) == 3");
        assertEquals(5, e.column(), e.formatted());
        e = compileError("eth.src[0:3 == 02");
        assertTrue(e.getMessage().contains("["), e.formatted());
        e = compileError("len(nosuch.field) == 1");
        assertEquals(5, e.column(), e.formatted());
    }
}

package io.metaroce.filter;

import static io.metaroce.filter.TestFields.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DisplayFilterTest {

    /** A RoCEv2 RC SEND with two VLAN tags and a few analysis fields. */
    private static Frame send() {
        return frame().present(BTH)
                .add(BTH_PSN, 100).add(BTH_OPCODE, 4).add(BTH_SE, 1).add(BTH_FLAGS, 0xC2).add(BTH_DESTQP, 0x12)
                .add(IP_SRC, ip("10.0.0.1")).add(IP_DST, ip("10.0.1.2"))
                .add(ETH_SRC, mac("02:00:00:00:00:0a")).add(ETH_DST, mac("02:00:00:00:00:0b"))
                .add(VLAN_ID, 100, 200)
                .add(PAYLOAD, bytes(0xde, 0xad, 0xbe, 0xef, 0x01))
                .add(ICRC_STATUS, "good")
                .add(CAUSE, "Timeout after 3 retries")
                .add(DELTA, -5)
                .add(FRAME_NUMBER, 7);
    }

    private static boolean m(String filter, FieldAccessor frame) {
        return compile(filter).matches(frame);
    }

    private static void yes(String filter, FieldAccessor frame) {
        assertTrue(m(filter, frame), () -> "expected match: " + filter);
    }

    private static void no(String filter, FieldAccessor frame) {
        assertFalse(m(filter, frame), () -> "expected no match: " + filter);
    }

    // ------------------------------------------------------------------ comparisons

    @Test
    void comparisonOperatorsAndWordForms() {
        Frame f = send();   // bth.psn == 100
        yes("bth.psn == 100", f);
        no("bth.psn == 101", f);
        yes("bth.psn eq 100", f);
        yes("bth.psn any_eq 100", f);
        yes("bth.psn != 101", f);
        no("bth.psn != 100", f);
        yes("bth.psn ne 99", f);
        yes("bth.psn all_ne 99", f);
        yes("bth.psn < 101", f);
        no("bth.psn < 100", f);
        yes("bth.psn lt 101", f);
        yes("bth.psn <= 100", f);
        no("bth.psn <= 99", f);
        yes("bth.psn le 100", f);
        yes("bth.psn > 99", f);
        no("bth.psn > 100", f);
        yes("bth.psn gt 99", f);
        yes("bth.psn >= 100", f);
        no("bth.psn >= 101", f);
        yes("bth.psn ge 100", f);
        yes("bth.psn===100", f);
        yes("bth.psn all_eq 100", f);
        no("bth.psn !== 100", f);
        no("bth.psn ~= 100", f);
        yes("bth.psn any_ne 5", f);
    }

    @Test
    void integerLiteralForms() {
        Frame f = send();   // bth.psn == 100, bth.destqp == 0x12
        yes("bth.psn == 0x64", f);
        yes("bth.psn == 0X64", f);
        yes("bth.psn == 0144", f);          // octal
        yes("bth.psn == 0b1100100", f);     // binary
        yes("bth.psn == 'd'", f);           // character constant, 'd' == 100
        yes("bth.psn == '\\x64'", f);
        yes("bth.psn == '\\144'", f);
        yes("bth.destqp == 18", f);
        no("bth.destqp == 012", f);         // octal 10, not 12
    }

    @Test
    void unsignedAndSignedOrdering() {
        Frame big = frame().add(BTH_PSN, -1L);   // 2^64-1 as unsigned
        yes("bth.psn > 0", big);
        yes("bth.psn == 18446744073709551615", big);
        yes("bth.psn == 0xffffffffffffffff", big);
        no("bth.psn < 9223372036854775807", big);

        Frame f = send();                        // analysis.delta == -5
        yes("analysis.delta < 0", f);
        yes("analysis.delta == -5", f);
        yes("analysis.delta == -0x5", f);
        yes("analysis.delta > -10", f);
        no("analysis.delta >= 0", f);
        yes("analysis.delta in {-10..-1}", f);
        yes("analysis.delta >= -9223372036854775808", f);
    }

    @Test
    void booleanLiterals() {
        Frame set = send();
        Frame clear = frame().add(BTH_SE, 0);
        yes("bth.se == true", set);
        yes("bth.se == TRUE", set);
        yes("bth.se == 1", set);
        yes("bth.se == 5", set);                 // any non-zero number is true
        no("bth.se == false", set);
        yes("bth.se == false", clear);
        yes("bth.se == 0", clear);
        yes("bth.se", clear);                    // presence, not truth
        no("bth.se != 0", clear);
    }

    // ------------------------------------------------------------------ multiple occurrences

    @Test
    void multipleOccurrencesFollowWireshark4() {
        Frame f = send();   // vlan.id = 100, 200
        yes("vlan.id == 100", f);
        yes("vlan.id == 200", f);
        no("vlan.id == 300", f);
        no("vlan.id != 100", f);                 // != means: no occurrence equals
        no("vlan.id != 200", f);
        yes("vlan.id != 300", f);
        no("vlan.id === 100", f);                // === means: all occurrences equal
        yes("vlan.id === 100", frame().add(VLAN_ID, 100, 100));
        yes("vlan.id !== 100", f);               // !== means: some occurrence differs
        yes("vlan.id ~= 100", f);
        no("vlan.id !== 100", frame().add(VLAN_ID, 100, 100));
        yes("vlan.id > 150", f);
        no("all vlan.id > 150", f);
        yes("all vlan.id > 50", f);
        yes("any vlan.id != 100", f);
        no("all vlan.id == 100", f);
        yes("not vlan.id == 300", f);
        assertEquals("not vlan.id == 100", compile("!(vlan.id == 100)").toString());
    }

    @Test
    void comparisonsOnAnAbsentFieldAreFalseButTheirNegationIsTrue() {
        Frame empty = frame();
        no("bth.psn == 5", empty);
        no("bth.psn != 5", empty);               // Wireshark: implicit "exists"
        no("bth.psn === 5", empty);
        no("all bth.psn > 1", empty);
        no("bth.psn not in {1 2}", empty);
        yes("not bth.psn == 5", empty);
        yes("!(bth.psn == 5)", empty);
        yes("not bth.psn in {1 2}", empty);
    }

    // ------------------------------------------------------------------ logic

    @Test
    void logicalOperatorsAndSymbols() {
        Frame f = send();
        yes("bth.psn == 100 and bth.opcode == 4", f);
        yes("bth.psn == 100 && bth.opcode == 4", f);
        no("bth.psn == 100 and bth.opcode == 5", f);
        yes("bth.psn == 1 or bth.opcode == 4", f);
        yes("bth.psn == 1 || bth.opcode == 4", f);
        no("bth.psn == 1 || bth.opcode == 5", f);
        yes("not mrth", f);
        yes("!mrth", f);
        no("!bth", f);
        yes("bth xor mrth", f);
        yes("bth ^^ mrth", f);
        no("bth xor bth", f);
        yes("bth xor bth xor bth", f);           // n-ary xor is parity
        yes("!!bth", f);
        yes("not not bth", f);
    }

    /** not > and > xor > or, checked against Java on all 16 combinations of four presence fields. */
    @Test
    void precedenceMatchesWireshark() {
        record Case(String filter, java.util.function.Predicate<boolean[]> expected, String normalized) {
        }
        List<Case> cases = List.of(
                new Case("not bth and mrth", v -> !v[0] && v[1], "not bth and mrth"),
                new Case("not (bth and mrth)", v -> !(v[0] && v[1]), "not (bth and mrth)"),
                new Case("bth or mrth and analysis.nak", v -> v[0] || (v[1] && v[2]), "bth or mrth and analysis.nak"),
                new Case("(bth or mrth) and analysis.nak", v -> (v[0] || v[1]) && v[2], "(bth or mrth) and analysis.nak"),
                new Case("bth xor mrth and analysis.nak", v -> v[0] ^ (v[1] && v[2]), "bth xor mrth and analysis.nak"),
                new Case("bth or mrth xor analysis.nak", v -> v[0] || (v[1] ^ v[2]), "bth or mrth xor analysis.nak"),
                new Case("bth xor mrth or analysis.nak", v -> (v[0] ^ v[1]) || v[2], "bth xor mrth or analysis.nak"),
                new Case("bth and not mrth or analysis.nak and not icrc.status",
                        v -> (v[0] && !v[1]) || (v[2] && !v[3]), "bth and not mrth or analysis.nak and not icrc.status"),
                new Case("!bth || mrth && !(analysis.nak ^^ icrc.status)",
                        v -> !v[0] || (v[1] && !(v[2] ^ v[3])), "not bth or mrth and not (analysis.nak xor icrc.status)"),
                new Case("bth and (mrth or (analysis.nak and (icrc.status)))",
                        v -> v[0] && (v[1] || (v[2] && v[3])), "bth and (mrth or analysis.nak and icrc.status)"));
        for (Case c : cases) {
            DisplayFilter df = compile(c.filter());
            assertEquals(c.normalized(), df.toString(), c.filter());
            for (int bits = 0; bits < 16; bits++) {
                boolean[] v = {(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0, (bits & 8) != 0};
                Frame f = frame();
                if (v[0]) {
                    f.present(BTH);
                }
                if (v[1]) {
                    f.present(MRTH);
                }
                if (v[2]) {
                    f.present(NAK);
                }
                if (v[3]) {
                    f.add(ICRC_STATUS, "good");
                }
                assertEquals(c.expected().test(v), df.matches(f), c.filter() + " with " + java.util.Arrays.toString(v));
            }
        }
    }

    // ------------------------------------------------------------------ membership

    @Test
    void membershipWithSpacesCommasAndRanges() {
        Frame f = send();   // bth.psn 100, vlan.id 100 and 200
        yes("bth.psn in {1 2 100}", f);
        yes("bth.psn in {1, 2, 100}", f);
        no("bth.psn in {1, 2, 3}", f);
        yes("bth.psn in {10..20 30 90..110}", f);
        yes("bth.psn in {100..100}", f);
        no("bth.psn in {10..20 30}", f);
        yes("bth.psn in {0x60..0x70}", f);
        yes("bth.psn not in {1 2 3}", f);
        no("bth.psn not in {99..101}", f);
        yes("not bth.psn in {1 2 3}", f);
        no("not bth.psn in {100}", f);
        yes("vlan.id in {200}", f);              // any occurrence
        no("vlan.id not in {200}", f);           // all occurrences must be outside
        yes("vlan.id not in {300..400}", f);
        no("all vlan.id in {200}", f);
        yes("all vlan.id in {100 200}", f);
        // more than eight points: the binary-search path
        yes("bth.psn in {1 2 3 4 5 6 7 8 9 10 11 100}", f);
        no("bth.psn in {1 2 3 4 5 6 7 8 9 10 11 101}", f);
        // unsigned values above 2^63 keep their order
        Frame big = frame().add(BTH_PSN, 0x8000000000000005L);
        yes("bth.psn in {0x8000000000000000..0x8000000000000010}", big);
        no("bth.psn in {0..0x7fffffffffffffff}", big);
        yes("bth.psn in {0x10..0xffffffffffffffff}", big);     // a range across 2^63
        yes("bth.psn in {0x10..0xffffffffffffffff}", f);
        no("bth.psn in {0x8000000000000006..0xffffffffffffffff}", big);
        yes("bth.psn in {1 2 3 4 5 6 7 8 9 10 0x8000000000000005 0xffffffffffffffff}", big);
        no("bth.psn in {1 2 3 4 5 6 7 8 9 10 0x8000000000000004 0xffffffffffffffff}", big);
    }

    @Test
    void membershipForSymbolsAddressesAndStrings() {
        Frame f = send();
        yes("bth.opcode in {RC_SEND_ONLY RC_ACK}", f);
        yes("bth.opcode in {\"RC_SEND_ONLY\", 17}", f);
        no("bth.opcode in {RC_ACK, RC_RDMA_WRITE_ONLY}", f);
        yes("bth.opcode in {RC_SEND_ONLY..RC_RDMA_WRITE_ONLY}", f);
        yes("ip.src in {192.168.0.1 10.0.0.0/24}", f);
        yes("ip.src in {10.0.0.0 .. 10.0.0.5}", f);
        yes("ip.src in {10.0.0.0..10.0.0.5}", f);
        no("ip.src in {10.0.0.2..10.0.0.5 10.0.1.0/24}", f);
        yes("eth.src in {02:00:00:00:00:0a 02:00:00:00:00:0b}", f);
        yes("icrc.status in {\"good\" \"bad\"}", f);
        no("icrc.status in {\"bad\", \"unknown\"}", f);
        yes("icrc.status in {\"a\"..\"h\"}", f);
        Frame v6 = frame().add(IPV6_SRC, ip6("2001:db8::1"));
        yes("ipv6.src in {fe80::/10 2001:db8::/32}", v6);
        yes("ipv6.src in {2001:db8::..2001:db8::ff}", v6);
        no("ipv6.src in {fe80::/10 ::1}", v6);
        yes("payload in {de:ad:be:ef:01 00:01}", f);
    }

    // ------------------------------------------------------------------ addresses

    @Test
    void ipv4AndCidr() {
        Frame f = send();   // ip.src 10.0.0.1, ip.dst 10.0.1.2
        yes("ip.src == 10.0.0.1", f);
        no("ip.src == 10.0.0.2", f);
        yes("ip.src == 10.0.0.0/24", f);
        yes("ip.src == 10.0.0.77/24", f);        // host bits of the literal are ignored
        yes("ip.src == 10.0.0.1/32", f);
        no("ip.src == 10.0.0.2/32", f);
        yes("ip.src == 0.0.0.0/0", f);
        no("ip.src == 10.0.1.0/24", f);
        yes("ip.src != 10.0.1.0/24", f);
        no("ip.src != 10.0.0.0/8", f);
        yes("ip.dst eq 10.0.0.0/23", f);
        yes("ip.src < ip.dst", f);
        yes("ip.src > 9.255.255.255", f);
        yes("ip.src != ip.dst", f);
        yes("ip.src & 255.255.255.0 == 10.0.0.0", f);
        yes("ip.src == \"10.0.0.1\"", f);        // quoted address is parsed too
        Frame high = frame().add(IP_SRC, ip("200.1.2.3"));
        yes("ip.src > 10.0.0.0", high);          // compared as unsigned
        yes("ip.src == 200.0.0.0/8", high);
    }

    @Test
    void signExtendedAddressValuesFromTheAccessorStillMatch() {
        Frame f = frame().add(IP_SRC, (long) (int) ip("200.1.2.3")).add(ETH_SRC, mac("ff:ff:ff:ff:ff:fe") | 0xffff_0000_0000_0000L);
        yes("ip.src == 200.1.2.3", f);
        yes("ip.src == 200.0.0.0/8", f);
        yes("ip.src in {200.1.2.0..200.1.2.9}", f);
        yes("ip.src > 10.0.0.1", f);
        yes("eth.src == ff:ff:ff:ff:ff:fe", f);
        yes("eth.src & ff:00:00:00:00:00 == ff:00:00:00:00:00", f);
    }

    @Test
    void ipv6AndPrefixes() {
        Frame f = frame().add(IPV6_SRC, ip6("2001:db8:1::5")).add(IPV6_DST, ip6("fe80::1"));
        yes("ipv6.src == 2001:db8:1::5", f);
        yes("ipv6.src == 2001:0db8:0001:0000:0000:0000:0000:0005", f);
        no("ipv6.src == 2001:db8:1::6", f);
        yes("ipv6.src == 2001:db8::/32", f);
        yes("ipv6.src == 2001:db8:0:0::/33", f);  // non-byte-aligned prefix (bit 33 of ...:0001:... is 0)
        no("ipv6.src == 2001:db8:8000::/33", f);
        yes("ipv6.src == 2001:db8::/47", f);      // bits after the prefix (the 1 in ":1::") are ignored
        no("ipv6.src == 2001:db8::/48", f);
        yes("ipv6.src in {2001:db8::/47}", f);
        no("ipv6.src == fe80::/10", f);
        yes("ipv6.dst == fe80::/10", f);
        yes("ipv6.dst == fe80::1", f);
        yes("ipv6.dst != fe80::2", f);
        yes("ipv6.src != fe80::/10", f);
        yes("ipv6.src == ::/0", f);
        yes("ipv6.src < ipv6.dst", f);           // 0x20... < 0xfe...
        yes("ipv6.src > 2001:db8::", f);
        Frame mapped = frame().add(IPV6_SRC, ip6("::ffff:10.0.0.1"));
        yes("ipv6.src == ::ffff:10.0.0.1", mapped);
        yes("ipv6.src == ::ffff:a00:1", mapped);
    }

    @Test
    void macAddressForms() {
        Frame f = send();   // eth.src 02:00:00:00:00:0a
        yes("eth.src == 02:00:00:00:00:0a", f);
        yes("eth.src == 02:00:00:00:00:0A", f);
        yes("eth.src == 02-00-00-00-00-0a", f);
        yes("eth.src == 02.00.00.00.00.0a", f);
        yes("eth.src == 0200.0000.000a", f);
        yes("eth.src == 2:0:0:0:0:a", f);
        no("eth.src == 02:00:00:00:00:0b", f);
        yes("eth.src != eth.dst", f);
        yes("eth.src < eth.dst", f);
        yes("eth.src & 01:00:00:00:00:00 == 00:00:00:00:00:00", f);   // unicast
        yes("eth.src & 02:00:00:00:00:00", f);                        // locally administered
    }

    // ------------------------------------------------------------------ fields

    @Test
    void fieldToFieldComparison() {
        Frame eq = frame().add(BTH_PSN, 7).add(AETH_MSN, 7);
        Frame lt = frame().add(BTH_PSN, 6).add(AETH_MSN, 7);
        yes("bth.psn == aeth.msn", eq);
        no("bth.psn == aeth.msn", lt);
        yes("bth.psn < aeth.msn", lt);
        yes("bth.psn != aeth.msn", lt);
        no("bth.psn == aeth.msn", frame().add(BTH_PSN, 7));      // one side absent
        no("bth.psn != aeth.msn", frame().add(BTH_PSN, 7));
        // multi-occurrence: any pair / all pairs
        Frame multi = frame().add(VLAN_ID, 100, 200).add(BTH_PSN, 200);
        yes("vlan.id == bth.psn", multi);
        no("vlan.id != bth.psn", multi);
        no("vlan.id === bth.psn", multi);
        yes("vlan.id !== bth.psn", multi);
        // signed against unsigned compares the real values
        Frame mixed = frame().add(DELTA, -1).add(BTH_PSN, 0);
        yes("analysis.delta < bth.psn", mixed);
        no("analysis.delta == bth.psn", frame().add(DELTA, -1).add(BTH_PSN, -1L));
        // masked field against field
        yes("bth.flags & 0x0f == bth.psn", frame().add(BTH_FLAGS, 0xC2).add(BTH_PSN, 2));
        // strings and byte strings
        yes("icrc.status == analysis.peer", frame().add(ICRC_STATUS, "x").add(HOST, "x"));
        yes("icrc.status < analysis.peer", frame().add(ICRC_STATUS, "a").add(HOST, "b"));
        yes("payload == mrth.tag", frame().add(PAYLOAD, bytes(1, 2)).add(MRTH_TAG, bytes(1, 2)));
        yes("payload > mrth.tag", frame().add(PAYLOAD, bytes(0xff)).add(MRTH_TAG, bytes(1, 2)));
    }

    @Test
    void constantOnTheLeftIsSwapped() {
        Frame f = send();
        yes("100 == bth.psn", f);
        yes("50 < bth.psn", f);
        no("150 < bth.psn", f);
        assertEquals("bth.psn > 50", compile("50 < bth.psn").toString());
        assertEquals("ip.src == 10.0.0.0/8", compile("10.0.0.0/8 == ip.src").toString());
    }

    @Test
    void presenceOfFieldsAndProtocols() {
        Frame f = send();
        yes("bth", f);
        no("mrth", f);
        yes("mrth", frame().present(MRTH));
        yes("bth.psn", f);
        no("aeth.syndrome", f);
        yes("aeth.syndrome", frame().add(AETH_SYNDROME, 0));  // present with value 0 is still present
        yes("vlan.id", f);
        yes("mac-lte.x-y", frame().add(WEIRD, 1));            // '-' in names
        yes("analysis.ack_rtt_ns", frame().add(RTT, 1));
    }

    @Test
    void aliasesResolveToCanonicalFields() {
        Frame f = send();
        DisplayFilter df = compile("infiniband.bth.psn == 100 && infiniband.bth.opcode == RC_SEND_ONLY");
        assertTrue(df.matches(f));
        assertEquals("bth.psn == 100 and bth.opcode == RC_SEND_ONLY", df.toString());
        assertEquals(Set.of(BTH_PSN, BTH_OPCODE), df.referencedFields());
    }

    @Test
    void symbolicValueNames() {
        Frame f = send();   // bth.opcode 4
        yes("bth.opcode == RC_SEND_ONLY", f);
        yes("bth.opcode == \"RC_SEND_ONLY\"", f);
        yes("bth.opcode == rc_send_only", f);    // case-insensitive fallback
        no("bth.opcode == RC_ACK", f);
        yes("bth.opcode < RC_RDMA_WRITE_ONLY", f);
        yes("bth.opcode == 4", f);
        Frame nak = frame().add(AETH_TYPE, 3);
        yes("aeth.type == nak", nak);
        no("aeth.type == ack", nak);
        assertEquals("aeth.type == nak", compile("aeth.type == \"NAK\"").toString());
    }

    // ------------------------------------------------------------------ strings and bytes

    @Test
    void containsOnStringsAndBytes() {
        Frame f = send();
        yes("icrc.status contains \"goo\"", f);
        no("icrc.status contains \"bad\"", f);
        yes("analysis.retransmission_cause contains \"after 3\"", f);
        yes("payload contains de:ad", f);
        yes("payload contains be:ef:01", f);
        no("payload contains ad:de", f);
        yes("payload contains 0xbe", f);
        yes("payload contains \"\\xde\\xad\"", f);   // \xNN is a raw byte
        yes("payload contains ef", f);
        yes("payload contains \"\"", f);
        Frame text = frame().add(PAYLOAD, "GET /index".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        yes("payload contains \"GET\"", text);
        yes("payload contains 47.45.54", text);
        yes("payload contains 47-45-54", text);
        yes("icrc.status contains analysis.peer", frame().add(ICRC_STATUS, "abcdef").add(HOST, "cde"));
        yes("payload contains mrth.tag", frame().add(PAYLOAD, bytes(1, 2, 3)).add(MRTH_TAG, bytes(2, 3)));
        no("payload contains mrth.tag", frame().add(PAYLOAD, bytes(1, 2, 3)).add(MRTH_TAG, bytes(3, 2)));
    }

    @Test
    void matchesIsARegexSearchCaseInsensitiveByDefault() {
        Frame f = send();   // cause "Timeout after 3 retries"
        yes("analysis.retransmission_cause matches \"^Timeout\"", f);
        yes("analysis.retransmission_cause matches \"retries$\"", f);
        yes("analysis.retransmission_cause matches \"after\"", f);      // unanchored search
        yes("analysis.retransmission_cause matches \"TIMEOUT\"", f);    // Wireshark: case-insensitive
        no("analysis.retransmission_cause matches \"(?-i)TIMEOUT\"", f);
        yes("analysis.retransmission_cause ~ \"\\\\d+ retries\"", f);
        yes("analysis.retransmission_cause matches r\"\\d+ retries\"", f);
        no("analysis.retransmission_cause matches \"^after\"", f);
    }

    @Test
    void stringLiteralsAndEscapes() {
        yes("icrc.status == \"a\\\"b\"", frame().add(ICRC_STATUS, "a\"b"));
        yes("icrc.status == \"a\\\\b\"", frame().add(ICRC_STATUS, "a\\b"));
        yes("icrc.status == \"tab\\there\"", frame().add(ICRC_STATUS, "tab\there"));
        yes("icrc.status == \"\\x48EAD\"", frame().add(ICRC_STATUS, "HEAD"));
        yes("icrc.status == \"\\110EAD\"", frame().add(ICRC_STATUS, "HEAD"));
        yes("icrc.status == \"caf\\u00e9\"", frame().add(ICRC_STATUS, "café"));
        yes("icrc.status == \"café\"", frame().add(ICRC_STATUS, "café"));
        yes("icrc.status == \"\\U0001F600\"", frame().add(ICRC_STATUS, "\uD83D\uDE00"));
        yes("icrc.status == r\"a\\b\"", frame().add(ICRC_STATUS, "a\\b"));
        yes("icrc.status == good", frame().add(ICRC_STATUS, "good"));   // unquoted (deprecated) works
        yes("icrc.status < \"h\"", frame().add(ICRC_STATUS, "good"));
        yes("icrc.status != \"bad\"", frame().add(ICRC_STATUS, "good"));
    }

    @Test
    void byteStrings() {
        Frame f = send();   // payload de:ad:be:ef:01
        yes("payload == de:ad:be:ef:01", f);
        yes("payload == de-ad-be-ef-01", f);
        yes("payload == de.ad.be.ef.01", f);
        yes("payload == DE:AD:BE:EF:01", f);
        no("payload == de:ad:be:ef", f);
        yes("payload > de:ad:be:ef", f);         // longer with equal prefix sorts after
        yes("payload < df", f);
        yes("payload == \"\\xde\\xad\\xbe\\xef\\x01\"", f);
    }

    // ------------------------------------------------------------------ bitwise and

    @Test
    void bitwiseAnd() {
        Frame f = send();   // bth.flags 0xC2
        yes("bth.flags & 0x80", f);
        yes("bth.flags & 0x02", f);
        no("bth.flags & 0x01", f);
        no("bth.flags & 0x3c", f);
        yes("bth.flags bitand 0x40", f);
        yes("bth.flags bitwise_and 0x40", f);
        yes("bth.flags & 0xC0 == 0xC0", f);
        no("bth.flags & 0x60 == 0x60", f);
        yes("bth.flags & 0x60 == 0x40", f);
        yes("bth.flags & 0xf0 in {0xc0 0xd0}", f);
        yes("bth.flags & 0x80 and bth.psn == 100", f);
        yes("not bth.flags & 0x01", f);
        no("bth.flags & 0x80", frame());
        yes("vlan.id & 0x08", f);                // 200 = 0xC8: any occurrence
    }

    // ------------------------------------------------------------------ normalization and API

    @Test
    void toStringIsNormalizedAndRecompilesToItself() {
        String[][] cases = {
                {"(bth.psn eq 0x64) && !mrth || ip.src == 10.0.0.5/24",
                        "bth.psn == 100 and not mrth or ip.src == 10.0.0.0/24"},
                {"bth.psn in {1,2 , 10 .. 20}", "bth.psn in {1, 2, 10..20}"},
                {"vlan.id ne 5", "vlan.id != 5"},
                {"vlan.id any_ne 5", "vlan.id !== 5"},
                {"vlan.id ~= 5", "vlan.id !== 5"},
                {"all vlan.id gt 5", "all vlan.id > 5"},
                {"any vlan.id != 5", "vlan.id !== 5"},
                {"all vlan.id == 5", "vlan.id === 5"},
                {"eth.src == 02-00-00-00-00-0A", "eth.src == 02:00:00:00:00:0a"},
                {"ipv6.src == 2001:0DB8:0:0:0:0:0:1", "ipv6.src == 2001:db8::1"},
                {"ipv6.src == 2001:db8:0:0:1:0:0:1", "ipv6.src == 2001:db8::1:0:0:1"},
                {"bth.flags bitand 128", "bth.flags & 0x80"},
                {"payload contains 47.45.54", "payload contains 47:45:54"},
                {"payload contains \"\"", "payload contains \"\""},
                {"icrc.status == \"a\\x01\\\"\"", "icrc.status == \"a\\x01\\\"\""},
                {"analysis.retransmission_cause ~ r\"\\d\"", "analysis.retransmission_cause matches \"\\\\d\""},
                {"bth.se == TRUE", "bth.se == 1"},
                {"bth.opcode == \"rc_ack\"", "bth.opcode == RC_ACK"},
                {"mac-lte.x-y==1", "mac-lte.x-y == 1"},
                {"  ", ""},
        };
        for (String[] c : cases) {
            DisplayFilter df = compile(c[0]);
            assertEquals(c[1], df.toString(), c[0]);
            assertEquals(c[1], compile(df.toString()).toString(), "re-compiled " + c[0]);
        }
    }

    @Test
    void emptyFilterMatchesEverything() {
        DisplayFilter df = compile("");
        assertTrue(df.matchesAll());
        assertTrue(df.matches(frame()));
        assertTrue(compile(" \t\n").matches(send()));
        assertTrue(df.referencedFields().isEmpty());
        assertFalse(compile("bth").matchesAll());
    }

    @Test
    void referencedFieldsListsEveryFieldOnce() {
        DisplayFilter df = compile("bth.psn == aeth.msn or (mrth and bth.psn in {1 2}) or ip.src == 10.0.0.0/8"
                + " or icrc.status matches \"x\" or bth.flags & 1 or payload contains 00");
        assertEquals(List.of(BTH_PSN, AETH_MSN, MRTH, IP_SRC, ICRC_STATUS, BTH_FLAGS, PAYLOAD),
                List.copyOf(df.referencedFields()));
        assertEquals("bth.psn  eq  100", compile("bth.psn  eq  100").text());
    }

    @Test
    void longChainsDoNotOverflowTheStack() {
        StringBuilder sb = new StringBuilder("bth.psn == 0");
        for (int i = 1; i < 20_000; i++) {
            sb.append(" or bth.psn == ").append(i);
        }
        DisplayFilter df = compile(sb.toString());
        assertTrue(df.matches(frame().add(BTH_PSN, 19_999)));
        assertFalse(df.matches(frame().add(BTH_PSN, 20_000)));
        assertEquals(sb.toString(), df.toString());
    }

    @Test
    void numericMatchingDoesNotAllocate() {
        var bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        DisplayFilter df = compile("bth.psn >= 50 and bth.psn in {1 2 3 100..200} and ip.src == 10.0.0.0/24"
                + " and not mrth and vlan.id != 7 and bth.flags & 0x80 and eth.src == 02:00:00:00:00:0a"
                + " and bth.psn == bth.psn and (bth.opcode == RC_SEND_ONLY xor mrth)");
        Frame f = send();
        boolean warm = false;
        for (int i = 0; i < 200_000; i++) {
            warm |= df.matches(f);
        }
        assertTrue(warm);
        long tid = Thread.currentThread().threadId();
        long before = bean.getThreadAllocatedBytes(tid);
        int hits = 0;
        for (int i = 0; i < 1_000_000; i++) {
            if (df.matches(f)) {
                hits++;
            }
        }
        long allocated = bean.getThreadAllocatedBytes(tid) - before;
        assertEquals(1_000_000, hits);
        assertTrue(allocated < 64 * 1024, "matches() allocated " + allocated + " bytes over 1e6 calls");
    }

    @Test
    void compiledFilterIsSharedSafelyBetweenThreads() throws Exception {
        DisplayFilter df = compile("analysis.retransmission_cause matches \"timeout\" and bth.psn in {100}");
        Frame f = send();
        Frame g = frame().add(CAUSE, "none").add(BTH_PSN, 100);
        List<Thread> threads = new java.util.ArrayList<>();
        java.util.concurrent.atomic.AtomicInteger wrong = new java.util.concurrent.atomic.AtomicInteger();
        for (int t = 0; t < 4; t++) {
            Thread th = new Thread(() -> {
                for (int i = 0; i < 20_000; i++) {
                    if (!df.matches(f) || df.matches(g)) {
                        wrong.incrementAndGet();
                    }
                }
            });
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join();
        }
        assertEquals(0, wrong.get());
    }
}

package io.metaroce.filter;

import static io.metaroce.filter.TestFields.compile;
import static io.metaroce.filter.TestFields.compileError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FilterErrorTest {

    /** Asserts the 1-based column and that the message contains {@code fragment}. */
    private static FilterException err(String filter, int column, String fragment) {
        FilterException e = compileError(filter);
        String shown = filter.length() > 120 ? filter.substring(0, 120) + "..." : filter;
        assertEquals(column, e.column(), () -> "column for [" + shown + "]: " + e.getMessage());
        assertTrue(e.getMessage().contains(fragment),
                () -> "message for [" + shown + "] was: " + e.getMessage() + "; expected to contain: " + fragment);
        return e;
    }

    @Test
    void unknownField() {
        err("xyz.abc == 1", 1, "\"xyz.abc\" is not a valid protocol or protocol field");
        err("bth.psn == 1 and xyz.abc", 18, "\"xyz.abc\" is not a valid protocol or protocol field");
        err("mrth or (bth.psn > 3 && infiniband.bth.nope)", 25, "\"infiniband.bth.nope\" is not a valid protocol");
        err("bth.psn == aeth.nope", 12, "\"aeth.nope\" is not a valid protocol or protocol field");
        err("AND", 1, "\"AND\" is not a valid protocol or protocol field");   // keywords are lower case
        err("nope in {1 2}", 1, "\"nope\" is not a valid protocol or protocol field");
        err("1 == 2", 1, "\"1\" is not a valid protocol or protocol field");
        err("\"abc\"", 1, "Expected a field or protocol, not the constant \"abc\"");
    }

    @Test
    void unknownFieldIsFormattedWithACaretLikeWireshark() {
        FilterException e = compileError("bth.psn == 1 and xyz.abc");
        assertEquals("""
                "xyz.abc" is not a valid protocol or protocol field
                bth.psn == 1 and xyz.abc
                                 ^~~~~~~""", e.formatted());
        assertEquals(7, e.length());
        assertEquals("bth.psn == 1 and xyz.abc", e.filterText());
    }

    @Test
    void unbalancedParentheses() {
        err("(bth.psn == 1", 1, "\"(\" has no matching \")\"");
        err("mrth and ((bth.psn == 1)", 10, "\"(\" has no matching \")\"");
        err("(mrth and (bth.psn == 1)", 1, "\"(\" has no matching \")\"");
        err("bth.psn == 1)", 13, "\")\" has no matching \"(\"");
        err("(mrth))", 7, "\")\" has no matching \"(\"");
        err(")", 1, "\")\" has no matching \"(\"");
        err("bth.psn in {1 2", 12, "\"{\" has no matching \"}\"");
        err("(bth.psn in {1 2)", 17, "the \"{\" at column 13 is not closed");
    }

    @Test
    void missingValue() {
        FilterException e = err("bth.psn ==", 11, "Missing value after \"==\"");
        assertEquals("""
                Missing value after "=="
                bth.psn ==
                          ^""", e.formatted());
        err("bth.psn == and mrth", 12, "\"and\" was unexpected after \"==\"; a value was expected");
        err("(bth.psn >= )", 13, "\")\" was unexpected after \">=\"");
        err("bth.flags &", 12, "Missing value after \"&\"");
        err("icrc.status contains", 21, "Missing value after \"contains\"");
        err("bth.psn in", 11, "Missing set after \"in\"");
        err("bth.psn in 1", 12, "a set such as");
        err("bth.psn in {}", 12, "A set must contain at least one value");
        err("bth.psn in {1..}", 16, "\"}\" was unexpected after \"..\"");
        err("mrth and", 9, "Missing expression after \"and\"");
        err("mrth or or bth", 9, "\"or\" was unexpected after \"or\"; a field or protocol was expected");
        err("not", 4, "Missing expression after \"not\"");
        err("()", 2, "\")\" was unexpected after \"(\"");
        err("== 1", 1, "\"==\" was unexpected at the start of the filter");
        err("all", 4, "Missing field after \"all\"");
        err("all vlan.id", 1, "\"all\" must be followed by a comparison");
        err("any 5 == vlan.id and any vlan.id or mrth", 22, "\"any\" must be followed by a comparison");
    }

    @Test
    void typeMismatchPointsAtTheLiteral() {
        err("ip.src == \"abc\"", 11, "\"abc\" is not an IPv4 address");
        err("bth.psn == 10.0.0.1", 12, "\"10.0.0.1\" is not an unsigned integer");
        err("bth.psn == -1", 12, "\"-1\" is not an unsigned integer");
        err("bth.psn == 18446744073709551616", 12, "is not an unsigned integer");
        err("bth.psn == 0x", 12, "is not an unsigned integer");
        err("bth.psn == 09", 12, "is not an unsigned integer");
        err("analysis.delta == 9223372036854775808", 19, "is not a signed integer");
        err("bth.se == maybe", 11, "\"maybe\" is not a boolean");
        err("ip.src == 10.0.0.256", 11, "is not an IPv4 address");
        err("ip.src == 10.0.0.0/33", 11, "is not an IPv4 address");
        err("ip.src == 02:00:00:00:00:0a", 11, "is not an IPv4 address");
        err("ipv6.src == 1:2:3:4:5:6:7:8:9", 13, "is not an IPv6 address");
        err("ipv6.src == 1::2::3", 13, "is not an IPv6 address");
        err("ipv6.src == fe80::/129", 13, "is not an IPv6 address");
        err("eth.src == 02:00:00:00:00", 12, "is not an Ethernet address");
        err("eth.src == 10.0.0.1", 12, "is not an Ethernet address");
        err("payload == xyz", 12, "\"xyz\" is not a byte string");
        err("payload == 0x100", 12, "is not a byte string");
        err("bth.opcode == RC_BOGUS", 15, "\"RC_BOGUS\" is not an unsigned integer or a value name of bth.opcode");
        err("bth.psn == 'ab'", 12, "is not a valid character constant");
        err("ip.src == 'a'", 11, "A character constant cannot be compared with ip.src");
        err("bth.psn in {1 10.0.0.1}", 15, "\"10.0.0.1\" is not an unsigned integer");
        err("bth.flags & 10.0.0.1", 13, "is not an unsigned integer");
    }

    @Test
    void operatorsThatDoNotApplyToTheField() {
        err("bth.psn contains 1", 1, "bth.psn (unsigned integer) cannot be used with \"contains\"");
        err("ip.src matches \"10\"", 1, "ip.src (IPv4 address) cannot be used with \"matches\"");
        err("icrc.status matches abc", 21, "must be a double-quoted string");
        err("icrc.status matches \"(unclosed\"", 21, "Invalid regular expression");
        err("mrth == 1", 1, "\"mrth\" is a protocol; it can only be tested for presence");
        err("mrth in {1}", 1, "\"mrth\" is a protocol");
        err("ip.src == bth.psn", 11, "ip.src (IPv4 address) and bth.psn (unsigned integer) cannot be compared");
        err("icrc.status contains payload", 22, "cannot contain payload");
        err("ip.src < 10.0.0.0/8", 10, "can only be used with ==, !=, ===, !== and in");
        err("ipv6.src >= fe80::/10", 13, "can only be used with ==, !=, ===, !== and in");
        err("bth.psn in {aeth.msn}", 13, "Set elements must be constants; \"aeth.msn\" is a field");
        err("bth.psn in {20..10}", 13, "is empty");
        err("ip.src in {10.0.0.0/8..11.0.0.0}", 12, "A network cannot be the bound of a range");
        err("icrc.status & 1", 13, "Bitwise and needs an integer field, but icrc.status is a string");
        err("nope & 1", 1, "\"nope\" is not a valid protocol or protocol field");
        err("bth.flags & 0x1 contains 1", 1, "masked unsigned integer");
    }

    @Test
    void trailingGarbage() {
        err("bth.psn == 1 2", 14, "\"2\" was unexpected in this context");
        err("mrth mrth", 6, "\"mrth\" was unexpected in this context");
        err("bth.psn == 1 == 2", 14, "\"==\" was unexpected in this context");
        err("mrth {", 6, "\"{\" was unexpected");
    }

    @Test
    void invalidCharactersAndStrings() {
        err("bth.psn == 1 @", 14, "Invalid character \"@\"");
        err("bth.psn = 1", 9, "\"=\" is not a valid operator; use \"==\"");
        err("mrth | bth", 6, "use \"||\" or \"or\"");
        err("mrth ^ bth", 6, "use \"^^\" or \"xor\"");
        err("mrth \u0001", 6, "Invalid character U+0001");
        FilterException e = err("icrc.status == \"abc", 16, "The final quote was missing from a quoted string");
        assertEquals(4, e.length());
        err("bth.psn == 'a", 12, "The final quote was missing from a character constant");
        err("icrc.status == \"a\\qb\"", 18, "\\q is not a valid escape sequence");
        err("icrc.status == \"\\400\"", 17, "\\400 is larger than 255");
        err("icrc.status == \"\\xg\"", 17, "\\x must be followed by one or two hex digits");
        err("icrc.status == \"\\u12\"", 17, "\\u must be followed by 4 hex digits");
        err("icrc.status == \"\\UFFFFFFFF\"", 17, "\\U must be followed by 8 hex digits");
    }

    @Test
    void columnsCountCharactersAcrossLines() {
        err("mrth or\n  xyz", 11, "\"xyz\" is not a valid protocol or protocol field");
        FilterException e = compileError("mrth or\n  xyz");
        assertEquals("""
                "xyz" is not a valid protocol or protocol field
                mrth or   xyz
                          ^~~""", e.formatted());
    }

    @Test
    void columnsAreStringIndexesEvenAfterCharactersOutsideTheBmp() {
        String text = "icrc.status == \"\uD83D\uDE00\" and xyz";
        err(text, text.indexOf("xyz") + 1, "\"xyz\" is not a valid protocol or protocol field");
        String esc = "icrc.status == \"\uD83D\uDE00\\q\"";
        err(esc, esc.indexOf('\\') + 1, "\\q is not a valid escape sequence");
        FilterException e = err("icrc.status == \"\uD83D\uDE00\" == 1", 21, "was unexpected in this context");
        assertEquals(2, e.length());
    }

    @Test
    void tooDeepNestingIsAFilterExceptionNotAStackOverflow() {
        err("(".repeat(100_000) + "mrth" + ")".repeat(100_000), FilterCompiler.MAX_NESTING + 1, "nested too deeply");
        err("not ".repeat(50_000) + "mrth", 4 * FilterCompiler.MAX_NESTING + 1, "nested too deeply");
        err("!(".repeat(20_000) + "mrth" + ")".repeat(20_000), FilterCompiler.MAX_NESTING + 1, "nested too deeply");
        // just inside the limit still compiles
        String ok = "(".repeat(FilterCompiler.MAX_NESTING - 1) + "mrth" + ")".repeat(FilterCompiler.MAX_NESTING - 1);
        assertEquals("mrth", compile(ok).toString());
    }

    @Test
    void messagesNeverLeakAntlrWording() {
        String[] bad = {"bth.psn ==", "(bth.psn", "bth.psn == 1 2", "bth.psn in {1 2", "@", "mrth and and"};
        for (String b : bad) {
            String msg = compileError(b).getMessage();
            assertTrue(!msg.contains("mismatched input") && !msg.contains("extraneous") && !msg.contains("viable")
                    && !msg.contains("<EOF>") && !msg.contains("expecting"), msg);
        }
    }
}

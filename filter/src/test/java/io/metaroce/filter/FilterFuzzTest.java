package io.metaroce.filter;

import static io.metaroce.filter.TestFields.BY_NAME;
import static io.metaroce.filter.TestFields.RESOLVER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Seeded fuzzing: whatever the text, compile either succeeds or throws FilterException. Filters that
 * compile must evaluate without error, and their normalized form must compile to the same normalized
 * form and the same verdicts.
 */
class FilterFuzzTest {
    private static final String[] FIELDS = BY_NAME.keySet().toArray(String[]::new);
    private static final String[] OPERATORS = {"==", "!=", "===", "!==", "~=", "<", "<=", ">", ">=", "eq", "ne", "lt",
            "le", "gt", "ge", "any_eq", "all_ne", "all_eq", "any_ne", "contains", "matches", "~", "in", "not", "!",
            "and", "&&", "or", "||", "xor", "^^", "&", "bitand", "any", "all", "(", ")", "{", "}", ",", "..", "=", "|"};
    private static final String[] VALUES = {"0", "1", "4", "100", "0x1f", "017", "0b101", "-5", "18446744073709551616",
            "10.0.0.1", "10.0.0.0/24", "10.0.0.0/33", "fe80::1", "2001:db8::/32", "::", "02:00:00:00:00:0a",
            "0200.0000.000a", "de:ad:be:ef", "ef", "\"abc\"", "\"a\\\"b\"", "\"\\x41\"", "\"\\q\"", "r\"\\d+\"", "'a'",
            "'\\n'", "true", "false", "nak", "RC_SEND_ONLY", "\"RC_ACK\"", "xyz.abc", "infiniband.bth.psn", "\"(\"",
            "\"[a-z]+\"", "\"", "'"};
    private static final String RANDOM_CHARS = "abcxyz019._-:/ \t\n()[]{}<>=!&|^~,\"'\\@#$%*+?;`\u00e9\u0000\u2028\ud83d";

    @Test
    void tokenSoupNeverEscapesAsAnythingButFilterException() {
        SplittableRandom rnd = new SplittableRandom(0x5EED_F11EL);
        int compiled = 0;
        for (int n = 0; n < 4000; n++) {
            StringBuilder sb = new StringBuilder();
            int pieces = 1 + rnd.nextInt(12);
            for (int p = 0; p < pieces; p++) {
                int k = rnd.nextInt(10);
                if (k < 3) {
                    sb.append(FIELDS[rnd.nextInt(FIELDS.length)]);
                } else if (k < 6) {
                    sb.append(OPERATORS[rnd.nextInt(OPERATORS.length)]);
                } else if (k < 9) {
                    sb.append(VALUES[rnd.nextInt(VALUES.length)]);
                } else {
                    int len = 1 + rnd.nextInt(4);
                    for (int c = 0; c < len; c++) {
                        sb.append(RANDOM_CHARS.charAt(rnd.nextInt(RANDOM_CHARS.length())));
                    }
                }
                if (rnd.nextInt(4) != 0) {
                    sb.append(' ');
                }
            }
            if (check(sb.toString(), rnd)) {
                compiled++;
            }
        }
        assertTrue(compiled > 40, "too few token soups compiled to exercise evaluation: " + compiled);
    }

    @Test
    void generatedFiltersCompileRoundTripAndEvaluate() {
        SplittableRandom rnd = new SplittableRandom(42);
        int compiled = 0;
        for (int n = 0; n < 3000; n++) {
            if (check(expr(rnd, 3), rnd)) {
                compiled++;
            }
        }
        assertTrue(compiled > 1500, "generated filters should mostly compile, compiled " + compiled);
    }

    @Test
    void mutatedValidFiltersNeverEscape() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int n = 0; n < 3000; n++) {
            StringBuilder sb = new StringBuilder(expr(rnd, 2));
            int edits = 1 + rnd.nextInt(3);
            for (int e = 0; e < edits && sb.length() > 0; e++) {
                int at = rnd.nextInt(sb.length());
                switch (rnd.nextInt(3)) {
                    case 0 -> sb.deleteCharAt(at);
                    case 1 -> sb.insert(at, RANDOM_CHARS.charAt(rnd.nextInt(RANDOM_CHARS.length())));
                    default -> sb.setCharAt(at, RANDOM_CHARS.charAt(rnd.nextInt(RANDOM_CHARS.length())));
                }
            }
            check(sb.toString(), rnd);
        }
    }

    /** Returns true when the filter compiled. */
    private static boolean check(String text, SplittableRandom rnd) {
        DisplayFilter df;
        try {
            df = DisplayFilter.compile(text, RESOLVER);
        } catch (FilterException e) {
            assertTrue(e.column() >= 1 && e.column() <= text.length() + 1,
                    () -> "column " + e.column() + " outside [" + text + "]");
            assertNotNull(e.formatted());
            assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
            return false;
        } catch (Throwable t) {
            fail("compile of [" + text + "] threw " + t, t);
            return false;
        }
        String normalized = df.toString();
        DisplayFilter again;
        try {
            again = DisplayFilter.compile(normalized, RESOLVER);
        } catch (Throwable t) {
            fail("normalized form [" + normalized + "] of [" + text + "] does not compile: " + t, t);
            return false;
        }
        assertEquals(normalized, again.toString(), () -> "normalization is not stable for [" + text + "]");
        assertEquals(df.referencedFields(), again.referencedFields());
        for (int i = 0; i < 6; i++) {
            TestFields.Frame frame = randomFrame(rnd);
            boolean a;
            try {
                a = df.matches(frame);
            } catch (Throwable t) {
                fail("matches() of [" + text + "] threw " + t, t);
                return false;
            }
            assertEquals(a, again.matches(frame), () -> "[" + text + "] and [" + normalized + "] disagree");
        }
        return true;
    }

    // ------------------------------------------------------------------ generators

    private static String pick(SplittableRandom r, String... options) {
        return options[r.nextInt(options.length)];
    }

    private static String expr(SplittableRandom r, int depth) {
        if (depth == 0 || r.nextInt(3) == 0) {
            return test(r);
        }
        return switch (r.nextInt(6)) {
            case 0 -> "(" + expr(r, depth - 1) + ")";
            case 1 -> pick(r, "not ", "!", "! ") + expr(r, depth - 1);
            case 2 -> expr(r, depth - 1) + pick(r, " and ", " && ", "&&") + expr(r, depth - 1);
            case 3 -> expr(r, depth - 1) + pick(r, " or ", " || ") + expr(r, depth - 1);
            case 4 -> expr(r, depth - 1) + pick(r, " xor ", " ^^ ") + expr(r, depth - 1);
            default -> test(r);
        };
    }

    private static String test(SplittableRandom r) {
        FilterField f = BY_NAME.get(FIELDS[r.nextInt(FIELDS.length)]);
        String name = f.name().startsWith("bth.") && r.nextBoolean() ? "infiniband." + f.name() : f.name();
        String quant = r.nextInt(8) == 0 ? pick(r, "any ", "all ") : "";
        return switch (r.nextInt(7)) {
            case 0 -> name;
            case 1, 2, 3 -> quant + name + " " + pick(r, "==", "!=", "===", "!==", "<", "<=", ">", ">=", "eq", "ne", "gt")
                    + " " + value(f, r);
            case 4 -> quant + name + pick(r, " in {", " not in {") + value(f, r) + pick(r, " ", ", ") + value(f, r)
                    + (f.type().isLongValued() || f.type() == FieldType.STRING ? " " + range(f, r) : "") + "}";
            case 5 -> switch (f.type()) {
                case STRING -> name + pick(r, " contains ", " matches ", " ~ ") + pick(r, "\"a\"", "\"^T\"", "\"o+d\"");
                case BYTES -> name + " contains " + pick(r, "de:ad", "\"abc\"", "0xef", "ef");
                case UNSIGNED, SIGNED -> name + " & " + pick(r, "0x80", "1", "0x0f") + pick(r, "", " == 1", " != 0");
                default -> name;
            };
            default -> {
                FilterField g = BY_NAME.get(FIELDS[r.nextInt(FIELDS.length)]);
                yield name + " " + pick(r, "==", "!=", "<", ">=") + " " + g.name();   // may mismatch: fine
            }
        };
    }

    private static String range(FilterField f, SplittableRandom r) {
        return switch (f.type()) {
            case UNSIGNED -> pick(r, "1..5", "90..110", "0x10..0x20");
            case SIGNED -> pick(r, "-10..-1", "0..10");
            case BOOLEAN -> "0..1";
            case IPV4 -> pick(r, "10.0.0.0..10.0.0.9", "192.168.0.0/16");
            case ETHER -> "02:00:00:00:00:00..02:00:00:00:00:ff";
            default -> "\"a\"..\"m\"";
        };
    }

    private static String value(FilterField f, SplittableRandom r) {
        return switch (f.type()) {
            case UNSIGNED -> f.valueNames().isEmpty() || r.nextBoolean()
                    ? pick(r, "0", "1", "4", "100", "0x64", "0144", "0b11", "'a'", "18446744073709551615")
                    : pick(r, f.valueNames().keySet().toArray(String[]::new));
            case SIGNED -> pick(r, "-5", "0", "5", "-0x10");
            case TIME -> pick(r, "0", "1.5", "-0.000000001", "0.25");
            case BOOLEAN -> pick(r, "true", "false", "0", "1", "TRUE");
            case IPV4 -> pick(r, "10.0.0.1", "10.0.1.2", "10.0.0.0/24", "192.168.0.1", "0.0.0.0/0");
            case IPV6 -> pick(r, "fe80::1", "2001:db8::1", "2001:db8::/32", "fe80::/10", "::ffff:1.2.3.4");
            case ETHER -> pick(r, "02:00:00:00:00:0a", "02-00-00-00-00-0b", "0200.0000.000a");
            case STRING -> pick(r, "\"abc\"", "\"good\"", "\"a\\\"b\"", "\"Timeout\"", "good", "\"\"");
            case BYTES -> pick(r, "de:ad:be:ef", "\"abc\"", "61.62.63", "0xde", "\"\"");
            case PROTOCOL -> pick(r, "1", "\"x\"");
        };
    }

    private static TestFields.Frame randomFrame(SplittableRandom r) {
        TestFields.Frame fr = TestFields.frame();
        for (FilterField f : BY_NAME.values()) {
            if (r.nextBoolean()) {
                continue;
            }
            int n = f.type() == FieldType.PROTOCOL ? 1 : 1 + r.nextInt(3);
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                values.add(switch (f.type()) {
                    case UNSIGNED -> pick(r, new Object[] {0L, 1L, 4L, 17L, 100L, 200L, 0x1fL, -1L, 0x80L});
                    case SIGNED -> pick(r, new Object[] {-5L, 0L, 5L, Long.MIN_VALUE});
                    case TIME -> pick(r, new Object[] {0L, 1_500_000_000L, -1L, 250_000_000L});
                    case BOOLEAN -> (long) r.nextInt(2);
                    case IPV4 -> pick(r, new Object[] {TestFields.ip("10.0.0.1"), TestFields.ip("10.0.1.2"),
                            TestFields.ip("192.168.0.1"), TestFields.ip("255.255.255.255")});
                    case IPV6 -> pick(r, new Object[] {TestFields.ip6("fe80::1"), TestFields.ip6("2001:db8::1"),
                            TestFields.ip6("::ffff:1.2.3.4")});
                    case ETHER -> pick(r, new Object[] {TestFields.mac("02:00:00:00:00:0a"),
                            TestFields.mac("02:00:00:00:00:0b"), TestFields.mac("ff:ff:ff:ff:ff:ff")});
                    case STRING -> pick(r, new Object[] {"abc", "good", "a\"b", "Timeout", ""});
                    case BYTES -> pick(r, new Object[] {TestFields.bytes(0xde, 0xad, 0xbe, 0xef),
                            "abc".getBytes(StandardCharsets.UTF_8), new byte[0]});
                    case PROTOCOL -> Boolean.TRUE;
                });
            }
            fr.add(f, values.toArray());
        }
        return fr;
    }

    private static Object pick(SplittableRandom r, Object[] options) {
        return options[r.nextInt(options.length)];
    }
}

package io.metaroce.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class FlowQueryMatcherTest {

    private static boolean matches(String pattern, String value) {
        return FlowQueryMatcher.wildcardMatches(FlowQueryMatcher.wildcard(pattern), value);
    }

    @Test
    void starsQuestionMarksAndEscapes() {
        assertTrue(matches("MR-RTX-*", "MR-RTX-004"));
        assertFalse(matches("MR-RTX-*", "MR-SEQ-001"));
        assertTrue(matches("a?c", "abc"));
        assertFalse(matches("a?c", "ac"));
        assertTrue(matches("*", ""));
        assertTrue(matches("a\\*", "a*"));
        assertFalse(matches("a\\*", "ab"));
        assertTrue(matches("a\\?", "a?"));
        assertTrue(matches("?", "\uD83D\uDE00")); // one code point, two chars
        assertTrue(matches("*b*b", "abcbab"));
        assertFalse(matches("*b*c", "abcbab"));
    }

    /** The same answers as the regex translation it replaced, on random patterns and values over a small alphabet. */
    @Test
    void agreesWithTheRegexMeaning() {
        Random r = new Random(42);
        String alphabet = "ab*?";
        for (int i = 0; i < 20_000; i++) {
            String p = random(r, alphabet, 6), v = random(r, "ab", 8);
            String regex = p.replace("*", ".*").replace("?", ".");
            assertEquals(Pattern.compile(regex, Pattern.DOTALL).matcher(v).matches(), matches(p, v), p + " on " + v);
        }
    }

    /** The fuzzer's input: 29 stars before a non-matching tail took the regex minutes (exponential backtracking). */
    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS) // a hang guard, not a speed assertion: linear-time takes microseconds
    void manyStarsDoNotBacktrackExponentially() {
        String value = "x".repeat(2000);
        assertFalse(matches("*".repeat(29) + "?" + "*?".repeat(40) + "y", value));
        assertFalse(matches("*x".repeat(40) + "y", value));
    }

    private static String random(Random r, String alphabet, int max) {
        StringBuilder b = new StringBuilder();
        for (int n = r.nextInt(max + 1); n > 0; n--) b.append(alphabet.charAt(r.nextInt(alphabet.length())));
        return b.toString();
    }
}

package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** The one line a failed run ends with: what happened and what to do, also behind an executor's wrapper. */
class FailureLineTest {
    @Test
    void outOfMemorySaysHowToAllowMore() {
        String line = FailureLine.of("metaroce analyze", new ExecutionException(new OutOfMemoryError("Java heap space")));
        assertTrue(line.startsWith("metaroce analyze: out of memory (Java heap space; the heap limit is "), line);
        assertTrue(line.endsWith("); allow more with METAROCE_JAVA_OPTS=-Xmx" + expectedGiB() + "g"), line);
        assertEquals(1, line.lines().count());
    }

    @Test
    void stackOverflowAndBugsAreInternalErrors() {
        assertEquals("metaroce validate: internal error: stack overflow (METAROCE_DEBUG=1 shows where; please report it)",
                FailureLine.of("metaroce validate", new StackOverflowError()));
        assertEquals("metaroce dissect: internal error: java.lang.IllegalStateException: boom",
                FailureLine.of("metaroce dissect", new IllegalStateException("boom")));
    }

    private static long expectedGiB() {
        long mib = Runtime.getRuntime().maxMemory() >> 20;
        return Math.max(2, 2 * ((mib + 1023) / 1024));
    }
}

package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /** A mapped capture truncated by another program: the JVM's own error for it, read through a real mapping. */
    @Test
    void aFileThatShrankUnderItsMappingIsSaidSo(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("ring.pcap");
        Files.write(f, new byte[1 << 20]);
        InternalError fault;
        try (Arena arena = Arena.ofShared(); FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            MemorySegment mapping = ch.map(FileChannel.MapMode.READ_ONLY, 0, 1 << 20, arena);
            try (FileChannel w = FileChannel.open(f, StandardOpenOption.WRITE)) {
                w.truncate(4096);
            }
            fault = assertThrows(InternalError.class, () -> mapping.get(ValueLayout.JAVA_BYTE, 512 << 10));
        }
        assertEquals("metaroce analyze: a capture file got shorter while it was read (another program truncated or rewrote it); "
                + "read it again once it no longer changes, or read a copy", FailureLine.of("metaroce analyze", fault));
        assertEquals("metaroce index: internal error: java.lang.InternalError: other",
                FailureLine.of("metaroce index", new InternalError("other")), "other internal errors stay bugs");
    }

    private static long expectedGiB() {
        long mib = Runtime.getRuntime().maxMemory() >> 20;
        return Math.max(2, 2 * ((mib + 1023) / 1024));
    }
}

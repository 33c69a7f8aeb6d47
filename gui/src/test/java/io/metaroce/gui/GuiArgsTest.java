package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code metaroce gui}'s command line in Wireshark's words, and each mistake in one line before any window. */
class GuiArgsTest {
    private static GuiArgs parse(String... args) throws GuiArgs.UsageException { return GuiArgs.parse(args); }

    private static String error(String... args) {
        return assertThrows(GuiArgs.UsageException.class, () -> GuiArgs.parse(args)).getMessage();
    }

    @Test
    void theCaptureComesWithDashROrBareAndTheFilterWithDashY() throws Exception {
        assertEquals(new GuiArgs(Path.of("a.pcapng"), "", false), parse("a.pcapng"));
        assertEquals(new GuiArgs(Path.of("a.pcapng"), "", false), parse("-r", "a.pcapng"));
        assertEquals(new GuiArgs(Path.of("a.pcapng"), "", false), parse("--read-file", "a.pcapng"));
        assertEquals(new GuiArgs(Path.of("a.pcapng"), "", false), parse("--read-file=a.pcapng"));
        assertEquals(new GuiArgs(Path.of("a.pcapng"), "", false), parse("-ra.pcapng"));     // getopt's joined form
        assertEquals(new GuiArgs(Path.of("a.pcapng"), "bth.opcode == 17", false), parse("-r", "a.pcapng", "-Y", "bth.opcode == 17"));
        assertEquals("bth.opcode == 17", parse("-Y", "bth.opcode == 17", "a.pcapng").filter());
        assertEquals("bth.opcode == 17", parse("-Ybth.opcode == 17", "a.pcapng").filter());
        assertEquals("bth.opcode == 17", parse("--display-filter=bth.opcode == 17", "a.pcapng").filter());
        // Wireshark's aliases compile too, as in the filter bar.
        assertEquals("infiniband.bth.psn > 3", parse("a.pcapng", "-Y", "infiniband.bth.psn > 3").filter());
        assertEquals(new GuiArgs(null, "", false), parse());
        assertEquals(Path.of("-odd.pcap"), parse("--", "-odd.pcap").file(), "after --, a file name that starts with -");
        assertTrue(parse("-r", "a.pcapng", "--help").help());
        assertTrue(parse("-h").help());
        assertFalse(parse("a.pcapng").help());
        assertNull(parse().file());
    }

    @Test
    void mistakesAreSaidBeforeAnyWindowOpens() {
        // The other commands' words (Main's one line for picocli's mistakes, dissect's -Y, analyze's -r).
        assertEquals("unknown option '--nosuch' (see 'metaroce gui --help')", error("--nosuch", "a.pcapng"));
        assertEquals("unknown option '-x' (see 'metaroce gui --help')", error("-x"));
        assertEquals("-r needs a file name (FILE)", error("-r"));
        assertEquals("--read-file needs a file name (FILE)", error("--read-file"));
        assertEquals("-Y needs a display filter, e.g. -Y 'bth.opcode == 4'", error("a.pcapng", "-Y"));
        assertEquals("one capture file at most (got a.pcapng and b.pcapng)", error("a.pcapng", "b.pcapng"));
        assertEquals("one capture file at most (got a.pcapng and b.pcapng)", error("-r", "a.pcapng", "b.pcapng"));
        assertEquals("one display filter at most (-Y given twice)", error("a.pcapng", "-Y", "frame", "-Y", "bth"));
        assertEquals("-Y needs a capture to filter: metaroce gui -r FILE -Y FILTER", error("-Y", "bth.psn == 1"));
        assertEquals("bad display filter: \"bth.psm\" is not a valid protocol or protocol field (column 1)",
                error("a.pcapng", "-Y", "bth.psm == 1"));
        assertTrue(error("-r", "-").startsWith("-: the desktop analyzer opens files, not standard input"), error("-r", "-"));
        assertEquals("an empty file name", error("-r", ""));
        assertTrue(error("-r", "a\0b").endsWith("not a file name (Nul character not allowed)"), error("-r", "a\0b"));
    }
}

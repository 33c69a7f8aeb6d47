package io.metaroce.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code metaroce gui}'s command line in Wireshark's words, and each mistake in one line before any window. */
class GuiArgsTest {
    private static final Set<Integer> P4791 = Set.of(4791);

    private static GuiArgs parse(String... args) throws GuiArgs.UsageException { return GuiArgs.parse(args); }

    private static String error(String... args) {
        return assertThrows(GuiArgs.UsageException.class, () -> GuiArgs.parse(args)).getMessage();
    }

    @Test
    void theCaptureComesWithDashROrBareAndTheFilterWithDashY() throws Exception {
        assertEquals(new GuiArgs(Path.of("a.pcapng"), "", P4791, false), parse("a.pcapng"));
        assertEquals(new GuiArgs(Path.of("a.pcapng"), "", P4791, false), parse("-r", "a.pcapng"));
        assertEquals(new GuiArgs(Path.of("a.pcapng"), "", P4791, false), parse("--read-file", "a.pcapng"));
        assertEquals(new GuiArgs(Path.of("a.pcapng"), "", P4791, false), parse("--read-file=a.pcapng"));
        assertEquals(new GuiArgs(Path.of("a.pcapng"), "", P4791, false), parse("-ra.pcapng"));     // getopt's joined form
        assertEquals(new GuiArgs(Path.of("a.pcapng"), "bth.opcode == 17", P4791, false), parse("-r", "a.pcapng", "-Y", "bth.opcode == 17"));
        assertEquals("bth.opcode == 17", parse("-Y", "bth.opcode == 17", "a.pcapng").filter());
        assertEquals("bth.opcode == 17", parse("-Ybth.opcode == 17", "a.pcapng").filter());
        assertEquals("bth.opcode == 17", parse("--display-filter=bth.opcode == 17", "a.pcapng").filter());
        // Wireshark's aliases compile too, as in the filter bar.
        assertEquals("infiniband.bth.psn > 3", parse("a.pcapng", "-Y", "infiniband.bth.psn > 3").filter());
        assertEquals(new GuiArgs(null, "", P4791, false), parse());
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

    @Test
    void nameResolutionFlagsAndHostsFilesAsWiresharks(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path hosts = java.nio.file.Files.writeString(dir.resolve("hosts"), "10.0.0.1 gpu-node-01\n");
        GuiArgs a = parse("-N", "mn", "-H", hosts.toString(), "a.pcapng");
        assertEquals("mn", a.resolveFlags());
        assertEquals(java.util.List.of(hosts), a.hosts());
        assertEquals("", parse("-n", "a.pcapng").resolveFlags(), "-n: none for this run");
        assertNull(parse("a.pcapng").resolveFlags(), "neither: View > Name Resolution as saved");
        assertEquals("-N specifies unknown resolving option 'q'; valid options are: m (MAC), n (network), t (transport), d, N, v, g, s",
                error("-N", "mq"));
        assertEquals("Can't read host entries from \"" + dir.resolve("none") + "\"", error("-H", dir.resolve("none").toString()));
        assertEquals("-H needs a value (a hosts file)", error("-H"));
    }

    @Test
    void decodeAsTakesTheCommandsFormsAndSaysTheirMistakesInTheirWords() throws Exception {
        Set<Integer> with4792 = Set.of(4791, 4792);
        // The forms of analyze/dissect/validate -d (CliHabitsIT): tshark's, its infiniband name, a bare port.
        assertEquals(new GuiArgs(Path.of("a.pcapng"), "", with4792, false), parse("-d", "udp.port==4792,roce", "a.pcapng"));
        assertEquals(with4792, parse("a.pcapng", "-d", "udp.port==4792,infiniband").rocePorts());
        assertEquals(with4792, parse("-d", "4792").rocePorts(), "without a file: for the capture opened next");
        assertEquals(with4792, parse("--decode-as", "udp.dstport == 4792 , rroce").rocePorts());
        assertEquals(with4792, parse("--decode-as=udp.port==4792,roce").rocePorts());
        assertEquals(with4792, parse("-dudp.port==4792,roce").rocePorts());
        assertEquals(with4792, parse("-d", "4791", "-d", "4792").rocePorts(), "4791 again changes nothing");
        assertEquals(Set.of(4791, 4792, 5000), parse("-d", "4792", "a.pcapng", "-d", "udp.port==5000,roce").rocePorts());
        assertEquals(P4791, parse("a.pcapng").rocePorts());
        // The lines analyze -d prints after "metaroce analyze: " (its parser is the same DecodeAs).
        assertEquals("-d expects udp.port==N,roce (or infiniband), not 'udp.port==x,roce'", error("-d", "udp.port==x,roce"));
        assertEquals("-d expects udp.port==N,roce (or infiniband), not 'udp.port==4792,http'", error("a.pcapng", "-d", "udp.port==4792,http"));
        assertEquals("-d: '70000' is not a UDP port (1..65535)", error("-d", "70000"));
        assertEquals("-d: '0' is not a UDP port (1..65535)", error("-d", "udp.port==0,roce"));
        assertEquals("-d needs a value (udp.port==N,roce; see 'metaroce gui --help')", error("a.pcapng", "-d"));
        assertTrue(GuiArgs.USAGE.contains("[-d udp.port==N,roce]"), GuiArgs.USAGE);
    }
}

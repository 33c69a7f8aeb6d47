package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.CaptureInterface;
import io.metaroce.capture.LinkTypes;
import io.metaroce.capture.PacketSource;
import io.metaroce.capture.PcapWriter;
import io.metaroce.testsupport.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * merge, edit and info against mergecap, editcap and capinfos (installed with tshark; CI has them): the same
 * arguments to both, the outputs compared frame by frame (time, lengths, bytes, the interface's link type and name)
 * as our reader reads them, not byte by byte (the section header and interface options differ: ours say "MetaRoCE
 * Analyzer" and write nanosecond if_tsresol, statistics blocks are not copied). In-process: no launcher.
 */
class CaptureToolsTest {
    private static final Path SAMPLES = Path.of("..", "samples", "captures");
    private static final Path LOSS = SAMPLES.resolve("rocev2-gbn-loss.pcapng"), CLEAN = SAMPLES.resolve("rocev2-clean.pcapng");

    @TempDir
    static Path tmp;

    /** A classic pcap of another link type (raw IP), microseconds: a second interface in a merge. */
    static Path raw;

    @BeforeAll
    static void rawPcap() throws IOException {
        raw = tmp.resolve("raw.pcap");
        try (PacketSource s = CaptureFiles.open(SAMPLES.resolve("rocev2-hang.pcapng"));
             PcapWriter w = PcapWriter.create(raw, CaptureFormat.PCAP_US, LinkTypes.RAW, 262_144)) {
            for (int n = 0; n < 60 && s.next(); n++) {
                w.write(s.timestampNanos(), s.data(), 14, s.capturedLength() - 14, s.originalLength() - 14);
            }
        }
    }

    /** One frame as a reader sees it. */
    record Frame(long nanos, int linkType, String interfaceName, int captured, long original, String bytes, List<String> comments) {
    }

    static List<Frame> frames(Path file) throws IOException {
        List<Frame> frames = new ArrayList<>();
        Map<Long, String> names = new HashMap<>();
        try (PacketSource s = CaptureFiles.open(file)) {
            while (s.next()) {
                long key = ((long) s.sectionIndex() << 32) | s.interfaceId();
                String name = names.computeIfAbsent(key, k -> {
                    for (CaptureInterface i : s.stats().interfaces()) {
                        if (i.section() == s.sectionIndex() && i.interfaceId() == s.interfaceId()) return String.valueOf(i.name());
                    }
                    return "?";
                });
                byte[] b = s.data().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                frames.add(new Frame(s.timestampNanos(), s.linkType(), name, s.capturedLength(), s.originalLength(),
                        HexFormat.of().formatHex(b), s.comments()));
            }
            assertEquals(List.of(), s.problems(), file + " reads whole");
        }
        return frames;
    }

    /** The real tool's run, or a skip when it is not installed (CI installs it: there Tools fails instead). */
    private static void tool(String... cmd) {
        List<String> out = Tools.lines(tmp, List.of(cmd));
        assumeTrue(out != null, cmd[0] + " is not installed (CI installs it with tshark)");
    }

    private static CliRun ours(String... args) {
        CliRun r = CliRun.of(args);
        assertEquals(0, r.exit(), String.join(" ", args) + ": " + r.err());
        return r;
    }

    private static void sameFrames(Path theirs, Path ours, String what) throws IOException {
        List<Frame> a = frames(theirs), b = frames(ours);
        assertFalse(a.isEmpty(), what + ": the tool wrote frames");
        assertEquals(a.size(), b.size(), what + ": frames");
        for (int i = 0; i < a.size(); i++) assertEquals(a.get(i), b.get(i), what + ": frame " + (i + 1));
    }

    @Test
    void mergeIsMergecap() throws IOException {
        String[] in = {LOSS.toString(), CLEAN.toString(), raw.toString()};
        for (List<String> opts : List.of(List.<String>of(), List.of("-a"), List.of("-s", "100"))) {
            Path theirs = tmp.resolve("mergecap" + opts.size() + ".pcapng"), mine = tmp.resolve("merge" + opts.size() + ".pcapng");
            List<String> t = new ArrayList<>(List.of("mergecap"));
            t.addAll(opts);
            t.addAll(List.of("-w", theirs.toString()));
            t.addAll(List.of(in));
            tool(t.toArray(String[]::new));
            List<String> o = new ArrayList<>(List.of("merge"));
            o.addAll(opts);
            o.addAll(List.of("-w", mine.toString()));
            o.addAll(List.of(in));
            CliRun r = ours(o.toArray(String[]::new));
            sameFrames(theirs, mine, "merge " + opts);
            // mergecap -I all: the inputs' interfaces differ (one is raw IP), so none is shared.
            assertTrue(r.err().contains(" written to " + mine + " (3 interfaces)"), r.err());
        }
        List<Frame> merged = frames(tmp.resolve("merge0.pcapng"));
        for (int i = 1; i < merged.size(); i++) {
            assertTrue(merged.get(i).nanos() >= merged.get(i - 1).nanos(), "in time order at frame " + (i + 1));
        }
        // pcap holds one link type: refused in one line, and no half-written file left.
        Path pcap = tmp.resolve("mixed.pcap");
        // (The raw pcap's first frame ties with the other's: mergecap's tie rule takes it first.)
        CliRun mixed = CliRun.of("merge", "-F", "pcap", "-w", pcap.toString(), LOSS.toString(), raw.toString());
        assertEquals(2, mixed.exit());
        assertEquals(List.of("metaroce merge: cannot write " + pcap + " as pcap: a pcap file holds one link type, and the input has "
                + "101 and 1 (LINKTYPE_*): write pcapng (-F pcapng), which keeps one interface for each"), mixed.err().lines().toList());
        assertFalse(Files.exists(pcap));
    }

    @Test
    void editIsEditcap() throws IOException {
        Path twice = tmp.resolve("twice.pcapng");
        tool("mergecap", "-w", twice.toString(), LOSS.toString(), LOSS.toString());
        // Each chop branch once (from the start, at the end, ending at an offset, from an offset counted from the end),
        // -s before -C as editcap applies them, both time formats, a negative shift.
        List<List<String>> cases = List.of(
                List.of("-r", "@", "1-10", "50", "100-192"), List.of("@", "1-10", "50"),
                List.of("-A", "2026-01-01 00:00:00.000010", "-B", "2026-01-01 00:00:00.000030", "@"),
                List.of("-A", "1767225600.00001", "-B", "1767225600.00003", "@"), List.of("-t", "-1.5", "@"),
                List.of("-C", "-4", "@"), List.of("-C", "10:-4", "@"), List.of("-C", "-10:4", "@"), List.of("-s", "60", "-C", "14", "@"),
                List.of("-D", "5", "twice"), List.of("-F", "pcap", "@"));
        int n = 0;
        for (List<String> c : cases) {
            n++;
            Path theirs = tmp.resolve("editcap" + n + ".cap"), mine = tmp.resolve("edit" + n + ".cap");
            List<String> t = new ArrayList<>(List.of("editcap")), o = new ArrayList<>(List.of("edit"));
            for (String a : c) {
                if (a.equals("@") || a.equals("twice")) {
                    String in = a.equals("@") ? LOSS.toString() : twice.toString();
                    t.addAll(List.of(in, theirs.toString()));
                    o.addAll(List.of(in, mine.toString()));
                } else {
                    t.add(a);
                    o.add(a);
                }
            }
            tool(t.toArray(String[]::new));
            ours(o.toArray(String[]::new));
            sameFrames(theirs, mine, "edit " + c);
        }
        assertEquals(192, frames(tmp.resolve("edit10.cap")).size(), "-D 5 removed the second copy of each frame");
    }

    @Test
    void editSplitsAsEditcapNamesItsFiles() throws IOException {
        // A gap of 3.5 s: editcap -i 1 writes the empty seconds' files too.
        Path late = tmp.resolve("late.pcapng"), gap = tmp.resolve("gap.pcapng");
        ours("edit", "-t", "3.5", CLEAN.toString(), late.toString());
        ours("merge", "-w", gap.toString(), LOSS.toString(), late.toString());
        for (List<String> split : List.of(List.of("-c", "50"), List.of("-i", "1"))) {
            Path theirs = Files.createDirectories(tmp.resolve("editcap" + String.join("", split)));
            Path mine = Files.createDirectories(tmp.resolve("edit" + String.join("", split)));
            tool("editcap", split.get(0), split.get(1), gap.toString(), theirs.resolve("part.pcapng").toString());
            ours("edit", split.get(0), split.get(1), gap.toString(), mine.resolve("part.pcapng").toString());
            List<String> names = names(theirs);
            assertTrue(names.size() > 2, split + ": " + names);
            assertEquals(names, names(mine), split + ": the files");
            for (String f : names) {
                List<Frame> a = frames(theirs.resolve(f)), b = frames(mine.resolve(f));
                assertEquals(a, b, split + ": " + f);
            }
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void infoIsCapinfos() throws IOException {
        Path cut = tmp.resolve("cut60.pcap"), mixed = tmp.resolve("mixed.pcapng");
        ours("edit", "-F", "pcap", "-s", "60", LOSS.toString(), cut.toString());
        tool("mergecap", "-w", mixed.toString(), LOSS.toString(), raw.toString());
        for (Path f : List.of(LOSS, cut, mixed, raw)) {
            List<String> theirs = Tools.lines(tmp, List.of("capinfos", "-T", f.toString()));
            assumeTrue(theirs != null, "capinfos is not installed");
            List<String> mine = ours("info", "-T", f.toString()).out().lines().toList();
            List<String> names = List.of(theirs.get(0).split("\t")), values = List.of(theirs.get(1).split("\t", -1));
            List<String> ourNames = List.of(mine.get(0).split("\t")), ourValues = List.of(mine.get(1).split("\t", -1));
            assertTrue(ourNames.size() >= 20, "columns: " + ourNames);
            for (int i = 0; i < ourNames.size(); i++) {
                int j = names.indexOf(ourNames.get(i));
                assertTrue(j >= 0, "capinfos has a column " + ourNames.get(i));
                assertEquals(values.get(j), ourValues.get(i), f + ": " + ourNames.get(i));
            }
            // The long report: capinfos' lines but what the file's section header says of the host (not read) and how
            // many statistics blocks an interface had (we know whether it had one).
            List<String> longTheirs = new ArrayList<>();
            for (String l : Tools.lines(tmp, List.of("capinfos", f.toString()))) {
                if (!l.startsWith("Capture oper-sys:") && !l.contains("Number of stat entries")) {
                    longTheirs.add(l);
                }
            }
            List<String> longOurs = new ArrayList<>();
            for (String l : ours("info", f.toString()).out().lines().toList()) {
                if (!l.contains("Number of stat entries")) longOurs.add(l);
            }
            assertEquals(longTheirs, longOurs, f + ": the long report");
        }
        // Selectors, exact values, a table without header, comma-separated: as capinfos -M -c -u and -T -r -m -c -d.
        for (List<String> opts : List.of(List.of("-M", "-c", "-d", "-u", "-y", "-x"), List.of("-T", "-r", "-m", "-c", "-d", "-a", "-S"))) {
            List<String> args = new ArrayList<>(opts);
            args.add(cut.toString());
            List<String> t = new ArrayList<>(List.of("capinfos"));
            t.addAll(args);
            List<String> theirs = Tools.lines(tmp, t);
            args.addFirst("info");
            assertEquals(theirs, ours(args.toArray(String[]::new)).out().lines().toList(), String.join(" ", opts));
        }
    }

    /** Interfaces a reader lists in a file. */
    private static int interfaces(Path file) throws IOException {
        try (PacketSource s = CaptureFiles.open(file)) {
            while (s.next()) {
                // to the end: every interface listed
            }
            return s.stats().interfaces().size();
        }
    }

    private static List<String> captureComments(Path file) throws IOException {
        try (PacketSource s = CaptureFiles.open(file)) {
            while (s.next()) {
                // to the end
            }
            return s.stats().fileComments();
        }
    }

    @Test
    void mergeInterfaceModesAndStandardOutputAreMergecaps() throws IOException {
        for (List<String> in : List.of(List.of(LOSS.toString(), CLEAN.toString()), List.of(LOSS.toString(), CLEAN.toString(), raw.toString()))) {
            for (String mode : List.of("none", "all", "any")) {
                Path theirs = tmp.resolve("mergecap-I" + mode + in.size() + ".pcapng"), mine = tmp.resolve("merge-I" + mode + in.size() + ".pcapng");
                List<String> t = new ArrayList<>(List.of("mergecap", "-I", mode, "-w", theirs.toString()));
                t.addAll(in);
                tool(t.toArray(String[]::new));
                List<String> o = new ArrayList<>(List.of("merge", "-I", mode, "-w", mine.toString()));
                o.addAll(in);
                ours(o.toArray(String[]::new));
                sameFrames(theirs, mine, "merge -I " + mode + " " + in.size());
                assertEquals(interfaces(theirs), interfaces(mine), "-I " + mode + " of " + in.size() + ": interfaces");
            }
        }
        // -w -: the same bytes on standard output as in a file, and the summary on standard error.
        Path file = tmp.resolve("to-file.pcapng");
        ours("merge", "-w", file.toString(), LOSS.toString(), CLEAN.toString());
        java.io.PrintStream old = System.out, oldErr = System.err;
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(), err = new java.io.ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new java.io.PrintStream(bytes, true));
            System.setErr(new java.io.PrintStream(err, true));
            exit = Main.run(new String[] {"merge", "-w", "-", LOSS.toString(), CLEAN.toString()});
        } finally {
            System.setOut(old);
            System.setErr(oldErr);
        }
        assertEquals(0, exit, err.toString());
        assertTrue(Arrays.equals(Files.readAllBytes(file), bytes.toByteArray()), "-w - wrote the file's bytes");
        assertTrue(err.toString().contains(" written to standard output (1 interface)"), err.toString());
        CliRun bad = CliRun.of("merge", "-I", "merge", "-w", tmp.resolve("m.pcapng").toString(), CLEAN.toString());
        assertEquals(2, bad.exit());
        assertEquals(List.of("metaroce merge: -I must be none, all or any, not 'merge'"), bad.err().lines().toList());
    }

    @Test
    void editTimeDuplicateCommentAndErrorOptionsAreEditcaps() throws IOException {
        // Out of order (CLEAN's frames come after LOSS's in time), twice over (duplicates), commented.
        Path ooo = tmp.resolve("ooo.pcapng"), twice = tmp.resolve("twice2.pcapng"), commented = tmp.resolve("commented.pcapng");
        tool("mergecap", "-a", "-w", ooo.toString(), CLEAN.toString(), LOSS.toString());
        tool("mergecap", "-w", twice.toString(), LOSS.toString(), LOSS.toString());
        tool("editcap", "-a", "2:old", "--capture-comment", "first", LOSS.toString(), commented.toString());
        List<List<String>> cases = List.of(
                List.of("-S", "0", "ooo"), List.of("-S", "0.000001", "ooo"), List.of("-S", "-0.001", "ooo"), List.of("-S", "-0", "ooo"),
                List.of("-w", "0.00001", "twice"), List.of("-w", "0", "twice"), List.of("-D", "3", "-I", "26", "twice"),
                List.of("-s", "60", "-L", "@"), List.of("-C", "10", "-L", "@"), List.of("-C", "-4", "-L", "@"), List.of("-T", "rawip", "@"),
                List.of("-a", "1:hello", "-a", "3:x", "-a", "1:again", "-a", "2:new", "commented"),
                List.of("--capture-comment", "one", "--capture-comment", "two", "commented"),
                List.of("--discard-capture-comment", "--capture-comment", "mine", "commented"),
                List.of("-E", "0.02", "--seed", "7", "@"), List.of("-E", "0.2", "-o", "42", "--seed", "4000000000", "@"));
        int n = 0;
        for (List<String> c : cases) {
            n++;
            Path theirs = tmp.resolve("editcap-more" + n + ".pcapng"), mine = tmp.resolve("edit-more" + n + ".pcapng");
            List<String> t = new ArrayList<>(List.of("editcap")), o = new ArrayList<>(List.of("edit"));
            for (String a : c) {
                String in = switch (a) {
                    case "@" -> LOSS.toString();
                    case "ooo" -> ooo.toString();
                    case "twice" -> twice.toString();
                    case "commented" -> commented.toString();
                    default -> null;
                };
                if (in != null) {
                    t.addAll(List.of(in, theirs.toString()));
                    o.addAll(List.of(in, mine.toString()));
                } else {
                    t.add(a);
                    o.add(a);
                }
            }
            tool(t.toArray(String[]::new));
            ours(o.toArray(String[]::new));
            sameFrames(theirs, mine, "edit " + c);
            assertEquals(captureComments(theirs), captureComments(mine), "edit " + c + ": capture comments");
        }
        assertTrue(frames(tmp.resolve("edit-more5.pcapng")).size() < frames(twice).size(), "-w removed duplicates");
        assertFalse(frames(tmp.resolve("edit-more15.pcapng")).equals(frames(LOSS)), "-E changed bytes");
        // --discard-packet-comments (editcap 4.2's): the input's go, -a's stay.
        Path discarded = tmp.resolve("discarded.pcapng");
        ours("edit", "--discard-packet-comments", "-a", "3:kept", commented.toString(), discarded.toString());
        List<Frame> d = frames(discarded);
        assertEquals(List.of(), d.get(1).comments());
        assertEquals(List.of("kept"), d.get(2).comments());
        for (String[] bad : List.of(new String[] {"-a", "x:y", "metaroce edit: -a must be FRAME:COMMENT (a frame number from 1, a colon, the comment), not 'x:y'"},
                new String[] {"-T", "fddi", "metaroce edit: -T must be one of ether, rawip, rawip4, rawip6, linux-sll, linux-sll2, null, user0, infiniband, not 'fddi'"},
                new String[] {"-E", "2", "metaroce edit: -E must be a probability from 0 to 1, not 2.0"})) {
            CliRun r = CliRun.of("edit", bad[0], bad[1], LOSS.toString(), tmp.resolve("bad.pcapng").toString());
            assertEquals(2, r.exit());
            assertEquals(List.of(bad[2]), r.err().lines().toList());
        }
    }

    @Test
    void reorderIsReordercap() throws IOException {
        Path ooo = tmp.resolve("ooo-r.pcapng"), oooPcap = tmp.resolve("ooo-r.pcap");
        ours("merge", "-a", "-w", ooo.toString(), CLEAN.toString(), LOSS.toString(), CLEAN.toString());
        ours("edit", "-F", "nsecpcap", ooo.toString(), oooPcap.toString());
        for (Path in : List.of(ooo, oooPcap)) {
            Path theirs = tmp.resolve("reordercap-" + in.getFileName()), mine = tmp.resolve("reorder-" + in.getFileName());
            List<String> said = Tools.lines(tmp, List.of("reordercap", in.toString(), theirs.toString()));
            assumeTrue(said != null, "reordercap is not installed");
            CliRun r = ours("reorder", in.toString(), mine.toString());
            assertEquals(said, r.out().lines().toList());
            sameFrames(theirs, mine, "reorder " + in);
            try (PacketSource a = CaptureFiles.open(theirs); PacketSource b = CaptureFiles.open(mine)) {
                assertEquals(a.format(), b.format(), "the input's file type");
            }
        }
        List<Frame> sorted = frames(tmp.resolve("reorder-ooo-r.pcapng"));
        for (int i = 1; i < sorted.size(); i++) assertTrue(sorted.get(i).nanos() >= sorted.get(i - 1).nanos(), "frame " + (i + 1));
        // -n: a capture in order is not written.
        Path none = tmp.resolve("not-written.pcapng");
        CliRun n = ours("reorder", "-n", CLEAN.toString(), none.toString());
        assertEquals(List.of("79 frames, 0 out of order", "Not writing output file because input file is already in order."), n.out().lines().toList());
        assertFalse(Files.exists(none));
        // A cut capture: the frames before the cut, sorted, and the damage in one line, exit 2.
        Path cut = tmp.resolve("cut-r.pcapng"), cutOut = tmp.resolve("cut-sorted.pcapng");
        Files.write(cut, Arrays.copyOf(Files.readAllBytes(ooo), 100_000));
        CliRun c = CliRun.of("reorder", cut.toString(), cutOut.toString());
        assertEquals(2, c.exit());
        assertEquals(1, c.err().lines().count(), c.err());
        assertTrue(c.err().startsWith("metaroce reorder: " + cut + ": "), c.err());
        assertTrue(frames(cutOut).size() > 79);
    }

    @Test
    void ripemd160GivesThePublishedDigests() {
        String[][] vectors = {{"", "9c1185a5c5e9fc54612808977ee8f548b2258d31"}, {"abc", "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc"},
                {"message digest", "5d0689ef49d2fae572b881b123a85ffa21595f36"},
                {"a".repeat(1_000_000), "52783243c1697bdbe16d37f97f68f08325dc1528"}};
        for (String[] v : vectors) {
            byte[] in = v[0].getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            Ripemd160 whole = new Ripemd160(), pieces = new Ripemd160();
            whole.update(in, 0, in.length);
            // In pieces of every size around a block's 64 bytes: the block boundaries and the padding are right.
            for (int at = 0, n = 1; at < in.length; at += n, n = n % 130 + 1) pieces.update(in, at, Math.min(n, in.length - at));
            assertEquals(v[1], HexFormat.of().formatHex(whole.digest()), "'" + v[0].substring(0, Math.min(20, v[0].length())) + "'");
            assertEquals(v[1], HexFormat.of().formatHex(pieces.digest()));
        }
    }

    @Test
    void damagedAndEmptyInput() throws IOException {
        Path cut = tmp.resolve("cut.pcapng"), empty = tmp.resolve("empty.pcapng");
        byte[] whole = Files.readAllBytes(LOSS);
        Files.write(cut, Arrays.copyOf(whole, 100_000));
        Files.write(empty, new byte[0]);
        int before = frames(LOSS).size();
        // What is before the damage is used, the damage said with its offset, exit 2.
        Path merged = tmp.resolve("damaged-merge.pcapng");
        CliRun m = CliRun.of("merge", "-w", merged.toString(), cut.toString(), CLEAN.toString());
        assertEquals(2, m.exit());
        assertTrue(m.err().lines().anyMatch(l -> l.startsWith("metaroce merge: " + cut + ": ") && l.matches(".* at byte \\d+.*")), m.err());
        int kept = frames(merged).size() - frames(CLEAN).size();
        assertTrue(kept > 0 && kept < before, "frames of the cut capture kept: " + kept);

        Path edited = tmp.resolve("damaged-edit.pcapng");
        CliRun e = CliRun.of("edit", cut.toString(), edited.toString());
        assertEquals(2, e.exit());
        assertTrue(e.err().contains("metaroce edit: " + cut + ": "), e.err());
        assertEquals(kept, frames(edited).size());

        CliRun i = CliRun.of("info", "-c", cut.toString());
        assertEquals(2, i.exit());
        assertEquals(List.of("File name:           " + cut, "Number of packets:   " + kept), i.out().lines().toList());
        assertTrue(i.err().startsWith("metaroce info: " + cut + ": "), i.err());

        for (String[] args : List.of(new String[] {"merge", "-w", tmp.resolve("e.pcapng").toString(), empty.toString()},
                new String[] {"edit", empty.toString(), tmp.resolve("e2.pcapng").toString()}, new String[] {"info", empty.toString()})) {
            CliRun r = CliRun.of(args);
            assertEquals(2, r.exit());
            assertEquals(List.of("metaroce " + args[0] + ": " + empty + ": empty file"), r.err().lines().toList());
        }
        CliRun none = CliRun.of("merge", "-w", tmp.resolve("none.pcapng").toString());
        assertEquals(2, none.exit());
        assertEquals(List.of("metaroce merge: no FILE given (see 'metaroce merge --help')"), none.err().lines().toList());
        CliRun same = CliRun.of("edit", LOSS.toString(), LOSS.toString());
        assertEquals(2, same.exit());
        assertTrue(same.err().contains("is the input"), same.err());
        CliRun range = CliRun.of("edit", LOSS.toString(), tmp.resolve("x.pcapng").toString(), "5-2");
        assertEquals(List.of("metaroce edit: '5-2' is not a frame range (N, A-B or A-, frames counted from 1)"), range.err().lines().toList());
    }
}

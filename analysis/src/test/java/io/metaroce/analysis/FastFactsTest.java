package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.protocol.Spec;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link FastFacts} against the full dissection and {@link FrameFacts#from}: on every frame of every bundled
 * capture (samples/captures, samples/reference) and of every external capture (../shared/reference/external-pcaps,
 * when present), and on damaged copies of the accepted frames, whenever the short cut accepts a frame every field
 * of its facts equals what the dissection gives (also the fields the frame does not set, which keep what the slot
 * held before: both sides see the same frames in the same order), and when it declines it has written nothing.
 */
class FastFactsTest {
    private static final DissectorConfig ANALYZE = new DissectorConfig(Set.of(Spec.ROCE_UDP_PORT), false);
    /** {@code analyze --check-icrc}: a frame with a bad ICRC must be declined (it is not judged). */
    private static final DissectorConfig CHECKED = new DissectorConfig(Set.of(Spec.ROCE_UDP_PORT), true);
    private static final List<Field> FIELDS = Stream.of(FrameFacts.class.getFields())
            .filter(f -> !Modifier.isStatic(f.getModifiers())).toList();

    /** Frames {@link #compare} read from the source's frame buffer (the reader's window), over all captures. */
    private static long framesFromBuffer;

    /**
     * Both paths over one source, and the short cut a second time from the source's frame buffer
     * ({@link FastFacts#fill(FrameFacts, PacketSource)}, as the session calls it), which must take the same frames
     * with the same facts and layout; returns {frames, accepted}.
     */
    private static long[] compare(Path file, DissectorConfig config, List<String> problems, List<byte[]> accepted) throws Exception {
        Dissector dis = new Dissector(config);
        Dissection d = new Dissection();
        FastFacts fast = new FastFacts(config), buffered = new FastFacts(config);
        FrameFacts slow = new FrameFacts(), quick = new FrameFacts(), before = new FrameFacts(), fromBuffer = new FrameFacts();
        long frames = 0, taken = 0;
        try (PacketSource src = CaptureFiles.open(file)) {
            while (src.next()) {
                frames++;
                MemorySegment data = src.data();
                dis.dissect(data, src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(), src.fcsLength(), d);
                slow.from(d);
                before.copyFrom(quick);
                String where = file.getFileName() + " frame " + src.frameNumber() + (config.checkIcrc() ? " (ICRC checked)" : "");
                if (src.frameBufferOffset() >= 0) framesFromBuffer++;
                boolean takenFromBuffer = buffered.fill(fromBuffer, src);
                // From the reader's window, the ICRC too: the mapping's pages are a page fault each at first touch.
                if (src.frameBufferOffset() >= 0 && buffered.slicedTheMapping()) problems.add(where + ": the frame buffer's frame read from the mapping");
                if (fast.fill(quick, data, src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(), src.fcsLength())) {
                    taken++;
                    if (!takenFromBuffer) problems.add(where + ": declined from the frame buffer");
                    else sameLayout(fast, buffered, where, problems);
                    diff(quick, fromBuffer, where + " (from the frame buffer)", problems);
                    diff(slow, quick, where, problems);
                    if (accepted != null && accepted.size() < 4000 && src.linkType() == 1) accepted.add(data.toArray(ValueLayout.JAVA_BYTE));
                } else {
                    diff(before, quick, where + " (declined, but facts written)", problems);
                    if (takenFromBuffer) problems.add(where + ": taken from the frame buffer, declined from the slice");
                    quick.from(d);
                    fromBuffer.from(d);
                }
                if (problems.size() > 20) fail(String.join("\n", problems));
            }
        }
        return new long[] {frames, taken};
    }

    /** What a frame stage reads of an accepted frame ({@link FastFrame}), the same whichever way it was read. */
    private static void sameLayout(FastFrame want, FastFrame got, String where, List<String> problems) {
        int[] a = {want.ipOffset(), want.ipHeaderLength(), want.udpOffset(), want.bthOffset(), want.mrthOffset(),
                want.payloadOffset(), want.icrcOffset()};
        int[] b = {got.ipOffset(), got.ipHeaderLength(), got.udpOffset(), got.bthOffset(), got.mrthOffset(),
                got.payloadOffset(), got.icrcOffset()};
        if (!java.util.Arrays.equals(a, b) || want.ipv6() != got.ipv6() || want.icrcValue() != got.icrcValue()
                || !java.util.Arrays.equals(want.head(), 0, want.payloadOffset(), got.head(), 0, got.payloadOffset())
                || want.data().mismatch(got.data()) != -1)
            problems.add(where + ": the frame buffer's layout, head, ICRC or data differ from the slice's");
    }

    private static void diff(FrameFacts want, FrameFacts got, String where, List<String> problems) {
        // The opcode's kinds that FastFacts sets from its table (the analysis thread reads them, not the strings).
        if (got.opcode != null && got.opcodeKinds() != OpcodeKinds.of(got.opcode))
            problems.add(where + ": opcode kinds " + got.opcodeKinds() + ", of the opcode " + OpcodeKinds.of(got.opcode));
        for (Field f : FIELDS) {
            try {
                if (!Objects.equals(f.get(want), f.get(got))) problems.add(where + ": " + f.getName() + " " + f.get(got) + ", dissection " + f.get(want));
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
    }

    private static List<Path> captures(Path dir) throws Exception {
        if (dir == null || !Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().matches(".*\\.(pcap|pcapng)$")).sorted().toList();
        }
    }

    @Test
    void acceptedFramesGetTheFactsOfTheFullDissection() throws Exception {
        List<String> problems = new ArrayList<>();
        List<byte[]> accepted = new ArrayList<>();
        long frames = 0, taken = 0, files = 0, externalTaken = 0;
        List<Path> all = new ArrayList<>(captures(Path.of("../samples/captures")));
        all.addAll(captures(Path.of("../samples/reference")));
        int bundled = all.size();
        all.addAll(captures(ExternalCaptures.dir()));
        long checkedTaken = 0;
        for (int i = 0; i < all.size(); i++) {
            long[] r = compare(all.get(i), ANALYZE, problems, accepted);
            frames += r[0];
            taken += r[1];
            if (i >= bundled) externalTaken += r[1];
            files++;
            checkedTaken += compare(all.get(i), CHECKED, problems, null)[1];
        }
        if (!problems.isEmpty()) fail(problems.size() + " differences:\n" + String.join("\n", problems));
        assertTrue(bundled >= 20, "bundled captures: " + bundled);
        // The frame-buffer path was taken (both readers have one); the rest went through the slice inside fill.
        assertTrue(framesFromBuffer > frames, framesFromBuffer + " frames read from the frame buffer, of " + frames + " twice");
        // Not vacuous: most sample frames are the common kind, and some are not (CM, anomalies, other links).
        assertTrue(taken > frames / 2 && taken < frames, taken + " of " + frames + " frames accepted");
        // With the ICRC checked, the frames whose ICRC is bad (there are some in the samples) are declined as well.
        assertTrue(checkedTaken > taken / 2 && checkedTaken < taken, checkedTaken + " of " + taken + " accepted with the ICRC checked");
        System.out.println("FastFactsTest: " + files + " captures (" + bundled + " bundled), " + frames + " frames, " + taken
                + " accepted (" + externalTaken + " of them external; " + checkedTaken + " with the ICRC checked), facts identical");

        // Damaged copies of accepted frames: bytes of the headers changed, the frame cut, the wire length changed.
        Random rnd = new Random(14_1);
        // Under both configurations: a damaged byte also breaks the ICRC, which --check-icrc must notice.
        Dissector dis = new Dissector(ANALYZE), disChecked = new Dissector(CHECKED);
        Dissection d = new Dissection();
        FastFacts fast = new FastFacts(ANALYZE), fastChecked = new FastFacts(CHECKED);
        FrameFacts slow = new FrameFacts(), quick = new FrameFacts(), before = new FrameFacts();
        FrameFacts slowChecked = new FrameFacts(), quickChecked = new FrameFacts();
        long mutants = 0, mutantsTaken = 0;
        for (byte[] frame : accepted) {
            for (int m = 0; m < 12; m++) {
                byte[] b = frame.clone();
                int len = b.length;
                long orig = len;
                switch (m % 4) {
                    case 0 -> b[rnd.nextInt(Math.min(len, 96))] ^= (byte) (1 << rnd.nextInt(8));
                    case 1 -> b[rnd.nextInt(Math.min(len, 96))] = (byte) rnd.nextInt(256);
                    case 2 -> { len = rnd.nextInt(len + 1); orig = b.length; }
                    default -> orig = len + rnd.nextInt(9) - 4;
                }
                if (orig < len) orig = len;
                MemorySegment data = MemorySegment.ofArray(java.util.Arrays.copyOf(b, len));
                dis.dissect(data, mutants, 0, orig, 1, -1, d);
                slow.from(d);
                before.copyFrom(quick);
                if (fast.fill(quick, data, mutants, 0, orig, 1, -1)) {
                    mutantsTaken++;
                    diff(slow, quick, "mutant " + mutants + " (kind " + m % 4 + ")", problems);
                } else {
                    diff(before, quick, "mutant " + mutants + " (declined, but facts written)", problems);
                    quick.from(d);
                }
                disChecked.dissect(data, mutants, 0, orig, 1, -1, d);
                slowChecked.from(d);
                before.copyFrom(quickChecked);
                if (fastChecked.fill(quickChecked, data, mutants, 0, orig, 1, -1)) {
                    diff(slowChecked, quickChecked, "mutant " + mutants + " (kind " + m % 4 + ", ICRC checked)", problems);
                } else {
                    diff(before, quickChecked, "mutant " + mutants + " (ICRC checked, declined, but facts written)", problems);
                    quickChecked.from(d);
                }
                mutants++;
                if (problems.size() > 20) fail(String.join("\n", problems));
            }
        }
        if (!problems.isEmpty()) fail(problems.size() + " differences:\n" + String.join("\n", problems));
        assertTrue(mutantsTaken > mutants / 10 && mutantsTaken < mutants * 9 / 10, mutantsTaken + " of " + mutants + " damaged frames accepted");
        System.out.println("FastFactsTest: " + mutants + " damaged frames, " + mutantsTaken + " accepted, facts identical");
    }

    /** The comparison itself sees a wrong field (a guard against a test that cannot fail). */
    /** Facts whose opcode a caller set itself (tests, replays) get the kinds of that opcode, not of an earlier one. */
    @Test
    void opcodeKindsFollowAnOpcodeSetByHand() {
        FrameFacts f = new FrameFacts();
        f.opcode = Spec.OPCODES_TVER0.get(0x64); // UD SEND Only
        assertTrue((f.opcodeKinds() & OpcodeKinds.UD) != 0);
        f.opcode = Spec.OPCODES_TVER0.get(0x0C); // RC RDMA READ Request
        assertEquals(OpcodeKinds.READ, f.opcodeKinds());
        FrameFacts g = new FrameFacts();
        g.copyFrom(f);
        assertEquals(OpcodeKinds.READ, g.opcodeKinds());
    }

    @Test
    void aWrongFieldIsReported() throws Exception {
        Path f = Path.of("../samples/captures/rocev2-clean.pcapng");
        FastFacts fast = new FastFacts(ANALYZE);
        Dissector dis = new Dissector(ANALYZE);
        Dissection d = new Dissection();
        FrameFacts slow = new FrameFacts(), quick = new FrameFacts();
        try (PacketSource src = CaptureFiles.open(f)) {
            // Up to the first frame the short cut takes (the capture opens with connection management, which it
            // declines: those frames are dissected on both sides, as the session does).
            while (true) {
                assertTrue(src.next());
                dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(), src.fcsLength(), d);
                slow.from(d);
                if (fast.fill(quick, src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                        src.fcsLength())) break;
                quick.from(d);
            }
        }
        List<String> problems = new ArrayList<>();
        diff(slow, quick, "first", problems);
        assertEquals(List.of(), problems);
        quick.psn++;
        diff(slow, quick, "first", problems);
        assertEquals(1, problems.size(), problems.toString());
    }

}

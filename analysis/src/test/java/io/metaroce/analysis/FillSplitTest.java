package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.protocol.Spec;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link FillSplit}: the fill of a frame left to the analysis thread, from the head copy the decoding thread made,
 * gives the facts the decoding thread's own fill (or dissection) gives, frame for frame, and the pass's results do
 * not depend on which thread filled which frame. {@code @Timeout} is a hang guard, not a timing assertion.
 */
@Timeout(300)
class FillSplitTest {
    private static final DissectorConfig ANALYZE = new DissectorConfig(Set.of(Spec.ROCE_UDP_PORT), false);
    private static final List<Field> FIELDS = Stream.of(FrameFacts.class.getFields())
            .filter(f -> !Modifier.isStatic(f.getModifiers())).toList();
    private long oldThreshold;
    private int oldSplit;

    @BeforeEach
    void pipelineEveryCapture() {
        oldThreshold = AnalysisSession.pipelineMinBytes;
        oldSplit = AnalysisSession.fillSplit;
        AnalysisSession.pipelineMinBytes = 0;
    }

    @AfterEach
    void restore() {
        AnalysisSession.pipelineMinBytes = oldThreshold;
        AnalysisSession.fillSplit = oldSplit;
    }

    private static List<Path> captures() throws Exception {
        List<Path> all = new ArrayList<>(captures(Path.of("../samples/captures")));
        all.addAll(captures(Path.of("../samples/reference")));
        all.addAll(captures(ExternalCaptures.dir()));
        return all;
    }

    private static List<Path> captures(Path dir) throws Exception {
        if (dir == null || !Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().matches(".*\\.(pcap|pcapng)$")).sorted().toList();
        }
    }

    /**
     * Every frame of every bundled and external capture, its head copied at several lengths (the least allowed,
     * the split's own, the whole frame and between): {@link FastFacts#fillFromHead} fills exactly the frames the fill
     * from the whole frame accepts, with the same facts, declines the ones it declines without writing anything,
     * and asks for the whole frame only when the copy is shorter than the frame.
     */
    @Test
    void aHeadCopyGivesTheFactsOfTheWholeFrameOrAsksForIt() throws Exception {
        List<String> problems = new ArrayList<>();
        FastFacts whole = new FastFacts(ANALYZE), fromHead = new FastFacts(ANALYZE);
        FrameFacts want = new FrameFacts(), prev = new FrameFacts(), got = new FrameFacts(), before = new FrameFacts();
        long frames = 0, filled = 0, needFrame = 0, filledAtHead = 0, framesAtHead = 0;
        for (Path file : captures()) {
            try (PacketSource src = CaptureFiles.open(file)) {
                while (src.next()) {
                    if (src.linkType() != 1 || src.fcsLength() > 0 || src.capturedLength() < 14) continue;
                    frames++;
                    MemorySegment data = src.data();
                    byte[] bytes = data.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                    int cap = bytes.length;
                    // Both fills start from the facts the previous frame left (fill writes only what the frame sets).
                    prev.copyFrom(want);
                    boolean accepted = whole.fill(want, data, src.frameNumber(), src.timestampNanos(), src.originalLength(),
                            1, src.fcsLength());
                    int tail = cap >= 4 ? FastFacts.littleEndianInt(bytes, cap - 4) : 0;
                    for (int copied : new int[] {FastFacts.MIN_HEAD, 80, 100, FillSplit.HEAD, FillSplit.HEAD + 40, cap}) {
                        copied = Math.min(copied, cap);
                        String where = file.getFileName() + " frame " + src.frameNumber() + " (" + copied + " of " + cap + " bytes)";
                        // The copy sits at an offset in a larger array, as in a batch, with other bytes around it.
                        byte[] heads = new byte[3 * FillSplit.HEAD + copied];
                        java.util.Arrays.fill(heads, (byte) 0x5A);
                        System.arraycopy(bytes, 0, heads, FillSplit.HEAD, copied);
                        got.copyFrom(prev);
                        got.number = src.frameNumber();
                        got.timeNs = src.timestampNanos();
                        got.origLen = src.originalLength();
                        got.capLen = cap;
                        got.fileOffset = 12345;
                        before.copyFrom(got);
                        int r = fromHead.fillFromHead(got, heads, FillSplit.HEAD, copied, cap, tail);
                        // Of the frames the whole-frame fill takes: a capture of PAUSE/PFC frames (never filled, as
                        // no frame but RoCE is) made the share say nothing about the head copy.
                        if (accepted && (copied == FillSplit.HEAD || copied == cap && cap <= FillSplit.HEAD)) framesAtHead++;
                        if (r == FastFacts.FILLED) {
                            filled++;
                            if (copied == FillSplit.HEAD || copied == cap && cap <= FillSplit.HEAD) filledAtHead++;
                            if (!accepted) problems.add(where + ": filled from the head, declined whole");
                            diff(want, got, where, problems);
                        } else {
                            if (r == FastFacts.NEED_FRAME) {
                                needFrame++;
                                if (copied == cap) problems.add(where + ": the whole frame copied, and it asks for it");
                            } else if (accepted) {
                                problems.add(where + ": declined from the head, accepted whole");
                            }
                            diff(before, got, where + " (not filled, but facts written)", problems);
                        }
                        if (problems.size() > 20) fail(String.join("\n", problems));
                    }
                    if (!accepted) {
                        // The facts of a declined frame, as the slot would hold them after its dissection.
                        Dissection d = new Dissection();
                        new Dissector(ANALYZE).dissect(data, src.frameNumber(), src.timestampNanos(), src.originalLength(), 1,
                                src.fcsLength(), d);
                        want.from(d);
                    }
                }
            }
        }
        if (!problems.isEmpty()) fail(problems.size() + " differences:\n" + String.join("\n", problems));
        // Not vacuous: most frames the whole-frame fill takes fill from the split's head copy too, and short copies make
        // some ask for the frame.
        assertTrue(filledAtHead > framesAtHead / 2, filledAtHead + " of " + framesAtHead + " accepted frames filled from a head of " + FillSplit.HEAD);
        assertTrue(needFrame > 0, "no copy was too short");
        System.out.println("FillSplitTest: " + frames + " frames, " + filled + " fills from a head copy, " + needFrame
                + " asked for the whole frame; " + filledAtHead + " of " + framesAtHead + " at " + FillSplit.HEAD + " bytes");
    }

    /**
     * Every bundled and external capture analyzed on two threads with every frame's fill left to the analysis thread
     * and with none: the engine sees the same facts, frame for frame (file offsets included), and the results are
     * the same; also under {@code --tap auto}, whose first frames are held before the tap is resolved.
     */
    @Test
    void everyCaptureGivesTheSameFactsWhicheverThreadFills() throws Exception {
        int checked = 0;
        for (Path file : captures()) {
            for (String tap : List.of("mirror", "auto")) {
                if (tap.equals("auto") && checked % 3 != 0) continue; // a third of the captures under auto too
                AnalysisSettings settings = AnalysisSettings.DEFAULT.withTap(AnalysisSettings.Tap.parse(tap));
                sameWhicheverThreadFills(file, settings, file.getFileName() + " tap " + tap);
            }
            checked++;
        }
        assertTrue(checked >= 20, "captures: " + checked);
    }

    /**
     * A capture written for the split's edge cases, larger than the reader's window so that frames lie across its
     * refills: long frames (their ICRC from the tail copy), frames longer than the window, header chains longer than
     * the head copy (IPv4 options), frames with bytes after the IP datagram (the ICRC not at the frame's end),
     * frames cut by the snap length (declined: dissected), each read from the mapping on the analysis thread.
     */
    @Test
    void framesTheHeadCopyDoesNotCoverAreReadFromTheMapping() throws Exception {
        Path cap = edgeCases();
        sameWhicheverThreadFills(cap, AnalysisSettings.DEFAULT, "edge cases");
        // The same frames through FillSplit directly: every frame deferred, then filled from its copy or the mapping.
        FastFacts fast = new FastFacts(ANALYZE);
        Dissector dis = new Dissector(ANALYZE);
        Dissection d = new Dissection();
        // One expected facts object per slot: fill writes only what the frame sets, the rest is the slot's earlier frame's.
        FrameFacts[] want = new FrameFacts[16];
        for (int k = 0; k < want.length; k++) want[k] = new FrameFacts();
        long deferred = 0, frames = 0;
        FillSplit split;
        try (PacketSource src = CaptureFiles.open(cap)) {
            split = new FillSplit(src.mapping(), ANALYZE);
            FillSplit.Batch b = new FillSplit.Batch(16, 0);
            while (src.next()) {
                int k = (int) (frames++ % 16);
                if (split.defer(src, b, k)) deferred++;
                else {
                    assertTrue(src.frameBufferOffset() < 0, "frame " + src.frameNumber() + " in the window not deferred");
                    continue;
                }
                long offset = src.recordOffset();
                split.fill(b, k, k + 1);
                assertEquals(0, b.copied[k], "filled twice");
                if (!fast.fill(want[k], src)) {
                    dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                            src.fcsLength(), d);
                    want[k].from(d);
                }
                want[k].fileOffset = offset;
                List<String> problems = new ArrayList<>();
                diff(want[k], b.facts[k], "frame " + src.frameNumber(), problems);
                if (!problems.isEmpty()) fail(String.join("\n", problems));
            }
        }
        assertTrue(deferred > frames * 9 / 10, deferred + " of " + frames + " deferred");
        // Head chains beyond the copy, ICRCs not at the end, cut frames: 3 of every 20.
        assertTrue(split.framesFromMapping() >= frames * 3 / 20 - 20, split.framesFromMapping() + " of " + frames + " from the mapping");
        assertTrue(split.tooManyFromMapping(), "so many frames from the mapping must stop the split");
    }

    /** A capture whose frames are all read from the mapping stops the split after a few; a clean one never does. */
    @Test
    void theSplitStopsWhenTheMappingIsReadOften() throws Exception {
        Cap clean = new Cap(), cut = new Cap();
        for (int i = 0; i < 3000; i++) {
            clean.add(1_000, Pkt.of(Pkt.SEND_ONLY).from("10.0.0.1", "10.0.0.2").qp(0x201).psn(i).payload(512));
            cut.addTruncated(1_000, Pkt.of(Pkt.SEND_ONLY).from("10.0.0.1", "10.0.0.2").qp(0x201).psn(i).payload(512), 100);
        }
        Path cleanFile = clean.write();
        for (Path p : List.of(cleanFile, cut.write())) {
            try (PacketSource src = CaptureFiles.open(p)) {
                FillSplit split = new FillSplit(src.mapping(), ANALYZE);
                FillSplit.Batch b = new FillSplit.Batch(1, 0);
                long frames = 0, stoppedAt = -1;
                while (src.next()) {
                    assertTrue(split.defer(src, b, 0));
                    split.fill(b, 0, 1);
                    frames++;
                    if (stoppedAt < 0 && split.tooManyFromMapping()) stoppedAt = frames;
                }
                if (p == cleanFile) {
                    assertEquals(0, split.framesFromMapping(), "clean frames read from the mapping");
                    assertEquals(-1, stoppedAt, "a clean capture stopped the split");
                } else {
                    assertEquals(frames, split.framesFromMapping(), "cut frames read from the mapping");
                    assertTrue(stoppedAt > 0 && stoppedAt <= FillSplit.MAPPING_SLACK + 4, "stopped at frame " + stoppedAt);
                }
            }
        }
    }

    private static void sameWhicheverThreadFills(Path file, AnalysisSettings settings, String name) {
        AnalysisSession.fillSplit = AnalysisSession.SPLIT_NEVER;
        List<FrameFacts> never = new ArrayList<>();
        AnalysisResult a = run(file, settings, never);
        AnalysisSession.fillSplit = AnalysisSession.SPLIT_ALWAYS;
        List<FrameFacts> always = new ArrayList<>();
        AnalysisResult b = run(file, settings, always);
        assertEquals(never.size(), always.size(), name + ": frames");
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < never.size() && problems.size() < 20; i++) diff(never.get(i), always.get(i), name + " frame " + (i + 1), problems);
        if (!problems.isEmpty()) fail(String.join("\n", problems));
        assertEquals(a.flows(), b.flows(), name + ": flows");
    }

    private static AnalysisResult run(Path file, AnalysisSettings settings, List<FrameFacts> seen) {
        try {
            return new AnalysisSession(settings, AnalysisSession.Options.RESULTS).onFrame(f -> {
                FrameFacts c = new FrameFacts();
                c.copyFrom(f);
                seen.add(c);
            }).run(file);
        } catch (Exception e) {
            throw new AssertionError(file + ": " + e, e);
        }
    }

    /** 40,000 frames, ~9 MB: see {@link #framesTheHeadCopyDoesNotCoverAreReadFromTheMapping}. */
    private static Path edgeCases() {
        Cap c = new Cap();
        for (int i = 0; i < 40_000; i++) {
            int kind = i % 20;
            Pkt p = Pkt.of(i % 7 == 3 || kind == 1 ? Pkt.WRITE_ONLY : Pkt.SEND_ONLY).from("10.0.0.1", "10.0.0.2").qp(0x201 + i % 5).psn(i / 5);
            if (i % 7 == 3 || kind == 1) p.reth(0x1000L * i, 256);
            if (kind == 0) {
                c.add(1_000, p.payload(200_000 + i % 1000).build(), 0); // longer than the window: decoded at once
            } else if (kind == 1) {
                // A VLAN tag, 40 bytes of IPv4 options, MRTH and RETH: the headers end at byte 130, beyond the copy.
                c.add(1_000, withVlanTag(withIpOptions(p.meta().payload(256).build())), 0);
            } else if (kind == 2) {
                byte[] b = p.payload(300).build(); // bytes after the datagram: the ICRC is not the frame's end
                c.add(1_000, java.util.Arrays.copyOf(b, b.length + 6), 0);
            } else if (kind == 3) {
                c.addTruncated(1_000, p.payload(400), 90); // cut by the snap length: declined, dissected
            } else {
                c.add(1_000, p.payload(i % 3 == 0 ? 16 : 100 + i % 1400).build(), 0);
            }
        }
        return c.write();
    }

    /** The frame (Ethernet, IPv4 without options) with 40 bytes of IPv4 options (NOPs) after its IPv4 header. */
    private static byte[] withIpOptions(byte[] b) {
        int ip = 14, opts = 40;
        byte[] out = new byte[b.length + opts];
        System.arraycopy(b, 0, out, 0, ip + 20);
        java.util.Arrays.fill(out, ip + 20, ip + 20 + opts, (byte) 1);
        System.arraycopy(b, ip + 20, out, ip + 20 + opts, b.length - ip - 20);
        out[ip] = (byte) 0x4F; // version 4, 15 words
        int total = ((out[ip + 2] & 0xFF) << 8 | (out[ip + 3] & 0xFF)) + opts;
        out[ip + 2] = (byte) (total >> 8);
        out[ip + 3] = (byte) total;
        return out;
    }

    /** The frame with an 802.1Q tag (VLAN 5, priority 1) after its MAC addresses. */
    private static byte[] withVlanTag(byte[] b) {
        byte[] out = new byte[b.length + 4];
        System.arraycopy(b, 0, out, 0, 12);
        out[12] = (byte) 0x81;
        out[13] = 0;
        out[14] = 0x20;
        out[15] = 5;
        System.arraycopy(b, 12, out, 16, b.length - 12);
        return out;
    }

    private static void diff(FrameFacts want, FrameFacts got, String where, List<String> problems) {
        for (Field f : FIELDS) {
            try {
                if (!Objects.equals(f.get(want), f.get(got))) problems.add(where + ": " + f.getName() + " " + f.get(got) + ", expected " + f.get(want));
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
        if (want.opcodeKinds() != got.opcodeKinds()) problems.add(where + ": opcode kinds " + got.opcodeKinds() + ", expected " + want.opcodeKinds());
    }
}

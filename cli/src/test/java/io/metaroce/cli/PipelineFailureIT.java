package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.PcapWriter;
import io.metaroce.dissector.FrameBuilder;
import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import io.metaroce.testsupport.Launcher.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14.3, as a user meets it: a capture of 400,000 single-packet QPs (36 MB, so that analyze and validate
 * decode on one thread and analyze on another) under a heap far too small for its per-QP state. The analysis
 * thread runs out of memory; the shipped command must end at once with one line and exit 2, never hang with
 * the decoder blocked on the hand-off queue, never print a stack trace. {@code @Timeout} is a hang guard.
 */
@Timeout(300)
class PipelineFailureIT {
    private static final int QPS = 400_000;
    /** The flow table's default bound whatever the heap (FlowBudget's property): these tests need a heap too small for it. */
    private static final String DEFAULT_BOUND = "-Dmetaroce.maxFlows=65536";

    @TempDir
    static Path tmp;
    private static Path capture;

    @BeforeAll
    static void manyQps() throws Exception {
        capture = tmp.resolve("many-qps.pcap");
        byte[] f = new FrameBuilder().opcode(0x04, 0).payload(16).set("bth.dest_qp", 0).set("bth.psn", 7).build();
        int qpOffset = 14 + 20 + 8 + 5; // Ethernet, IPv4, UDP, then BTH bytes 5-7 (the ICRC goes stale: analyze does not check it)
        try (PcapWriter w = PcapWriter.create(capture, CaptureFormat.PCAP_NS, 1, 65535)) {
            long t = 1_700_000_000_000_000_000L;
            for (int i = 0; i < QPS; i++) {
                int qp = 0x100 + i;
                f[qpOffset] = (byte) (qp >> 16);
                f[qpOffset + 1] = (byte) (qp >> 8);
                f[qpOffset + 2] = (byte) qp;
                w.write(t += 1000, f);
            }
        }
    }

    @Test
    void outOfMemoryInTheAnalysisThreadEndsTheRunInOneLine() throws Exception {
        for (List<String> args : List.of(List.of("analyze", "-r", capture.toString()), List.of("validate", capture.toString()))) {
            // The flow bound the heap would give (FlowBudget: about 2,000 flows) lets this capture through in 32 MB: set to
            // its default, so that the analysis thread does run out of memory.
            Path classes = tmp.resolve("classes-32m-" + args.get(0) + ".log");
            Run r = Launcher.run(Call.of(args).env(Map.of("METAROCE_JAVA_OPTS", "-Xmx32m " + DEFAULT_BOUND
                    + " -Xlog:class+load=info:file=" + classes)));
            assertEquals(2, r.exit(), r.show());
            List<String> lines = r.errLines();
            assertEquals(1, lines.size(), r.show());
            assertTrue(lines.get(0).startsWith("metaroce " + args.get(0) + ": out of memory ("), r.show());
            assertTrue(lines.get(0).contains("METAROCE_JAVA_OPTS=-Xmx"), r.show());
            assertFalse(r.err().contains("\tat ") || r.err().contains("Exception in thread"), r.show());
            // As below: a class read from the jar at a full heap is a second OutOfMemoryError (the jar's central directory).
            assertEquals(List.of(), classesFromTheJar(classes), r.show());
        }
    }

    /**
     * The heap that stays just short of full (issue 14.3's CI hang): under {@code -Xmx256m} the flow table's 65,536
     * flows of this capture (its default bound, set here: the bound the heap gives is about 17,000) leave about a
     * megabyte free after each full collection, so SerialGC runs full collection after full collection without
     * throwing. Before HeapWatch this run took 15-20 full collections (10-16 s
     * on a loaded machine) before the JVM's own error, and a heap a little larger (448m) thrashed through 35 of them
     * (42-55 s). The watch ends it after {@value io.metaroce.analysis.HeapWatch#STREAK} in a row, with its own line:
     * counted in the JVM's log of collections, not in seconds, so the load does not decide.
     */
    @Test
    void aHeapThatStaysFullEndsTheRunAfterAFewFullCollections() throws Exception {
        Path gc = tmp.resolve("gc-256m.log");
        Path classes = tmp.resolve("classes-256m.log");
        Run r = Launcher.run(Call.of("analyze", "-r", capture.toString()).env(Map.of("METAROCE_JAVA_OPTS",
                "-Xmx256m " + DEFAULT_BOUND + " -Xlog:gc:file=" + gc + " -Xlog:class+load=info:file=" + classes)));
        assertEquals(2, r.exit(), r.show());
        assertEquals(1, r.errLines().size(), r.show());
        assertTrue(r.errLines().get(0).startsWith("metaroce analyze: out of memory (the heap stayed over 90 % full through 5 full "
                + "garbage collections in a row; the heap limit is "), r.show());
        long full = Files.readAllLines(gc).stream().filter(l -> l.contains("Pause Full")).count();
        // Seen: 7-8. The collections before the heap filled (1-2), the streak (5), up to two more until a thread of the
        // pass reaches its next check, and the one that frees the dropped state. Without the watch: 15-21.
        assertTrue(full <= 10, full + " full collections\n" + r.show());
        // No class read from the jar, the failure line's either: the run's classes come from the AOT cache, so the jar
        // is never opened, and opening it at the end (FailureLine loaded only then) needs ~1 MB for its central
        // directory, which the full heap did not have on a slower CI machine: the JVM's OutOfMemoryError with its
        // stack trace, exit 1.
        assertEquals(List.of(), classesFromTheJar(classes), r.show());
    }

    /** The lines of a {@code -Xlog:class+load} file for classes read from the jar rather than the AOT cache or the JDK. */
    private static List<String> classesFromTheJar(Path log) throws java.io.IOException {
        return AotCacheIT.classesFromTheJar(Files.readAllLines(log).stream());
    }

    /** The watch never fires on a heap with room: the same capture under -Xmx1g runs to its report. */
    @Test
    void aHeapWithRoomRunsToTheEnd() {
        Run r = Launcher.run(Call.of("analyze", "-r", capture.toString()).env(Map.of("METAROCE_JAVA_OPTS", "-Xmx1g")));
        assertEquals(0, r.exit(), r.show());
        assertEquals("", r.err(), r.show());
    }
}

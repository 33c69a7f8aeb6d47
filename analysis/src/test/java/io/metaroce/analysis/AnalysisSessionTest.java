package io.metaroce.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.ForwardingPacketSource;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.protocol.FieldDef;
import io.metaroce.dissector.FieldCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The typed API of a finished pass: flows, verdicts, events, each flow's frames, progress and cancellation. */
class AnalysisSessionTest {
    private static final Path SAMPLES = Path.of("../samples/captures");
    private static final Path GBN = SAMPLES.resolve("rocev2-gbn-loss.pcapng");
    private static final Path SPRAY = SAMPLES.resolve("metaroce-spray-lossy-path.pcapng");

    /** Every RoCE frame belongs to exactly one flow's frame list, with the file offset its record has. */
    @Test
    void flowFramesListEveryRoceFrameWithItsRecordOffset() throws Exception {
        AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.ALL);
        AnalysisResult r = s.run(GBN);
        Map<Long, String> flowOf = new HashMap<>();
        Map<Long, Long> offsetOf = new HashMap<>();
        long total = 0;
        for (FlowSummary f : r.flows()) {
            FrameList l = s.framesOf(f.id());
            assertEquals(f.counters().packets(), l.size(), f.id());
            for (int i = 0; i < l.size(); i++) {
                assertTrue(i == 0 || l.frame(i) > l.frame(i - 1), "capture order");
                assertEquals(null, flowOf.put(l.frame(i), f.id()), "frame in two flows");
                offsetOf.put(l.frame(i), l.offset(i));
                assertEquals(i, l.indexOf(l.frame(i)));
            }
            total += l.size();
        }
        assertEquals(((Number) r.capture().get("roce_frames")).longValue(), total);
        try (PacketSource src = CaptureFiles.open(GBN)) {
            while (src.next()) {
                Long off = offsetOf.get(src.frameNumber());
                if (off != null) assertEquals(src.recordOffset(), off.longValue(), "frame " + src.frameNumber());
            }
        }
    }

    /** analyze does not pay for what it does not ask: no verdicts, no events, no frame lists. */
    @Test
    void resultsOnlyKeepsNothingElse() throws Exception {
        AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS);
        AnalysisResult r = s.run(GBN);
        assertEquals(0, s.framesOf(r.flows().get(0).id()).size());
        assertEquals(0, s.events().size());
        assertThrows(IllegalStateException.class, () -> s.verdictOf(1));
    }

    /** verdictOf agrees with the analysis.* fields of every frame; events are indexed by their frame. */
    @Test
    void verdictsAndEventsMatchTheFrameFields() throws Exception {
        for (Path file : List.of(GBN, SPRAY)) {
            List<AnalysisEvent> live = new ArrayList<>();
            AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.ALL).onEvent(live::add);
            s.run(file);
            assertEquals(live.size(), s.events().size(), "the log keeps what the listener saw");
            for (AnalysisEvent e : live) assertTrue(s.events().at(e.frame()).contains(e), e.toJson());
            AnalysisFrameFields fields = s.frameFields();
            FieldCatalog c = FieldCatalog.get();
            FieldDef retx = c.field("analysis.retransmission"), cause = c.field("analysis.retransmission_cause"),
                    spurious = c.field("analysis.spurious"), ooo = c.field("analysis.out_of_order"),
                    original = c.field("analysis.original_frame");
            Dissector dis = new Dissector();
            Dissection d = new Dissection();
            int retransmissions = 0;
            try (PacketSource src = CaptureFiles.open(file)) {
                while (src.next()) {
                    dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                            src.fcsLength(), d);
                    fields.attach(d);
                    FrameVerdict v = s.verdictOf(d.number());
                    Map<FieldDef, Object> x = extra(d);
                    assertEquals(Boolean.TRUE.equals(x.get(retx)), v.retransmission(), "frame " + d.number());
                    assertEquals(Boolean.TRUE.equals(x.get(ooo)), v.outOfOrder(), "frame " + d.number());
                    if (v.retransmission()) {
                        retransmissions++;
                        assertEquals(x.get(cause), v.cause().label());
                        assertEquals(x.get(original), v.originalFrame());
                        if (v.spurious() != FrameVerdict.Spurious.UNDECIDED) {
                            // analysis.spurious is present only when true, like every analysis flag
                            assertEquals(v.spurious() == FrameVerdict.Spurious.YES ? Boolean.TRUE : null, x.get(spurious));
                        }
                        assertFalse(s.events().at(d.number()).isEmpty(), "a retransmission has its event");
                    }
                }
            }
            assertTrue(retransmissions > 0, file + " has retransmissions");
        }
    }

    private static Map<FieldDef, Object> extra(Dissection d) {
        Map<FieldDef, Object> m = new HashMap<>();
        var x = d.extra();
        for (int i = 0; i < x.size(); i++) m.put(x.field(i), x.stringValue(i) != null ? x.stringValue(i) : x.longValue(i));
        // Booleans are kept as 0/1 longs in the extra fields.
        m.replaceAll((k, v) -> k.name().equals("analysis.retransmission") || k.name().equals("analysis.spurious")
                || k.name().equals("analysis.out_of_order") ? Long.valueOf(1).equals(v) : v);
        return m;
    }

    /** Progress comes from the decoding thread; cancel() from it ends the run, and nothing is readable. */
    @Test
    void progressAndCancellation() throws Exception {
        AtomicLong calls = new AtomicLong();
        AnalysisSession done = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS)
                .onProgress((pos, total, frames) -> {
                    assertTrue(pos <= total);
                    calls.incrementAndGet();
                });
        done.run(SPRAY);
        assertTrue(calls.get() >= 1);

        AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.ALL);
        s.onProgress((pos, total, frames) -> s.cancel());
        assertThrows(CancellationException.class, () -> s.run(SPRAY));
        assertEquals(AnalysisSession.State.CANCELLED, s.state());
        assertThrows(IllegalStateException.class, s::result);
        assertThrows(IllegalStateException.class, () -> s.run(SPRAY), "a session runs once");
    }

    /** A background pass, read from this thread once finished. */
    @Test
    void runInBackgroundReadOnAnotherThread() throws Exception {
        AnalysisSession s = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.ALL);
        assertThrows(IllegalStateException.class, s::flows, "nothing before the pass");
        CompletableFuture<AnalysisResult> f = CompletableFuture.supplyAsync(() -> {
            try {
                return s.run(SPRAY);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        AnalysisResult r = f.get();
        assertEquals(AnalysisSession.State.FINISHED, s.state());
        assertEquals(r.flows(), s.flows());
        assertTrue(s.flows().stream().anyMatch(x -> "metaroce".equals(x.transport()) && !x.metaRoce().paths().isEmpty()),
                "a MetaRoCE flow has its paths");
    }

    /**
     * A source that is not a file (no mapping, read once, as a live capture is): the same flows as the file,
     * with --tap auto resolved from the frames held back at the start.
     */
    @Test
    void sourceWithoutMappingGivesTheSameResult() throws Exception {
        for (Path file : List.of(GBN, SPRAY)) {
            AnalysisResult fromFile = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).run(file);
            AnalysisResult live;
            try (PacketSource src = ForwardingPacketSource.withoutMapping(CaptureFiles.open(file))) {
                live = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.RESULTS).run(src, "live");
            }
            assertEquals(fromFile.flows(), live.flows(), file.toString());
            assertEquals(((Map<?, ?>) fromFile.capture().get("tap")).get("resolved"),
                    ((Map<?, ?>) live.capture().get("tap")).get("resolved"));
        }
    }

    /**
     * A pass without statistics (validate's) keeps no open messages and no ACK round-trip or message-completion
     * distributions, and nothing else changes: the same events in the same order, the same capture summary, the same
     * flows but those counts and latencies, on every bundled capture. Fails when the engine ignores the setting
     * (messages still counted) and when leaving the statistics out changes a verdict.
     */
    @Test
    void withoutStatisticsOnlyTheStatisticsGo() throws Exception {
        AnalysisSession.Options eventsOnly = new AnalysisSession.Options(false, true, false);
        long messagesWith = 0, rttsWith = 0, events = 0;
        List<Path> files = new ArrayList<>();
        try (var dir = java.nio.file.Files.newDirectoryStream(SAMPLES, "*.pcap*")) {
            for (Path p : dir) files.add(p);
        }
        files.sort(null);
        assertTrue(files.size() >= 20, "the bundled captures: " + files);
        for (Path file : files) {
            List<AnalysisEvent> withEv = new ArrayList<>(), withoutEv = new ArrayList<>();
            AnalysisResult with = new AnalysisSession(AnalysisSettings.DEFAULT, eventsOnly).onEvent(withEv::add).run(file);
            AnalysisResult without = new AnalysisSession(AnalysisSettings.DEFAULT, eventsOnly).onEvent(withoutEv::add)
                    .withoutStatistics().run(file);
            assertEquals(withEv.stream().map(AnalysisEvent::toJson).toList(),
                    withoutEv.stream().map(AnalysisEvent::toJson).toList(), file.toString());
            events += withEv.size();
            assertEquals(with.capture(), without.capture(), file.toString());
            assertEquals(with.flows().size(), without.flows().size(), file.toString());
            for (int i = 0; i < with.flows().size(); i++) {
                Map<String, Object> a = with.flows().get(i).toJsonMap(), b = without.flows().get(i).toJsonMap();
                messagesWith += ((Number) a.get("messages")).longValue();
                if (((Map<?, ?>) a.get("latency")).get("ack_rtt_ns") != null) rttsWith++;
                if (with.flows().get(i).srcQps() == null) assertEquals(0L, ((Number) b.get("messages")).longValue(), file + " " + a.get("id"));
                assertEquals(0L, ((Number) b.get("messages_completed")).longValue(), file + " " + a.get("id"));
                assertEquals(null, ((Map<?, ?>) b.get("latency")).get("ack_rtt_ns"), file + " " + a.get("id"));
                assertEquals(null, ((Map<?, ?>) b.get("latency")).get("message_completion_ns"), file + " " + a.get("id"));
                assertEquals(withoutStatistics(a), withoutStatistics(b), file + " " + a.get("id"));
            }
        }
        assertTrue(messagesWith > 1000 && rttsWith > 20 && events > 100, "not vacuous: " + messagesWith + " messages, "
                + rttsWith + " flows with ACK round trips, " + events + " events");
        // A pass that records per-frame verdicts (they name the message a frame completed) keeps the statistics.
        AnalysisResult all = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.ALL).withoutStatistics().run(GBN);
        AnalysisResult plain = new AnalysisSession(AnalysisSettings.DEFAULT, AnalysisSession.Options.ALL).run(GBN);
        assertEquals(plain.flows(), all.flows());
        assertTrue(all.flows().stream().mapToLong(f -> f.counters().messages()).sum() > 0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutStatistics(Map<String, Object> flow) {
        Map<String, Object> m = new java.util.LinkedHashMap<>(flow);
        m.remove("messages");
        m.remove("messages_completed");
        Map<String, Object> lat = new java.util.LinkedHashMap<>((Map<String, Object>) m.get("latency"));
        lat.remove("ack_rtt_ns");
        lat.remove("message_completion_ns");
        m.put("latency", lat);
        return m;
    }
}

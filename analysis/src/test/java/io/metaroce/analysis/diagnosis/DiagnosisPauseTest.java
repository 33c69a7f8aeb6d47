package io.metaroce.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.testsupport.PauseFrames;
import io.metaroce.testsupport.PauseFrames.Frame;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pfc-pause-storm and pfc-pause-heavy on captures made of a sample's RoCE frames (VLAN priority 3) and PFC frames: a
 * receiver that pauses class 3 without end past the watchdog's detection time (the senders' QPs stop there, requests
 * outstanding: the receiver acknowledged nothing in the 20 us before it), short ordinary pauses that are no finding, and a class paused a third of the time in short runs.
 */
class DiagnosisPauseTest {
    @TempDir
    Path tmp;

    private static final Path INCAST = Path.of("../samples/captures/rocev2-ecn-cnp.pcapng");
    private static final long SWITCH = PauseFrames.SWITCH_A;

    /** The sample's frames before its middle frame, then: from its receiver XOFF on class 3 every 50 us for 250 ms. */
    private record Storm(List<Frame> frames, long receiver, long startNs, long firstXoff, long lastXoff) {}

    private static Storm storm() throws Exception {
        List<Frame> sample = new ArrayList<>();
        try (PacketSource src = CaptureFiles.open(INCAST)) {
            while (src.next()) sample.add(new Frame(src.timestampNanos(), src.data().toArray(ValueLayout.JAVA_BYTE)));
        }
        long t0 = sample.getFirst().timeNanos(), cut = sample.get(sample.size() / 2).timeNanos();
        // The incast's receiver: the destination MAC of the first frame of the capture, taken at the receiver.
        long receiver = mac(sample.getFirst().bytes(), 0);
        List<Frame> l = new ArrayList<>();
        // An ordinary pause early on, by a switch on class 3: 10 us, released by an XON. No finding.
        boolean early = false;
        for (Frame f : sample) {
            if (f.timeNanos() >= cut) break;
            // The receiver got stuck 20 us before its first XOFF: what reached the switch since was never acknowledged.
            if (f.timeNanos() >= cut - 20_000 && mac(f.bytes(), 6) == receiver) continue;
            if (!early && f.timeNanos() > t0 + 50_000) {
                l.add(new Frame(t0 + 50_000, PauseFrames.pfc(SWITCH, 0x08, 0, 0, 0, 65535)));
                l.add(new Frame(t0 + 60_000, PauseFrames.pfc(SWITCH, 0x08, 0, 0, 0, 0)));
                early = true;
            }
            l.add(f);
        }
        long first = l.size() + 1;
        for (long t = cut; t <= cut + 250_000_000L; t += 50_000) l.add(new Frame(t, PauseFrames.pfc(receiver, 0x08, 0, 0, 0, 65535)));
        return new Storm(l, receiver, cut, first, l.size());
    }

    private static long mac(byte[] frame, int at) {
        long m = 0;
        for (int i = at; i < at + 6; i++) m = m << 8 | (frame[i] & 0xFF);
        return m;
    }

    private Diagnosis diagnose(List<Frame> frames, AnalysisSettings s, long watchdogNs) throws Exception {
        Path f = PauseFrames.write(tmp.resolve("p.pcap"), frames);
        Diagnoser d = new Diagnoser(null).withFlowControl(s.linkSpeedGbps(), watchdogNs);
        new AnalysisSession(s, AnalysisSession.Options.RESULTS).onFrame(d).run(f);
        return d.finish();
    }

    private static List<Finding> rule(Diagnosis d, String r) {
        return d.findings().stream().filter(f -> f.rule().equals(r)).toList();
    }

    @Test
    void aClassPausedPastTheWatchdogIsAStormThatStalledTheQpsOnIt() throws Exception {
        Storm s = storm();
        Diagnosis d = diagnose(s.frames(), AnalysisSettings.DEFAULT, Diagnoser.DEFAULT_PFC_WATCHDOG_NS);
        List<Finding> storms = rule(d, "pfc-pause-storm");
        assertEquals(1, storms.size(), d.findings().toString());
        Finding f = storms.getFirst();
        String mac = io.metaroce.dissector.Addresses.mac(s.receiver());
        assertEquals(mac + " priority 3", f.subject());
        assertEquals(s.startNs(), f.startedNs());
        assertEquals(List.of(s.firstXoff(), s.lastXoff()), f.evidence());
        Map<String, Object> x = f.details();
        // Without the link speed, timed at 400 Gb/s: the last XOFF's 65535 quanta reach 83.9 us past the last frame,
        // which is not counted; refreshed every 50 us, the run never broke.
        assertEquals(250_000_000L, x.get("paused_ns"));
        assertEquals(true, x.get("paused_lower_bound"));
        assertEquals(true, x.get("until_end_of_capture"));
        assertEquals(5001L, x.get("xoff_frames"), "one every 50 us for 250 ms, both ends");
        @SuppressWarnings("unchecked")
        List<String> stalled = (List<String>) x.get("stalled_flows");
        assertFalse(stalled.isEmpty(), x.toString());
        assertEquals((long) stalled.size(), x.get("stalled_flow_count"));
        assertTrue(f.summary().startsWith("priority 3 paused for at least 250.0 ms without a break by " + mac
                + ", still at the end of the capture: a PFC storm (a receiver that stopped taking frames); "
                + "a switch watchdog (200 ms) would have dropped it; " + stalled.size() + " QP(s) on it sent nothing since, "
                + "requests outstanding: " + stalled.getFirst()), f.summary());
        // The storm's class is not also "heavy"; the switch's 10 us pause is nothing.
        assertEquals(List.of(), rule(d, "pfc-pause-heavy"));
        for (Finding g : d.findings()) assertFalse(g.subject().startsWith("02:00:00:00:00:0a"), g.toString());
    }

    @Test
    void aLongerWatchdogSeesNoStormButAHeavilyPausedClass() throws Exception {
        Storm s = storm();
        Diagnosis d = diagnose(s.frames(), AnalysisSettings.DEFAULT, 300_000_000L);
        assertEquals(List.of(), rule(d, "pfc-pause-storm"));
        List<Finding> heavy = rule(d, "pfc-pause-heavy");
        assertEquals(1, heavy.size(), d.findings().toString());
        assertEquals(io.metaroce.dissector.Addresses.mac(s.receiver()) + " priority 3", heavy.getFirst().subject());
        assertTrue((Integer) heavy.getFirst().details().get("flow_count_on_priority") > 0, heavy.toString());
    }

    @Test
    void aClassPausedAThirdOfTheTimeInShortRunsIsHeavyNotAStorm() throws Exception {
        List<Frame> l = new ArrayList<>();
        // Class 0: paused 1 ms in every 3 (XOFF refreshed every 100 us, then XON); class 1: 0.2 ms in every 3.
        for (long t = 0; t < 30_000_000L; t += 3_000_000L) {
            for (long u = 0; u < 1_000_000L; u += 100_000) l.add(new Frame(t + u, PauseFrames.pfc(SWITCH, 0x01, 65535)));
            l.add(new Frame(t + 1_000_000L, PauseFrames.pfc(SWITCH, 0x01, 0)));
            l.add(new Frame(t + 1_100_000L, PauseFrames.pfc(SWITCH, 0x02, 0, 65535)));
            l.add(new Frame(t + 1_300_000L, PauseFrames.pfc(SWITCH, 0x02, 0, 0)));
        }
        l.add(new Frame(30_000_000L, PauseFrames.pfc(SWITCH, 0x02, 0, 0)));
        AnalysisSettings at100 = AnalysisSettings.DEFAULT.withLinkSpeed(100);
        Diagnosis d = diagnose(l, at100, Diagnoser.DEFAULT_PFC_WATCHDOG_NS);
        assertEquals(List.of(), rule(d, "pfc-pause-storm"));
        List<Finding> heavy = rule(d, "pfc-pause-heavy");
        assertEquals(1, heavy.size(), d.findings().toString());
        Finding h = heavy.getFirst();
        assertEquals("02:00:00:00:00:0a priority 0", h.subject());
        assertEquals(10_000_000L, h.details().get("paused_ns"));
        assertEquals(0.3333, h.details().get("paused_share"));
        assertEquals(false, h.details().get("paused_lower_bound"));
        assertEquals(List.of(1L), h.evidence());
        assertEquals("priority 0 paused 33.3 % of the capture by 02:00:00:00:00:0a, never for the watchdog's 200 ms at once: "
                + "a slow receiver holding back its senders", h.summary());
        // Without the speed, 65535 quanta at 400 Gb/s last 83.9 us: the runs break between the 100 us refreshes, and
        // what is left (10 x 83.9 us in every 3 ms) is still above 20 %: heavy, "at least".
        Finding low = rule(diagnose(l, AnalysisSettings.DEFAULT, Diagnoser.DEFAULT_PFC_WATCHDOG_NS), "pfc-pause-heavy").getFirst();
        assertEquals(List.of(8_388_500L, 0.2796, true), List.of(low.details().get("paused_ns"), low.details().get("paused_share"),
                low.details().get("paused_lower_bound")));
        assertTrue(low.summary().startsWith("priority 0 paused at least 28.0 % of the capture"), low.summary());
    }

    @Test
    void theFlowControlVectorsAndTheSamplesWithoutPauseFramesHaveNoPauseFinding() throws Exception {
        Diagnosis d = diagnose(PauseFrames.vectors(), AnalysisSettings.DEFAULT.withLinkSpeed(100), Diagnoser.DEFAULT_PFC_WATCHDOG_NS);
        assertEquals(List.of(), d.findings());
    }
}

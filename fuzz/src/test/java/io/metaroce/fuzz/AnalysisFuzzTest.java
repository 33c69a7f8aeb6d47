package io.metaroce.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.metaroce.analysis.AnalysisEvent;
import io.metaroce.analysis.AnalysisResult;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.analysis.FlowSummary;
import io.metaroce.analysis.diagnosis.Diagnoser;
import io.metaroce.analysis.diagnosis.Diagnosis;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.capture.testing.InMemoryPacketSource;
import io.metaroce.capture.testing.InMemoryPacketSource.Frame;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;

/**
 * The analysis engine (QP state, CM pairing, retransmission and ACK analysis, MetaRoCE control, congestion) and
 * the diagnosis, fed frame sequences that are mutations of the bundled samples' real traffic: frames lost,
 * duplicated, swapped, mixed from other captures, with PSNs, opcodes, destination QPs and any byte rewritten and
 * time jumping either way. Mutating real sequences, not random bytes, keeps most inputs RoCE frames of live flows,
 * so the fuzzer reaches the state machines instead of stopping in the dissector.
 *
 * <p>Contract: the run never throws; every flow's JSON and the diagnosis (JSON and text) build; flows account for no
 * more frames than were fed; every event names a frame that was fed; every frame has a verdict.
 */
class AnalysisFuzzTest {
    /** The first frames of every bundled sample: enough for CM setup, data, ACKs, NAKs and loss in each. */
    private static final int FRAMES_PER_SAMPLE = 400;
    private static final List<List<Template>> SAMPLES = loadSamples(Path.of("../samples/captures"));

    /** One real frame, with where its BTH starts (-1 when it has none that this test locates). */
    private record Template(byte[] bytes, long timeNs, int linkType, int fcsLength, int bth) {}

    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @FuzzTest(maxDuration = "5m")
    void analyzeMutatedSequences(FuzzedDataProvider data) {
        List<Template> sample = SAMPLES.get(data.consumeInt(0, SAMPLES.size() - 1));
        List<Frame> frames = new ArrayList<>();
        int at = 0;
        long shiftNs = 0;
        int steps = data.consumeInt(1, 600);
        for (int i = 0; i < steps && data.remainingBytes() > 0 && at < sample.size(); i++) {
            Template t = sample.get(at);
            byte[] b = t.bytes().clone();
            switch (data.consumeInt(0, 9)) {
                case 0, 1, 2 -> { } // as captured: most steps keep the flow alive
                case 3 -> at += data.consumeInt(0, 20); // a loss burst
                case 4 -> { if (!frames.isEmpty()) frames.add(frames.get(frames.size() - 1)); } // duplicate
                case 5 -> { // the next frame comes before this one
                    if (at + 1 < sample.size()) {
                        Template n = sample.get(at + 1);
                        frames.add(new Frame(n.bytes().clone(), n.timeNs() + shiftNs, n.linkType(), n.fcsLength()));
                    }
                }
                case 6 -> { if (t.bth() >= 0) put(b, t.bth() + 9, 3, data.consumeInt()); } // PSN
                case 7 -> { // opcode or destination QP
                    if (t.bth() >= 0) {
                        if (data.consumeBoolean()) b[t.bth()] = data.consumeByte();
                        else put(b, t.bth() + 5, 3, data.consumeInt());
                    }
                }
                case 8 -> { if (b.length > 0) b[data.consumeInt(0, b.length - 1)] = data.consumeByte(); } // any byte
                default -> shiftNs += data.consumeLong(-2_000_000_000L, 5_000_000_000L); // time jumps, also backwards
            }
            frames.add(new Frame(b, t.timeNs() + shiftNs, t.linkType(), t.fcsLength()));
            at++;
            if (data.consumeInt(0, 31) == 0) { // now and then a frame of another capture: flows that interleave
                List<Template> other = SAMPLES.get(data.consumeInt(0, SAMPLES.size() - 1));
                Template o = other.get(data.consumeInt(0, other.size() - 1));
                frames.add(new Frame(o.bytes().clone(), o.timeNs() + shiftNs, o.linkType(), o.fcsLength()));
            }
        }
        if (frames.isEmpty()) return;
        // now and then a tiny flow table, so that eviction runs while flows are in the middle of their messages
        check(frames, data.consumeBoolean() ? AnalysisSettings.DEFAULT : withMaxFlows(data.consumeInt(2, 8)));
    }

    private static void check(List<Frame> frames, AnalysisSettings settings) {
        Diagnoser diagnoser = new Diagnoser(null, 4);
        List<AnalysisEvent> events = new ArrayList<>();
        AnalysisSession session = new AnalysisSession(settings, AnalysisSession.Options.ALL)
                .onEvent(events::add).onFrame(diagnoser);
        AnalysisResult result = session.run(InMemoryPacketSource.of(frames), "fuzz");
        long packets = 0;
        for (FlowSummary f : result.flows()) {
            f.toJsonMap();
            packets += f.counters().packets();
        }
        if (packets > frames.size()) throw new AssertionError(packets + " packets in flows from " + frames.size() + " frames");
        for (AnalysisEvent e : events) {
            if (e.frame() < 1 || e.frame() > frames.size()) throw new AssertionError("event at frame " + e.frame() + ": " + e.toJson());
        }
        for (long n = 1; n <= frames.size(); n++) session.verdictOf(n);
        Diagnosis diagnosis = diagnoser.finish();
        diagnosis.toJsonMap();
        try {
            diagnosis.appendText(new StringBuilder());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static AnalysisSettings withMaxFlows(int n) {
        AnalysisSettings d = AnalysisSettings.DEFAULT;
        return new AnalysisSettings(d.rocePorts(), d.tap(), d.cnpIntervalNs(), d.ceWindowNs(), d.slackNs(), d.minRttNs(),
                d.cnpPacing(), d.pmtuOverrides(), d.pathCountOverrides(), d.checkIcrc(), d.idleExpiryNs(),
                d.duplicateWindowNs(), n);
    }

    private static void put(byte[] b, int at, int width, int value) {
        for (int i = width - 1; i >= 0 && at + i < b.length; i--, value >>>= 8) b[at + i] = (byte) value;
    }

    private static List<List<Template>> loadSamples(Path dir) {
        List<List<Template>> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".pcapng")).sorted().toList()) {
                List<Template> frames = new ArrayList<>();
                try (PacketSource s = CaptureFiles.open(p)) {
                    while (frames.size() < FRAMES_PER_SAMPLE && s.next()) {
                        byte[] b = s.data().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                        frames.add(new Template(b, s.timestampNanos(), s.linkType(), s.fcsLength(), bthOffset(b, s.linkType())));
                    }
                }
                if (!frames.isEmpty()) all.add(frames);
            }
        } catch (IOException e) { // CaptureException is one
            throw new IllegalStateException("cannot read the bundled samples in " + dir.toAbsolutePath(), e);
        }
        if (all.isEmpty()) throw new IllegalStateException("no bundled samples in " + dir.toAbsolutePath());
        return all;
    }

    /** Where the BTH of an Ethernet frame starts: RoCEv2 over IPv4 or IPv6 (port 4791, one VLAN tag allowed) or RoCEv1. */
    private static int bthOffset(byte[] b, int linkType) {
        if (linkType != 1 || b.length < 14) return -1;
        int at = 12;
        int type = u16(b, at);
        if (type == 0x8100 && b.length >= 18) { at += 4; type = u16(b, at); }
        int ip = at + 2;
        int udp;
        if (type == 0x8915) return ip + 40 < b.length ? ip + 40 : -1;
        if (type == 0x0800 && ip + 20 <= b.length && b[ip + 9] == 17) udp = ip + (b[ip] & 0x0F) * 4;
        else if (type == 0x86DD && ip + 40 <= b.length && b[ip + 6] == 17) udp = ip + 40;
        else return -1;
        return udp + 8 + 12 <= b.length && u16(b, udp + 2) == 4791 ? udp + 8 : -1;
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | (b[at + 1] & 0xFF);
    }
}

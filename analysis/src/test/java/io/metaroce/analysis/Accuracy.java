package io.metaroce.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.protocol.OpcodeDef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Scores the analysis of a simulator capture against its ground truth (samples/README.md): precision and recall
 * of the per-frame labels (retransmission, spurious, out of order), per-flow counters, per-path losses.
 * Out of order is not a truth label; it is derived from the truth's frames: a first copy of a request PSN that
 * arrives after a higher PSN of its flow was captured.
 */
final class Accuracy {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String[] LABELS = {"retransmission", "spurious", "out_of_order"};

    /** Confusion counts of one label. */
    static final class Counts {
        long tp, fp, fn;

        void add(boolean truth, boolean got) {
            if (truth && got) tp++;
            else if (got) fp++;
            else if (truth) fn++;
        }

        void add(Counts o) {
            tp += o.tp;
            fp += o.fp;
            fn += o.fn;
        }

        double precision() { return tp + fp == 0 ? 1 : (double) tp / (tp + fp); }

        double recall() { return tp + fn == 0 ? 1 : (double) tp / (tp + fn); }

        @Override
        public String toString() {
            return String.format("P=%.4f R=%.4f (tp %d fp %d fn %d)", precision(), recall(), tp, fp, fn);
        }
    }

    static final class Score {
        final String name;
        final Map<String, Counts> labels = new LinkedHashMap<>();
        final List<String> mismatches = new ArrayList<>();
        final List<String> countMismatches = new ArrayList<>();
        final List<String> pathFindings = new ArrayList<>();
        final List<String> causeMismatches = new ArrayList<>();
        long causeAgree, causeTotal, causeTotalSender, spuriousUnknown;
        AnalysisResult result;
        String tap;

        Score(String name) {
            this.name = name;
            for (String l : LABELS) labels.put(l, new Counts());
        }
    }

    static JsonNode truth(Path f) throws IOException { return JSON.readTree(f.toFile()); }

    /** Pairs of (capture, truth) in a directory. */
    static List<Path[]> pairs(Path dir) throws IOException {
        List<Path[]> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) return out;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.sorted().toList()) {
                String n = p.getFileName().toString();
                if (!n.endsWith(".truth.json")) continue;
                String base = n.substring(0, n.length() - ".truth.json".length());
                for (String ext : new String[] {".pcapng", ".pcap"}) {
                    Path c = dir.resolve(base + ext);
                    if (Files.exists(c)) {
                        out.add(new Path[] {c, p});
                        break;
                    }
                }
            }
        }
        return out;
    }

    static Score score(String name, Path capture, Path truthFile, AnalysisSettings settings) throws Exception {
        JsonNode t = truth(truthFile);
        Score s = new Score(name);
        JsonNode cap = t.get("capture");
        s.tap = cap.get("tap").asText() + (cap.has("tap_host") ? ":" + cap.get("tap_host").asText() : "");
        AnalysisSession session = new AnalysisSession(settings, new AnalysisSession.Options(true, false, false));
        AnalysisResult r = session.run(capture);
        s.result = r;
        AnalysisFrameFields provider = session.frameFields();
        Map<String, String> transport = new HashMap<>();
        for (JsonNode f : t.get("flows")) transport.put(f.get("flow").asText(), f.get("transport").asText());

        // Per-frame: derive out-of-order from the truth's own frame list.
        JsonNode frames = t.get("frames");
        Map<String, Long> maxPsn = new HashMap<>();
        Dissector dis = new Dissector();
        Dissection d = new Dissection();
        try (PacketSource src = CaptureFiles.open(capture)) {
            int k = 0;
            while (src.next()) {
                dis.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                        src.fcsLength(), d);
                provider.attach(d);
                JsonNode tf = frames.get(k++);
                if (tf.has("pfc_class_vector")) continue; // a PFC frame (tap=port): no flow, no label to score
                JsonNode labels = tf.get("labels");
                boolean tRetx = labels != null && labels.has("retransmission");
                boolean tSpur = labels != null && labels.has("spurious") && labels.get("spurious").asBoolean();
                String flow = tf.get("flow").asText();
                int tver = "metaroce".equals(transport.get(flow)) ? 1 : 0;
                OpcodeDef op = Dissector.opcodeDef(tf.get("opcode").asInt(), tver);
                boolean tOoo = false;
                if (op != null && op.role() == OpcodeDef.Role.REQUEST && !"ud".equals(op.service())) {
                    int psn = tf.get("psn").asInt();
                    Long max = maxPsn.get(flow);
                    long u = max == null ? Psn.ORIGIN + psn : Psn.unwrap(max, psn);
                    if (max != null && u < max && !tRetx) tOoo = true;
                    if (max == null || u > max) maxPsn.put(flow, u);
                }
                boolean gRetx = flag(d, AnalysisFrameFields.RETX);
                boolean gSpur = flag(d, AnalysisFrameFields.SPURIOUS);
                boolean gOoo = flag(d, AnalysisFrameFields.OOO);
                s.labels.get("retransmission").add(tRetx, gRetx);
                // Spurious is tri-state: a retransmission without evidence either way has no verdict (the
                // field is absent); an abstention is neither right nor wrong, and is counted apart.
                boolean spurUnknown = gRetx && !present(d, AnalysisFrameFields.SPURIOUS);
                if (spurUnknown) s.spuriousUnknown++;
                else s.labels.get("spurious").add(tSpur, gSpur);
                s.labels.get("out_of_order").add(tOoo, gOoo);
                if (tRetx && gRetx) {
                    s.causeTotal++;
                    if ("S".equals(tf.get("tap").asText())) s.causeTotalSender++;
                    String tc = labels.get("retransmission").asText(), gc = str(d, AnalysisFrameFields.CAUSE);
                    if (tc.equals(gc)) s.causeAgree++;
                    else s.causeMismatches.add(String.format("frame %d %s psn %d op 0x%02x cause truth %s got %s %s", d.number(),
                            flow, tf.get("psn").asInt(), tf.get("opcode").asInt(), tc, gc, tf.get("tap").asText()));
                }
                if (tRetx != gRetx || (!spurUnknown && tSpur != gSpur) || tOoo != gOoo) {
                    s.mismatches.add(String.format("frame %d %s psn %d op 0x%02x truth{%s%s%s} got{%s%s%s} %s", d.number(), flow,
                            tf.get("psn").asInt(), tf.get("opcode").asInt(), tRetx ? "retx:" + labels.get("retransmission").asText() + " " : "",
                            tSpur ? "spurious " : "", tOoo ? "ooo" : "", gRetx ? "retx:" + str(d, AnalysisFrameFields.CAUSE) + " " : "",
                            gSpur ? "spurious " : "", gOoo ? "ooo" : "", tf.get("tap").asText()));
                }
            }
        }
        compareFlows(t, r, s);
        comparePaths(t, r, s);
        return s;
    }

    private static boolean present(Dissection d, io.metaroce.protocol.FieldDef f) {
        return d.extra().indexOf(f) >= 0;
    }

    private static boolean flag(Dissection d, io.metaroce.protocol.FieldDef f) {
        int i = d.extra().indexOf(f);
        return i >= 0 && d.extra().longValue(i) != 0;
    }

    private static String str(Dissection d, io.metaroce.protocol.FieldDef f) {
        int i = d.extra().indexOf(f);
        return i < 0 ? "?" : d.extra().stringValue(i);
    }

    /**
     * Per-flow counts that the capture shows completely (no capture drops, no sampling): data packets, payload
     * bytes, retransmissions (and by cause), spurious, messages, and the control packets each flow sent.
     */
    private static void compareFlows(JsonNode t, AnalysisResult r, Score s) {
        JsonNode cap = t.get("capture");
        // Planted violations break the counters on purpose; sampling and capture drops hide packets.
        boolean complete = cap.get("capture_dropped").asLong() == 0 && cap.get("sampled_out").asLong() == 0
                && "host".equals(cap.get("tap").asText()) && !t.get("scenario").asText().startsWith("conformance");
        if (!complete) return;
        for (JsonNode f : t.get("flows")) {
            String id = f.get("flow").asText();
            JsonNode c = f.get("counters");
            Map<String, Object> m = json(r, id);
            if (c.get("packets").asLong() != f.get("frames").asLong()) continue; // not all of it at this tap
            if (m == null) {
                if (c.get("packets").asLong() > 0) s.countMismatches.add(id + ": flow missing");
                continue;
            }
            check(s, id, "data_packets", c.get("data_packets").asLong(), m.get("data_packets"));
            check(s, id, "payload_bytes", c.get("payload_bytes").asLong(), m.get("payload_bytes"));
            check(s, id, "retransmitted", c.get("retransmitted").asLong(), m.get("retransmitted_packets"));
            @SuppressWarnings("unchecked")
            Map<String, Object> byCause = (Map<String, Object>) m.get("retransmissions_by_cause");
            JsonNode tc = c.get("retransmitted_by_cause");
            // Causes are the sender's decisions: knowable at its own tap (elsewhere they are inferred).
            if ("sender".equals(m.get("view")) && ((Number) m.get("messages")).longValue() > 0) {
                for (Cause k : Cause.values()) check(s, id, "retransmitted." + k.label(), tc.get(k.label()).asLong(), byCause.get(k.label()));
            }
            check(s, id, "spurious", c.get("spurious").asLong(), m.get("spurious_retransmissions"));
            check(s, id, "timeouts", c.get("timeouts").asLong(), m.get("timeouts"));
            // CE marks show at the receiver's tap (marked in the network, after a sender's tap).
            if ("receiver".equals(m.get("view"))) check(s, id, "ce_marks", c.get("ce_marks").asLong(), m.get("ce_marks"));
            check(s, id, "messages", c.get("messages").asLong(), m.get("messages"));
            // Control packets this flow sent are counted by the analysis on the data flow they are about.
            Map<String, Object> about = m.get("peer") instanceof String p ? json(r, p) : null;
            if (about != null) {
                for (String k : new String[] {"acks", "naks", "rnr_naks", "sacks", "nacks", "cnps"}) {
                    check(s, id + " (about " + about.get("id") + ")", k, c.get(k).asLong(), about.get(k));
                }
            }
        }
    }

    /** The JSON mapping of a flow's summary (the truth files use the JSON names), or null. */
    private static Map<String, Object> json(AnalysisResult r, String id) {
        FlowSummary f = r.flow(id);
        return f == null ? null : f.toJsonMap();
    }

    private static void check(Score s, String id, String what, long truth, Object got) {
        long g = got instanceof Number n ? n.longValue() : -1;
        if (g != truth) s.countMismatches.add(id + " " + what + ": truth " + truth + ", analysis " + g);
    }

    /** The path with the most losses in the truth should be the one the analysis blames (sender taps). */
    private static void comparePaths(JsonNode t, AnalysisResult r, Score s) {
        Map<String, long[]> worst = new HashMap<>();
        for (JsonNode p : t.get("paths")) {
            String flow = p.get("flow").asText();
            long lost = p.get("lost").asLong();
            long[] w = worst.computeIfAbsent(flow, k -> new long[] {-1, 0});
            if (lost > w[1]) {
                w[0] = p.get("path").asLong();
                w[1] = lost;
            }
        }
        for (Map.Entry<String, long[]> e : worst.entrySet()) {
            if (e.getValue()[1] < 2) continue;
            Map<String, Object> m = json(r, e.getKey());
            if (m == null || !(m.get("paths") instanceof Map<?, ?> paths)) continue;
            long best = -1, bestLost = -1;
            boolean measured = false;
            for (Map.Entry<?, ?> pe : paths.entrySet()) {
                Map<?, ?> pm = (Map<?, ?>) pe.getValue();
                Object v = pm.get("retransmitted_from") != null ? pm.get("retransmitted_from") : pm.get("lost_inferred");
                if (!(v instanceof Number n)) continue;
                measured = true;
                if (n.longValue() > bestLost) {
                    bestLost = n.longValue();
                    best = Long.parseLong(pe.getKey().toString());
                }
            }
            if (!measured) continue;
            String line = e.getKey() + ": truth worst path " + e.getValue()[0] + " (" + e.getValue()[1] + " lost), analysis "
                    + best + " (" + bestLost + ")";
            s.pathFindings.add((best == e.getValue()[0] ? "ok   " : "WRONG ") + line);
        }
    }
}

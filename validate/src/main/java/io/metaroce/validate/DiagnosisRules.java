package io.metaroce.validate;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.diagnosis.Diagnoser;
import io.metaroce.analysis.diagnosis.Diagnosis;
import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.protocol.Aeth;
import io.metaroce.protocol.Bth;
import io.metaroce.protocol.CmReq;
import io.metaroce.protocol.Grh;
import io.metaroce.protocol.Ip;
import io.metaroce.protocol.Ipv6;
import io.metaroce.protocol.RuleDef;
import io.metaroce.protocol.Severity;
import io.metaroce.protocol.Spec;
import io.metaroce.protocol.Udp;
import io.metaroce.protocol.Vlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The diagnoses of {@code analyze} (package {@code io.metaroce.analysis.diagnosis}) as validate rules: the
 * MR-DIAG rules of the catalogue, warnings by default, selected and overridden like every rule. A
 * {@link Diagnoser} watches the validation pass; at its end each diagnosis finding becomes one validate
 * finding at its evidence frame (the frame where the problem shows, the other evidence frames as related
 * frames) with a byte anchor on the field the diagnosis is about.
 *
 * <p>Which rule reports which diagnosis comes from the spec file: an MR-DIAG rule's text starts with the
 * diagnosis id ({@code "qp-retry-exhausted: ..."}), so nothing here re-types the table.
 */
final class DiagnosisRules {
    /** Diagnosis id (Finding.rule of the diagnosis) -> MR-DIAG rule id, from the catalogue. */
    static final Map<String, String> RULE_OF;

    static {
        Map<String, String> m = new LinkedHashMap<>();
        for (RuleDef r : Spec.RULES) {
            int colon = r.text().indexOf(':');
            if (r.diagnosis() && colon > 0) m.put(r.text().substring(0, colon), r.id());
        }
        RULE_OF = Collections.unmodifiableMap(m);
    }

    /**
     * The fields a diagnosis points at in its evidence frame, the first the frame holds: the PSN a QP resends,
     * the NAK's syndrome, the marking, the source port, the address, the CM REQ's path MTU.
     */
    private static final Map<String, int[]> FIELDS = Map.ofEntries(
            Map.entry("qp-never-answered", new int[] {Bth.F_PSN}),
            Map.entry("qp-retry-exhausted", new int[] {Bth.F_PSN}),
            Map.entry("qp-retrying", new int[] {Bth.F_PSN}),
            Map.entry("qp-peer-stopped", new int[] {Bth.F_PSN}),
            Map.entry("qp-link-down", new int[] {Bth.F_PSN}),
            Map.entry("qp-mtu-blackhole", new int[] {Bth.F_PSN}),
            Map.entry("qp-tail-loss-timeout", new int[] {Bth.F_PSN}),
            Map.entry("qp-loss-nak", new int[] {Aeth.F_SYNDROME}),
            Map.entry("qp-rnr", new int[] {Aeth.F_SYNDROME}),
            Map.entry("entropy-single-source-port", new int[] {Udp.F_SRCPORT}),
            Map.entry("entropy-sick-source-port", new int[] {Udp.F_SRCPORT}),
            Map.entry("mtu-asymmetric", new int[] {Bth.F_OPCODE}),
            Map.entry("mtu-cm-mismatch", new int[] {CmReq.F_PATH_MTU, Bth.F_OPCODE}),
            Map.entry("roce-version-mix", new int[] {Grh.F_SGID, Udp.F_DSTPORT}),
            Map.entry("gid-link-local", new int[] {Ipv6.F_SRC}),
            Map.entry("gid-ipv4-mapped", new int[] {Ipv6.F_SRC}),
            Map.entry("address-off-rail", new int[] {Ip.F_DST, Ipv6.F_DST}),
            Map.entry("address-source-changed", new int[] {Ip.F_SRC, Ipv6.F_SRC}),
            Map.entry("cc-cnp-ignored", new int[] {Ip.F_ECN, Ipv6.F_ECN}),
            Map.entry("cc-no-cnp", new int[] {Ip.F_ECN, Ipv6.F_ECN}),
            Map.entry("step-straggler", new int[] {Ip.F_SRC, Ipv6.F_SRC}),
            Map.entry("nic-resend-before-nak-psn", new int[] {Ip.F_SRC, Ipv6.F_SRC}),
            Map.entry("nic-resend-skips-nak-psn", new int[] {Ip.F_SRC, Ipv6.F_SRC}),
            Map.entry("nic-ignores-nak", new int[] {Ip.F_SRC, Ipv6.F_SRC}));

    private final Diagnoser diagnoser = new Diagnoser();

    private DiagnosisRules() {}

    /** Watches the pass when any MR-DIAG rule is enabled; null otherwise (no cost). */
    static DiagnosisRules attach(AnalysisSession session, ValidateSettings settings) {
        boolean any = false;
        for (String r : RULE_OF.values()) any |= settings.enabled(r);
        if (!any) return null;
        DiagnosisRules d = new DiagnosisRules();
        d.diagnoser.withFlowControl(settings.analysis().linkSpeedGbps(), settings.pfcWatchdogNs);
        session.onFrame(d.diagnoser);
        return d;
    }

    /**
     * Adds the diagnosis findings to out. file: the capture, read again for the evidence frames' times and
     * bytes (anchors); null for a source that is not a file (then the finding's time is its start and it has
     * no anchor).
     */
    void report(Findings out, Path file, ValidateSettings settings, Map<String, Object> congestionLoop,
                Map<String, Object> steps, Map<String, Object> recovery) {
        Diagnosis dg = diagnoser.congestionLoop(congestionLoop).steps(steps).recovery(recovery).finish();
        List<io.metaroce.analysis.diagnosis.Finding> todo = new ArrayList<>();
        Map<Long, Evidence> frames = new HashMap<>();
        for (var f : dg.findings()) {
            String rule = RULE_OF.get(f.rule());
            if (rule == null || !settings.enabled(rule) || f.evidence().isEmpty()) continue;
            todo.add(f);
            frames.put(primary(f), null);
        }
        if (todo.isEmpty()) return;
        if (file != null) read(file, settings, frames);
        for (var f : todo) {
            long frame = primary(f);
            Evidence ev = frames.get(frame);
            long timeNs = ev != null ? ev.timeNs : f.startedNs() != null ? f.startedNs() : 0;
            String subject = f.subject();
            boolean flow = subject.contains("/0x");
            String msg = f.rule() + (flow ? "" : " " + subject) + ": " + f.summary()
                    + (f.startedNs() == null || dg.firstNs() < 0 ? "" : String.format(" (started at %.6f s)", (f.startedNs() - dg.firstNs()) / 1e9));
            String rule = RULE_OF.get(f.rule());
            Finding x = out.add(rule, RuleCatalog.get(rule).severity(), flow ? subject : null, frame, timeNs, msg);
            if (x == null) continue;
            for (long e : f.evidence()) if (e != frame) x.also(e);
            // A diagnosis built on silence and resends may be wrong when the capture itself missed packets.
            x.dropSensitive = f.rule().startsWith("qp-");
            if (ev != null && ev.anchors != null) x.at(ev.anchor(f));
        }
    }

    /**
     * The frame where a diagnosis shows: its first evidence frame, past the QP's last answer (listed as
     * evidence of when things were still fine).
     */
    static long primary(io.metaroce.analysis.diagnosis.Finding f) {
        Object lastAnswer = f.details().get("last_answer_frame");
        for (long e : f.evidence()) if (!(lastAnswer instanceof Number n && n.longValue() == e)) return e;
        return f.evidence().get(0);
    }

    /** An evidence frame's time and the offsets of the fields the diagnoses point at. */
    private static final class Evidence {
        long timeNs;
        Map<Integer, Anchor> anchors;

        Anchor anchor(io.metaroce.analysis.diagnosis.Finding f) {
            int[] fields = FIELDS.get(f.rule());
            if (f.rule().equals("qos-minority-marking")) fields = marking(f.details());
            if (fields == null) return null;
            for (int fid : fields) {
                Anchor a = anchors.get(fid);
                if (a != null) return a;
            }
            return null;
        }

        /** The marking that differs: DSCP, else ECN, else the VLAN PCP. */
        private static int[] marking(Map<String, Object> d) {
            if (!java.util.Objects.equals(d.get("dscp"), d.get("expected_dscp"))) return new int[] {Ip.F_DSCP, Ipv6.F_DSCP, Grh.F_TCLASS};
            if (!java.util.Objects.equals(d.get("ect"), d.get("expected_ect"))) return new int[] {Ip.F_ECN, Ipv6.F_ECN};
            return new int[] {Vlan.F_PCP};
        }
    }

    /** Every field any diagnosis points at. */
    private static final int[] ALL_FIELDS = FIELDS.values().stream().flatMapToInt(java.util.Arrays::stream).distinct().toArray();
    private static final int[] MARKING_FIELDS = {Ip.F_DSCP, Ipv6.F_DSCP, Grh.F_TCLASS, Ip.F_ECN, Ipv6.F_ECN, Vlan.F_PCP};

    /** Reads the capture again up to the last wanted frame, dissecting only the wanted ones. */
    private static void read(Path file, ValidateSettings settings, Map<Long, Evidence> wanted) {
        long last = Collections.max(wanted.keySet());
        Dissector dis = new Dissector(new DissectorConfig(settings.analysis().rocePorts(), false));
        Dissection d = new Dissection();
        try (PacketSource src = CaptureFiles.open(file)) {
            while (src.next()) {
                long n = src.frameNumber();
                if (wanted.containsKey(n)) {
                    dis.dissect(src.data(), n, src.timestampNanos(), src.originalLength(), src.linkType(), src.fcsLength(), d);
                    Evidence e = new Evidence();
                    e.timeNs = src.timestampNanos();
                    e.anchors = new HashMap<>();
                    for (int[] group : new int[][] {ALL_FIELDS, MARKING_FIELDS}) {
                        for (int fid : group) {
                            int off = d.offsetOf(Spec.FIELDS.get(fid).header());
                            if (off >= 0) e.anchors.put(fid, Anchor.field(fid, off));
                        }
                    }
                    wanted.put(n, e);
                }
                if (n >= last) break;
            }
        } catch (CaptureException e) {
            // The pass itself read this file: if it is gone now, the findings keep their start time, unanchored.
        }
    }
}

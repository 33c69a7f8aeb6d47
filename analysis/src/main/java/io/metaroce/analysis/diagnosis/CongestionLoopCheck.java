package io.metaroce.analysis.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The congestion loop's verdicts (analyze's {@code congestion_loop}) as diagnoses: a QP whose CNPs do not slow its
 * sender ({@code cc-cnp-ignored}, MR-DIAG-020) and one whose CE marks get no CNP back ({@code cc-no-cnp}, MR-DIAG-021).
 * One finding per QP over the whole capture, not per mark: MR-CC-002 already reports each CE mark left without a CNP;
 * this says what the marks add up to. The other verdicts (working, cnp-only, unknown) are no problem, or nothing the
 * capture can prove.
 */
final class CongestionLoopCheck {
    private CongestionLoopCheck() {}

    @SuppressWarnings("unchecked")
    static List<Finding> check(Map<String, Object> loop) {
        List<Finding> out = new ArrayList<>();
        if (loop == null) return out;
        for (Map<String, Object> m : (List<Map<String, Object>>) loop.get("flows")) {
            String v = (String) m.get("verdict");
            String flow = (String) m.get("flow");
            List<Long> evidence = (List<Long>) m.get("evidence_frames");
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("ce_marks", m.get("ce_marks"));
            d.put("cnps_expected", m.get("cnps_expected"));
            d.put("cnps", m.get("cnps"));
            if ("cnp-ignored".equals(v)) {
                d.put("rate_seen_as", m.get("rate_seen_as"));
                d.put("pace_cut_pct", m.get("pace_cut_pct"));
                d.put("median_cut_pct", m.get("median_cut_pct"));
                d.put("cnps_measured", m.get("pace_cnps_measured"));
                out.add(new Finding("cc-cnp-ignored", flow, "cnp_ignored", num(m.get("first_cnp_ns")),
                        String.format(Locale.ROOT, "%s CNPs reached the sender and its pace did not drop (%.1f %% against "
                                + "the pace before the first; DCQCN halves it): the sender NIC's reaction point (DCQCN) is off",
                                m.get("cnps"), m.get("pace_cut_pct") instanceof Number n ? n.doubleValue() : 0.0), evidence, d));
            } else if ("no-cnp".equals(v)) {
                out.add(new Finding("cc-no-cnp", flow, "no_cnp", num(m.get("first_ce_ns")),
                        String.format(Locale.ROOT, "%s CE-marked packets and no CNP back: the receiver NIC's notification "
                                + "point is off, or ECN (RoCE CC) is not enabled on it; its senders never slow down",
                                m.get("ce_marks")), evidence, d));
            }
        }
        return out;
    }

    private static Long num(Object o) { return o instanceof Number n ? n.longValue() : null; }
}

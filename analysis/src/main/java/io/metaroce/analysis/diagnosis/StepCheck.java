package io.metaroce.analysis.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The training steps (analyze's {@code steps}) as a diagnosis: one sending host last to finish its messages in most
 * steps, by a margin of a tenth of a step's wire time or more, while its QPs saw no loss, NAK, CNP or CE mark
 * ({@code step-straggler}, MR-DIAG-024): the host (a slow GPU, a throttled CPU, PCIe) is slow, not the network. With
 * trouble on its QPs the steps section still names it; the diagnosis does not, as the network may explain it.
 */
final class StepCheck {
    private StepCheck() {}

    @SuppressWarnings("unchecked")
    static List<Finding> check(Map<String, Object> steps) {
        List<Finding> out = new ArrayList<>();
        if (steps == null) return out;
        Map<String, Object> s = (Map<String, Object>) steps.get("straggler");
        if (s == null || Boolean.TRUE.equals(s.get("network_trouble"))) return out;
        Map<String, Object> margin = (Map<String, Object>) s.get("margin_ns"), period = (Map<String, Object>) steps.get("period_ns");
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("steps", steps.get("steps"));
        d.put("last_to_finish", s.get("last_to_finish"));
        d.put("steps_compared", s.get("steps_compared"));
        d.put("margin_ns", margin);
        d.put("finish_lag_ns", s.get("finish_lag_ns"));
        d.put("start_lag_ns", s.get("start_lag_ns"));
        d.put("period_ns", period.get("median"));
        d.put("busy_ns", ((Map<String, Object>) steps.get("busy_ns")).get("median"));
        out.add(new Finding("step-straggler", (String) s.get("peer"), "straggler", num(s.get("first_step_ns")),
                String.format(Locale.ROOT, "%s finished its messages last in %s of %s training steps, %.1f us (median) after "
                                + "the next latest sender, period %.1f us, with no loss, NAK or congestion on its QPs: that host "
                                + "(GPU, CPU, PCIe) is slow, not the network",
                        s.get("peer"), s.get("last_to_finish"), s.get("steps_compared"), num(margin.get("median")) / 1e3,
                        num(period.get("median")) / 1e3),
                (List<Long>) s.get("evidence_frames"), d));
        return out;
    }

    private static Long num(Object o) { return o instanceof Number n ? n.longValue() : null; }
}

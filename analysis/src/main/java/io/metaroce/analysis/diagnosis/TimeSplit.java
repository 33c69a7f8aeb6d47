package io.metaroce.analysis.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * "Is it the network?" (issue 15, item 7): per requester direction, the time with requests outstanding (wire
 * time: request to acknowledgement) against the time with nothing outstanding (the host did not post work),
 * with the NAKs, resends and CNPs of the same QP.
 */
final class TimeSplit {
    private TimeSplit() {}

    static List<Map<String, Object>> of(List<QpDirection> all, long endNs) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (QpDirection r : all) {
            if (!r.acknowledged() || r.peer == null) continue;
            long life = Math.max(r.lastNs, r.lastAnswerNs) - r.firstRequestNs;
            if (life <= 0) continue;
            long wire = r.busyNs + (r.busySince >= 0 ? Math.max(0, Math.max(r.lastNs, r.lastAnswerNs) - r.busySince) : 0);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("flow", r.id);
            m.put("messages", r.messages);
            m.put("span_ns", life);
            m.put("wire_ns", wire);
            m.put("host_idle_ns", life - wire);
            m.put("host_idle_share", (double) (life - wire) / life);
            m.put("naks", r.naks);
            m.put("resent_packets", r.resends);
            m.put("cnps", r.cnpsBack);
            out.add(m);
        }
        return out;
    }
}

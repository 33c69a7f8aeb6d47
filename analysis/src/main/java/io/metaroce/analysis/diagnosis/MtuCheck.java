package io.metaroce.analysis.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * "Does the path MTU fit, and do both ends agree?" (issue 15, item 5): the path MTU each direction of a host
 * pair uses, from the payload of its First and Middle packets (always exactly one PMTU), against the other
 * direction's. Flags an asymmetric pair.
 */
final class MtuCheck {
    private MtuCheck() {}

    static List<Finding> check(List<QpDirection> all) {
        Map<String, QpDirection> widest = new TreeMap<>();
        for (QpDirection d : all) {
            if (d.maxSegmentPayload <= 0) continue;
            QpDirection w = widest.get(d.src + ">" + d.dst);
            if (w == null || d.maxSegmentPayload > w.maxSegmentPayload) widest.put(d.src + ">" + d.dst, d);
        }
        List<Finding> out = new ArrayList<>();
        for (var e : widest.entrySet()) {
            QpDirection a = e.getValue();
            QpDirection b = widest.get(a.dst + ">" + a.src);
            if (b == null || a.src.compareTo(a.dst) > 0 || a.maxSegmentPayload == b.maxSegmentPayload) continue;
            Map<String, Object> d = new LinkedHashMap<>();
            d.put(a.src + ">" + a.dst, a.maxSegmentPayload);
            d.put(b.src + ">" + b.dst, b.maxSegmentPayload);
            out.add(new Finding("mtu-asymmetric", a.src + "<>" + a.dst, "mtu_asymmetric", null,
                    "path MTU differs by direction: " + a.src + " sends " + a.maxSegmentPayload + "-byte segments, "
                            + b.src + " sends " + b.maxSegmentPayload + "-byte segments",
                    List.of(Math.min(a.segmentFrame, b.segmentFrame), Math.max(a.segmentFrame, b.segmentFrame)), d));
        }
        return out;
    }
}

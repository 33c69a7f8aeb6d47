package io.metaroce.analysis.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * "At the watchdog timeout, which QPs were stuck?" (issue 15, item 6): every requester direction with
 * unacknowledged requests at a capture time: last PSN sent and acknowledged, the outstanding range, how long
 * each side has been silent, the last event (nak, rnr, retry, request: the host simply sent nothing new) and
 * which side went quiet first.
 */
public record HangSnapshot(long atNs, List<Entry> entries) {

    public record Entry(String flow, String peer, int lastPsnSent, Integer lastPsnAcked, long outstanding,
                        long requesterSilentNs, Long responderSilentNs, String lastEvent, String quietFirst,
                        long lastRequestFrame, Long lastAnswerFrame) {
        Map<String, Object> toJsonMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("flow", flow);
            m.put("peer", peer);
            m.put("last_psn_sent", lastPsnSent);
            m.put("last_psn_acked", lastPsnAcked);
            m.put("outstanding", outstanding);
            m.put("outstanding_range", lastPsnAcked == null ? null : List.of((lastPsnAcked + 1) & 0xFFFFFF, lastPsnSent));
            m.put("requester_silent_ns", requesterSilentNs);
            m.put("responder_silent_ns", responderSilentNs);
            m.put("last_event", lastEvent);
            m.put("quiet_first", quietFirst);
            m.put("last_request_frame", lastRequestFrame);
            m.put("last_answer_frame", lastAnswerFrame);
            return m;
        }
    }

    static HangSnapshot take(List<QpDirection> all, long at) {
        List<Entry> e = new ArrayList<>();
        for (QpDirection r : all) {
            if (!r.acknowledged() || r.outstanding() == 0 || r.firstRequestNs > at) continue;
            boolean answered = r.lastAnswerNs >= 0;
            String quiet = !answered || r.lastAnswerNs < r.lastRequestNs ? "responder" : "requester";
            e.add(new Entry(r.id, r.peer == null ? null : r.peer.id, r.highestPsn, r.anyAck ? r.ackedPsn : null,
                    r.outstanding(), at - r.lastRequestNs, answered ? at - r.lastAnswerNs : null, r.lastEvent, quiet,
                    r.lastRequestFrame, answered ? r.lastAnswerFrame : null));
        }
        return new HangSnapshot(at, e);
    }

    Map<String, Object> toJsonMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("at_ns", atNs);
        List<Object> l = new ArrayList<>();
        for (Entry x : entries) l.add(x.toJsonMap());
        m.put("qps", l);
        return m;
    }
}

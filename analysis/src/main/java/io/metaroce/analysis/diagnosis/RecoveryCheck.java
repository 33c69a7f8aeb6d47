package io.metaroce.analysis.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The RoCEv2 requesters' recovery behaviour (analyze's {@code recovery}) as a diagnosis. A sender whose resends
 * start before the PSN a NAK sequence error named, in most of its judged NAKs and 3 at least, resends packets the
 * NAK had already acknowledged ({@code nic-resend-before-nak-psn}, MR-DIAG-025): going back to the message's first
 * packet, a long message at modest loss is sent again and again (livelock). A sender whose resends start after that
 * PSN, seen at its own tap, leaves a hole only its timer fills ({@code nic-resend-skips-nak-psn}, MR-DIAG-026). A
 * sender that answers most of its NAKs only when its retransmission timer fires ignores them ({@code nic-ignores-nak},
 * MR-DIAG-027): every loss costs a timeout instead of a round trip, the sum of those waits is what it cost.
 */
final class RecoveryCheck {
    /** NAKs a sender must have answered the same wrong way before it is named. */
    static final int MIN_NAKS = 3;

    private RecoveryCheck() {}

    @SuppressWarnings("unchecked")
    static List<Finding> check(Map<String, Object> recovery) {
        List<Finding> out = new ArrayList<>();
        if (recovery == null) return out;
        for (Object o : (List<Object>) recovery.get("senders")) {
            Map<String, Object> s = (Map<String, Object>) o;
            long same = num(s.get("from_nak_psn")), earlier = num(s.get("earlier")), ignored = num(s.get("not_answered"));
            long later = s.get("later") == null ? 0 : num(s.get("later"));
            long judged = same + earlier + later + ignored;
            String ip = (String) s.get("sender");
            List<Long> ev = (List<Long>) s.get("evidence_frames");
            if (earlier >= MIN_NAKS && 2 * earlier > judged) {
                long msgStart = num(s.get("earlier_message_start"));
                Object extra = s.get("extra_psns_median"), ppm = s.get("packets_per_message"), loss = s.get("loss_share");
                Map<String, Object> d = details(s, judged);
                d.put("earlier", earlier);
                d.put("earlier_message_start", msgStart);
                d.put("share", Math.round((double) earlier / judged * 1000) / 1000.0);
                d.put("extra_psns_median", extra);
                d.put("wasted_psns", s.get("wasted_psns"));
                d.put("wasted_bytes", s.get("wasted_bytes"));
                d.put("packets_per_message", ppm);
                d.put("loss_share", loss);
                String livelock = "";
                if (2 * msgStart >= earlier && ppm instanceof Number m && loss instanceof Number l && l.doubleValue() > 0
                        && l.doubleValue() < 1) {
                    // Going back to the message start, a message of M packets completes in one attempt with (1 - L)^M.
                    double p = Math.pow(1 - l.doubleValue(), m.longValue());
                    d.put("attempts_per_message", Math.round(1 / p * 100) / 100.0);
                    livelock = String.format(Locale.ROOT, "; livelock risk: at loss rate %.2f %% a message of %d packets "
                            + "needs %.2f attempts on average (1 / (1 - L)^M), a 4x longer message %.1f",
                            l.doubleValue() * 100, m.longValue(), 1 / p, 1 / Math.pow(p, 4));
                }
                out.add(new Finding("nic-resend-before-nak-psn", ip, 2 * msgStart >= earlier ? "go_back_message_start" : "resend_early",
                        first(s),
                        String.format(Locale.ROOT, "%s answered %d of %d NAKs by resending from before the NAK's PSN (%d from "
                                        + "the message's first packet), %s PSNs already acknowledged per recovery (median), "
                                        + "%s bytes sent again: IBTA go-back-N resends from the NAK's PSN%s",
                                ip, earlier, judged, msgStart, extra, s.get("wasted_bytes"), livelock),
                        ev, d));
            } else if (later >= MIN_NAKS && 2 * later > judged && "sender".equals(s.get("tap"))) {
                Map<String, Object> d = details(s, judged);
                d.put("later", later);
                d.put("share", Math.round((double) later / judged * 1000) / 1000.0);
                out.add(new Finding("nic-resend-skips-nak-psn", ip, "resend_skips", first(s),
                        String.format(Locale.ROOT, "%s answered %d of %d NAKs by resending from after the NAK's PSN: the "
                                + "responder still misses that PSN and only a timeout fills the hole (IBTA go-back-N "
                                + "resends from it)", ip, later, judged),
                        ev, d));
            } else if (ignored >= MIN_NAKS && 2 * ignored > judged) {
                Map<String, Object> d = details(s, judged);
                long waitNs = num(s.get("ignored_wait_ns"));
                Object timer = s.get("timer_ns");
                d.put("ignored", ignored);
                d.put("share", Math.round((double) ignored / judged * 1000) / 1000.0);
                d.put("ignored_wait_ns", waitNs);
                d.put("timer_ns", timer);
                out.add(new Finding("nic-ignores-nak", ip, "nak_ignored",
                        s.get("first_ignored_ns") instanceof Number n ? n.longValue() : null,
                        String.format(Locale.ROOT, "%s ignored %d of %d NAK sequence errors: nothing was resent until its "
                                        + "retransmission timer fired%s, so every loss cost a timeout instead of a round trip; "
                                        + "the waits from NAK to resend cost %.3f ms in all (IBTA: go-back-N from the NAK's PSN "
                                        + "at once)", ip, ignored, judged,
                                timer instanceof Number t ? String.format(Locale.ROOT, " (%.1f us after the last progress)",
                                        t.longValue() / 1e3) : "", waitNs / 1e6),
                        ev, d));
            }
        }
        return out;
    }

    private static Map<String, Object> details(Map<String, Object> s, long judged) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("naks", s.get("naks"));
        d.put("judged", judged);
        d.put("from_nak_psn", s.get("from_nak_psn"));
        d.put("nak_to_resend_ns_median", s.get("nak_to_resend_ns_median"));
        d.put("tap", s.get("tap"));
        d.put("qps", s.get("qps"));
        return d;
    }

    private static Long first(Map<String, Object> s) { return s.get("first_wrong_ns") instanceof Number n ? n.longValue() : null; }

    private static long num(Object o) { return o instanceof Number n ? n.longValue() : 0; }
}

package io.metaroce.analysis;

import io.metaroce.analysis.AnalysisEvent.AckBeforeRequest;
import io.metaroce.analysis.AnalysisEvent.AckOfUnseen;
import io.metaroce.analysis.AnalysisEvent.CeMark;
import io.metaroce.analysis.AnalysisEvent.CeWithoutCnp;
import io.metaroce.analysis.AnalysisEvent.Cnp;
import io.metaroce.analysis.AnalysisEvent.CreditStall;
import io.metaroce.analysis.AnalysisEvent.Duplicate;
import io.metaroce.analysis.AnalysisEvent.Nak;
import io.metaroce.analysis.AnalysisEvent.NakKind;
import io.metaroce.analysis.AnalysisEvent.OutOfOrder;
import io.metaroce.analysis.AnalysisEvent.PathDown;
import io.metaroce.analysis.AnalysisEvent.PsnGap;
import io.metaroce.analysis.AnalysisEvent.RepeatedResponse;
import io.metaroce.analysis.AnalysisEvent.Retransmission;

/**
 * The JSON form of an {@link AnalysisEvent} ({@code metaroce analyze --events jsonl} and the {@code events}
 * array of {@code -T json}): {@code frame, time_ns, flow, type}, then the record's details in a fixed order,
 * absent (null) values left out.
 */
final class EventJson {
    private EventJson() {}

    static String toJson(AnalysisEvent e) {
        JsonOut j = new JsonOut(new StringBuilder(160), false);
        write(e, j);
        return j.toString();
    }

    static void write(AnalysisEvent e, JsonOut j) {
        j.beginObject();
        j.name("frame").value(e.frame());
        j.name("time_ns").value(e.timeNs());
        j.name("flow").value(e.flow());
        j.name("type").value(e.type().label());
        switch (e) {
            case Retransmission r -> {
                put(j, "psn", r.psn());
                put(j, "cause", r.cause().label());
                if (r.inferred()) put(j, "inferred", true);
                put(j, "original_frame", r.originalFrame());
                put(j, "retransmission_latency_ns", r.retransmissionLatencyNs());
                put(j, "nak_response_latency_ns", r.nakResponseLatencyNs());
                put(j, "path", r.path());
                put(j, "previous_path", r.previousPath());
                if (r.spurious() == FrameVerdict.Spurious.YES) put(j, "spurious", true);
                else if (r.spurious() == FrameVerdict.Spurious.UNDECIDED) put(j, "spurious", "unknown");
            }
            case RepeatedResponse r -> {
                put(j, "psn", r.psn());
                put(j, "request_frame", r.requestFrame());
                put(j, "original_frame", r.originalFrame());
                put(j, "data_flow", r.dataFlow());
            }
            case AckBeforeRequest a -> {
                put(j, "psn", a.psn());
                put(j, "ack_frame", a.ackFrame());
                put(j, "ack_lead_ns", a.ackLeadNs());
                put(j, "severity", "note");
            }
            case Nak n -> {
                put(j, "psn", n.psn());
                // A RoCEv2 RNR NAK has always been printed without its kind.
                if (!(n.rnr() && n.kind() == NakKind.NAK)) put(j, "kind", n.kind().label());
                put(j, "code", n.code());
                put(j, "count", n.count());
                put(j, "reason", n.reason());
                put(j, "rnr_timer", n.rnrTimer());
                put(j, "nak_gen_latency_ns", n.nakGenLatencyNs());
                put(j, "frame_flow", n.frameFlow());
            }
            case OutOfOrder o -> {
                put(j, "psn", o.psn());
                put(j, "reorder_distance", o.reorderDistance());
                put(j, "path", o.path());
                put(j, "after_retransmission", o.afterRetransmission());
            }
            case Duplicate d -> {
                put(j, "psn", d.psn());
                put(j, "original_frame", d.originalFrame());
            }
            case PsnGap g -> {
                put(j, "psn", g.psn());
                put(j, "first_missing_psn", g.firstMissingPsn());
                put(j, "missing", g.missing());
                put(j, "loss", g.loss().label());
            }
            case AckOfUnseen a -> {
                put(j, "first_psn", a.firstPsn());
                put(j, "unseen", a.unseen());
                put(j, "loss", a.loss().label());
            }
            case Cnp c -> {
                put(j, "kind", c.mr() ? "mr_cnp" : "cnp");
                put(j, "congested_path", c.congestedPath());
                put(j, "ce_count", c.ceCount());
                put(j, "frame_flow", c.frameFlow());
            }
            case CeMark c -> {
                put(j, "psn", c.psn());
                put(j, "path", c.path());
            }
            case CeWithoutCnp c -> {
                put(j, "psn", c.psn());
                put(j, "path", c.path());
            }
            case CreditStall c -> {
                put(j, "psn", c.psn());
                put(j, "stall_ns", c.stallNs());
            }
            case PathDown p -> {
                put(j, "path", p.path());
                put(j, "reason", p.reason());
                put(j, "loss_rate", p.lossRate());
                put(j, "median_other_paths", p.medianOtherPaths());
                put(j, "unanswered_probes", p.unansweredProbes());
            }
        }
        j.endObject();
    }

    private static void put(JsonOut j, String name, Object v) {
        if (v != null) j.name(name).value(v);
    }
}

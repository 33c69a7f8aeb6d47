package io.metaroce.gui.stats;

import io.metaroce.analysis.AnalysisEvent;
import io.metaroce.analysis.EventType;
import io.metaroce.protocol.Severity;

/**
 * How an analysis event reads in Expert Info: its severity and group (Wireshark's habits for TCP: a
 * retransmission is a note, a lost segment or an out-of-order one a warning), a summary per type and a message
 * with the event's details.
 */
final class EventExpert {
    private EventExpert() {}

    static Severity severity(EventType t) {
        return switch (t) {
            case RETRANSMISSION, SPURIOUS_RETRANSMISSION, CNP, CE_MARK, DUPLICATE, REPEATED_RESPONSE, ACK_BEFORE_REQUEST ->
                    Severity.NOTE;
            case TIMEOUT_RETRANSMISSION, NAK, RNR_NAK, OUT_OF_ORDER, PSN_GAP, ACK_OF_UNSEEN, CE_WITHOUT_CNP, CREDIT_STALL ->
                    Severity.WARN;
            case PATH_DOWN -> Severity.ERROR;
        };
    }

    static String group(EventType t) {
        return switch (t) {
            case CNP, CE_MARK, CE_WITHOUT_CNP, CREDIT_STALL -> "congestion";
            case PATH_DOWN -> "path";
            default -> "sequence";
        };
    }

    static String summary(EventType t) {
        return switch (t) {
            case RETRANSMISSION -> "Retransmission";
            case SPURIOUS_RETRANSMISSION -> "Spurious retransmission (the receiver already had the PSN)";
            case TIMEOUT_RETRANSMISSION -> "Retransmission after a timeout";
            case NAK -> "NAK / MR-NACK";
            case RNR_NAK -> "RNR NAK (receiver not ready)";
            case OUT_OF_ORDER -> "Out-of-order PSN";
            case DUPLICATE -> "Capture duplicate";
            case PSN_GAP -> "PSN gap (PSNs never seen)";
            case ACK_OF_UNSEEN -> "Acknowledgement of PSNs never seen";
            case CNP -> "Congestion notification (CNP / MR-CNP)";
            case CE_MARK -> "ECN CE mark";
            case CE_WITHOUT_CNP -> "CE mark without a CNP";
            case CREDIT_STALL -> "Credit stall";
            case PATH_DOWN -> "Path down";
            case REPEATED_RESPONSE -> "Response repeated for a re-issued request";
            case ACK_BEFORE_REQUEST -> "Request captured after its acknowledgement";
        };
    }

    static String message(AnalysisEvent e) {
        return switch (e) {
            case AnalysisEvent.Retransmission r -> "PSN " + r.psn() + " sent again (" + r.cause().label() + ")"
                    + (r.originalFrame() != null ? ", first copy frame " + r.originalFrame() : ", first copy not captured")
                    + (r.previousPath() != null ? ", path " + r.previousPath() + " -> " + r.path() : "");
            case AnalysisEvent.Nak n -> n.kind().label().toUpperCase() + (n.rnr() ? " RNR" : "") + " for PSN " + n.psn()
                    + (n.code() != null ? ", code " + n.code() : "") + (n.reason() != null ? ", reason " + n.reason() : "");
            case AnalysisEvent.OutOfOrder o -> "PSN " + o.psn() + " arrived " + o.reorderDistance() + " below the highest";
            case AnalysisEvent.Duplicate dup -> "PSN " + dup.psn() + " duplicates frame " + dup.originalFrame();
            case AnalysisEvent.PsnGap g -> g.missing() + " PSN(s) from " + g.firstMissingPsn() + " missing (" + g.loss().label() + ")";
            case AnalysisEvent.AckOfUnseen a -> a.unseen() + " PSN(s) from " + a.firstPsn() + " acknowledged but not seen ("
                    + a.loss().label() + ")";
            case AnalysisEvent.Cnp c -> (c.mr() ? "MR-CNP" : "CNP") + (c.congestedPath() != null ? " for path " + c.congestedPath() : "");
            case AnalysisEvent.CeMark c -> "PSN " + c.psn() + " CE-marked" + (c.path() != null ? " on path " + c.path() : "");
            case AnalysisEvent.CeWithoutCnp c -> "PSN " + c.psn() + " CE-marked, no CNP within the window";
            case AnalysisEvent.CreditStall c -> "no new data for " + c.stallNs() + " ns at PSN " + c.psn();
            case AnalysisEvent.PathDown p -> "path " + p.path() + " down (" + p.reason() + ")"
                    + (p.lossRate() != null ? ", loss " + Math.round(p.lossRate() * 1000) / 10.0 + " %" : "");
            case AnalysisEvent.RepeatedResponse r -> "PSN " + r.psn() + " answers re-issued request frame " + r.requestFrame();
            case AnalysisEvent.AckBeforeRequest a -> "PSN " + a.psn() + " acknowledged by frame " + a.ackFrame() + " "
                    + a.ackLeadNs() + " ns earlier";
        };
    }
}

package io.metaroce.cli;

import io.metaroce.analysis.diagnosis.NcclWarning;
import io.metaroce.analysis.diagnosis.LogTime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * {@code --nccl WARNING|LOGFILE} of analyze, search and extract: the NCCL completion-error warnings (and UCX's error
 * CQE lines) an operator has, pasted or in a job's log, read into {@link NcclWarning}s; for the flow index, the query
 * they give.
 */
final class NcclOption {
    /** Most distinct warnings looked up from a log (a job's log repeats one per rank and request). */
    static final int MAX_WARNINGS = 64;

    private NcclOption() {}

    /** The warnings of the option's value: pasted text (one warning or several log lines), else a log file's. */
    static List<NcclWarning> read(String value, CommandLine cl) {
        List<NcclWarning> pasted = NcclWarning.scan(List.of(value.split("\\R")));
        if (!pasted.isEmpty()) return capped(pasted);
        Path log;
        try {
            log = Path.of(value.trim().isEmpty() ? "." : value.trim());
        } catch (InvalidPathException e) {
            log = null;
        }
        if (log == null || !Files.isRegularFile(log)) {
            throw new ParameterException(cl, "--nccl takes an NCCL warning ('NET/IB : Got completion from peer ...' "
                    + "or 'Got CQE with error ... qp_num=N'), a UCX error CQE ('... (synd 0x15 vend 0x81 ...)') "
                    + "or a log file holding one, not '" + value + "'");
        }
        List<NcclWarning> found;
        // Latin-1: every byte is a character, so a log's stray bytes (or a binary file given by mistake) never stop it.
        try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            found = NcclWarning.scan(lines::iterator);
        } catch (IOException | UncheckedIOException e) {
            throw new ParameterException(cl, "--nccl: cannot read " + log + ": " + e.getMessage());
        }
        if (found.isEmpty()) {
            throw new ParameterException(cl, "--nccl: " + log + " holds no NCCL completion warning "
                    + "('NET/IB : Got completion from peer ...' or 'Got CQE with error ... qp_num=N') "
                    + "and no UCX error CQE ('... (synd 0x15 vend 0x81 ...)')");
        }
        return capped(found);
    }

    /**
     * How far before a time-stamped warning a flow may have gone quiet and still be the one it names: NCCL and UCX
     * report retry exhaustion after retry_cnt timeouts (seconds to minutes at the usual timeouts), and a ring-buffer
     * capture may have rotated before that. What the window keeps out is the same QP number of another job hours or
     * days away, which an index of many captures holds.
     */
    static final long BEFORE_NS = 3600L * 1_000_000_000L;
    /** How far after it a flow may start: the log's and the capture's clocks disagree by a little. */
    static final long AFTER_NS = 300L * 1_000_000_000L;
    /** A time without a zone is some host's local time: any zone from UTC-12 to UTC+14 (the window widens by both). */
    static final long ANY_ZONE_BEFORE_NS = 14 * 3600L * 1_000_000_000L, ANY_ZONE_AFTER_NS = 12 * 3600L * 1_000_000_000L;

    /**
     * The flow-index query the warnings give: per warning its peer (the remote GID's address, as a source or
     * destination) and its local QP number (the destination QP of the flows towards it, the source QP of the flows it
     * sends), ANDed, and when the line has a time stamp the flows active near it (first packet before it, last one
     * at most {@link #BEFORE_NS} earlier); the warnings ORed. Null when none names an address or a QP number (a
     * host-name peer only).
     */
    static String query(List<NcclWarning> warnings, boolean byTime) {
        List<String> each = new ArrayList<>();
        for (NcclWarning w : warnings) {
            List<String> terms = new ArrayList<>();
            // One form of the address: the index keeps an IPv4-mapped address and its IPv4 form as one value.
            if (!w.peerAddresses().isEmpty()) {
                String a = w.peerAddresses().get(0);
                terms.add("(src:" + a + " OR dst:" + a + ")");
            }
            List<String> qpTerms = new ArrayList<>();
            if (w.qpNum() != null) {
                String q = String.format("0x%06x", w.qpNum());
                // The flows towards the QP carry it as dest_qp; its own sends as a UD source QP (DETH) or, for RC, as
                // the dest_qp of their paired flow (peer, a flow id ending in /0xQPN).
                qpTerms.add("dest_qp:" + q + " OR src_qps:" + q + " OR peer:*" + q);
            }
            if (w.remoteQp() != null) {
                // UCX's rqpn: the destination QP of the QP's own sends (found even when nothing answered them).
                String r = String.format("0x%06x", w.remoteQp());
                qpTerms.add("dest_qp:" + r + " OR peer:*" + r);
            }
            if (!qpTerms.isEmpty()) terms.add("(" + String.join(" OR ", qpTerms) + ")");
            if (terms.isEmpty()) continue;   // a time alone names no flow
            if (byTime && w.loggedAt() != null) terms.add(activeNear(w.loggedAt()));
            String t = String.join(" AND ", terms);
            if (!each.contains(t)) each.add(t);
        }
        if (each.isEmpty()) return null;
        return each.size() == 1 ? each.get(0) : "(" + String.join(") OR (", each) + ")";
    }

    /** The flows active near a logged time: started before it (plus clock skew), still sending within the window before it. */
    private static String activeNear(LogTime t) {
        long before = t.zoned() ? BEFORE_NS : BEFORE_NS + ANY_ZONE_BEFORE_NS;
        long after = t.zoned() ? AFTER_NS : AFTER_NS + ANY_ZONE_AFTER_NS;
        // Whole seconds in the index's time syntax, widened outwards (the window only ever grows by the rounding).
        String from = new LogTime(t.epochNs() - before, true).text(), to = new LogTime(t.epochNs() + after + 999_999_999L, true).text();
        return "first:[* TO " + to + "] AND last:[" + from + " TO *]";
    }

    /**
     * The query a search or extract runs: the warnings' AND the one given (either may be absent, not both); and,
     * when the warnings' time stamps narrowed it, the same query without them (null otherwise), to say so when the
     * times kept out every flow the warnings name.
     */
    record Lookup(String query, String withoutTimes) {
        /**
         * For a lookup that found nothing: how many flows it finds without the times, as a line for stderr (null when
         * the times kept nothing out).
         */
        String timesHint(java.util.function.ToLongFunction<String> count) {
            if (withoutTimes == null) return null;
            long n = count.applyAsLong(withoutTimes);
            if (n == 0) return null;
            return "the warning's time stamp kept out the " + n + " flow" + (n == 1 ? "" : "s") + " it names otherwise (none was "
                    + "active in the hour before it, in any time zone when the log names none): an older job's QP, or a capture that ended long before; to see "
                    + "them, drop the time stamp from the line or search '" + withoutTimes + "'";
        }
    }

    static Lookup combine(String nccl, String query, CommandLine cl) {
        if (nccl == null && query == null) {
            throw new ParameterException(cl, "no query given (e.g. 'naks:>5', or '*:*' for every flow, or --nccl WARNING)");
        }
        if (nccl == null) return new Lookup(query, null);
        List<NcclWarning> warnings = read(nccl, cl);
        String fromWarnings = query(warnings, true);
        if (fromWarnings == null) {
            throw new ParameterException(cl, "--nccl: the warning names its peer by host name only and no qp_num: "
                    + "search by the peer's RoCE address (src:IP OR dst:IP)");
        }
        String untimed = query(warnings, false);
        return new Lookup(and(fromWarnings, query), untimed.equals(fromWarnings) ? null : and(untimed, query));
    }

    private static String and(String fromWarnings, String query) {
        return query == null ? fromWarnings : "(" + fromWarnings + ") AND (" + query + ")";
    }

    private static List<NcclWarning> capped(List<NcclWarning> l) {
        return l.size() > MAX_WARNINGS ? l.subList(0, MAX_WARNINGS) : l;
    }
}

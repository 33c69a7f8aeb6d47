package io.metaroce.cli;

import io.metaroce.analysis.diagnosis.NcclWarning;
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
     * The flow-index query the warnings give: per warning its peer (the remote GID's address, as a source or
     * destination) and its local QP number (the destination QP of the flows towards it, the source QP of the flows it
     * sends), ANDed; the warnings ORed. Null when none names an address or a QP number (a host-name peer only).
     */
    static String query(List<NcclWarning> warnings) {
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
            if (!terms.isEmpty()) {
                String t = String.join(" AND ", terms);
                if (!each.contains(t)) each.add(t);
            }
        }
        if (each.isEmpty()) return null;
        return each.size() == 1 ? each.get(0) : "(" + String.join(") OR (", each) + ")";
    }

    /** The query a search or extract runs: the warnings' AND the one given (either may be absent, not both). */
    static String combine(String nccl, String query, CommandLine cl) {
        if (nccl == null && query == null) {
            throw new ParameterException(cl, "no query given (e.g. 'naks:>5', or '*:*' for every flow, or --nccl WARNING)");
        }
        String fromWarnings = null;
        if (nccl != null) {
            fromWarnings = query(read(nccl, cl));
            if (fromWarnings == null) {
                throw new ParameterException(cl, "--nccl: the warning names its peer by host name only and no qp_num: "
                        + "search by the peer's RoCE address (src:IP OR dst:IP)");
            }
        }
        if (fromWarnings == null) return query;
        return query == null ? fromWarnings : "(" + fromWarnings + ") AND (" + query + ")";
    }

    private static List<NcclWarning> capped(List<NcclWarning> l) {
        return l.size() > MAX_WARNINGS ? l.subList(0, MAX_WARNINGS) : l;
    }
}

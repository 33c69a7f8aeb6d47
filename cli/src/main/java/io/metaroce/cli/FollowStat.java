package io.metaroce.cli;

import io.metaroce.analysis.QpFollow;
import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FrameFields;

/**
 * dissect -z follow,roce,MODE,STREAM[,RANGE]: tshark's -z follow for the RoCE QP connection ({@link QpFollow}):
 * MODE ascii, hex, raw or yaml, STREAM a stream number (0, 1, ... in the order the connections first appear) or
 * either direction's flow id (analysis.flow), RANGE the blocks first[-last] (from 1). It counts nothing during the
 * run: printing reads the capture again, in order, and keeps only this stream's payload (capped).
 */
final class FollowStat implements ZStats.Tally {
    /** The parsed argument: mode, stream number or flow id, block range. */
    record Spec(QpFollow.Mode mode, int stream, String flowId, int first, int last) { }

    private final Spec spec;
    private final FlowStat.Source source;

    FollowStat(Spec spec, FlowStat.Source source) {
        this.spec = spec;
        this.source = source;
    }

    /**
     * follow,roce,MODE,STREAM[,RANGE] as a {@link Spec}, or why not (one line, tshark's words first): tshark says
     * "follow - Invalid display mode." and "follow - Invalid address." (for a stream it cannot read).
     */
    static Object parse(String z) {
        String[] p = z.split(",", -1);
        String usage = "it must be follow,roce,MODE,STREAM[,RANGE] (MODE: ascii, hex, raw or yaml; STREAM: a stream number "
                + "or a flow id such as 10.0.0.1>10.0.0.2/0x000011)";
        if (p.length < 2 || !p[1].equals("roce")) {
            return "invalid -z argument \"" + z + "\"; " + usage + " (the QP connection: UDP port 4791 carries every QP, "
                    + "so tcp and udp streams are not followed here)";
        }
        if (p.length < 3) return "follow - Invalid display mode. (" + usage + ")";
        QpFollow.Mode mode = QpFollow.Mode.of(p[2]);
        if (mode == null || mode == QpFollow.Mode.C_ARRAYS) return "follow - Invalid display mode. (" + usage + ")";
        if (p.length < 4 || p.length > 5) return "follow - Invalid address. (" + usage + ")";
        int stream = -1;
        String flowId = null;
        if (p[3].matches("[0-9]{1,9}")) stream = Integer.parseInt(p[3]);
        else if (p[3].matches("[^>]+>[^/]+/0x[0-9a-fA-F]{1,6}")) flowId = normalFlowId(p[3]);
        else return "follow - Invalid address. (" + usage + ")";
        int first = 1, last = Integer.MAX_VALUE;
        if (p.length == 5) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]{1,9})(?:-([0-9]{1,9}))?").matcher(p[4]);
            if (!m.matches() || Integer.parseInt(m.group(1)) < 1) {
                return "follow - Invalid range '" + p[4] + "' (blocks FIRST or FIRST-LAST, counted from 1)";
            }
            first = Integer.parseInt(m.group(1));
            last = m.group(2) == null ? first : Integer.parseInt(m.group(2));
            if (last < first) return "follow - Invalid range '" + p[4] + "' (blocks FIRST or FIRST-LAST, counted from 1)";
        }
        return new Spec(mode, stream, flowId, first, last);
    }

    /** A flow id as the analysis writes it: the QP as six lowercase hex digits. */
    private static String normalFlowId(String id) {
        int slash = id.lastIndexOf('/');
        String hex = id.substring(slash + 3).toLowerCase(java.util.Locale.ROOT);
        return id.substring(0, slash) + "/0x" + "0".repeat(6 - hex.length()) + hex;
    }

    @Override
    public void frame(Dissection d, FrameFields ff) { }

    @Override
    public void merge(ZStats.Tally other) { }

    @Override
    public void print(ByteOut out) {
        QpFollow f;
        try (PacketSource src = CaptureFiles.open(source.file())) {
            f = QpFollow.collect(src, source.config(), source.verdicts().frameFields(), spec.stream(), spec.flowId(), () -> false);
        } catch (CaptureException e) {
            System.err.println("metaroce dissect: -z follow: " + e.getMessage());
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        String name = spec.flowId() != null ? spec.flowId() : Integer.toString(spec.stream());
        String filter = f.filter();
        if (filter == null) {
            // tshark prints the empty frame for a stream that does not exist; the reason goes to stderr.
            System.err.println("metaroce dissect: -z follow,roce: no stream " + name + " (the capture has " + f.streams()
                    + " RoCE QP stream" + (f.streams() == 1 ? "" : "s") + (f.streams() > 0 ? ", 0 to " + (f.streams() - 1) : "")
                    + "; a flow id names one too)");
            filter = "roce stream " + name + " (none)";
        }
        if (f.leftOut() > 0) {
            System.err.println("metaroce dissect: -z follow,roce: stream " + f.stream() + " carries more than "
                    + (QpFollow.MAX_BYTES >> 20) + " MiB of payload; the first " + (QpFollow.MAX_BYTES >> 20) + " MiB are shown");
        }
        out.str(f.text(spec.mode(), -1, filter, spec.first(), spec.last()));
        out.flush();
    }
}

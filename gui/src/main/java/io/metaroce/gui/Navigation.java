package io.metaroce.gui;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.filter.FilterException;
import java.util.concurrent.CompletableFuture;
import javafx.application.Platform;

/**
 * Go to a packet by number or by a link of the field tree, to the next or previous packet, packet of the selected
 * one's conversation, retransmission or expert item, among the packets shown; retransmissions and expert items wrap
 * at the end as Wireshark's searches do, the rest stop there as Wireshark's Next Packet (in Conversation) does (Edit >
 * Find Packet searches for more: {@link FindPacket}). Searching decodes frames, so it runs on a background thread; the
 * selection changes on the UI thread when a match is found.
 */
final class Navigation {
    /** What "next" looks for: each is a display filter. */
    enum Kind {
        RETRANSMISSION("analysis.retransmission"),
        /** A dissector expert item or an analysis event. */
        EXPERT("expert.id || event");

        final String filter;

        Kind(String filter) { this.filter = filter; }
    }

    private Navigation() { }

    /** Selects the packet whose number is text; returns an error message (and selects nothing) when it cannot. */
    static String goTo(GuiContext ctx, String text) {
        OpenCapture c = ctx.capture();
        if (c == null) return "No capture is open";
        int n;
        try {
            n = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            return "\"" + text.strip() + "\" is not a packet number";
        }
        if (n < 1 || n > c.frames()) return "Packet " + n + " is not in the capture (1.." + c.frames() + ")";
        if (!ctx.select(n)) return "Packet " + n + " is not displayed: clear the display filter to see it";
        return null;
    }

    /**
     * Go to Linked Packet, Back, Forward: selects frame; returns why it could not (Wireshark's "Packet number N isn't
     * displayed"), or null.
     */
    static String goToFrame(GuiContext ctx, int frame) {
        OpenCapture c = ctx.capture();
        if (c == null) return "No capture is open";
        if (frame < 1 || frame > c.frames()) return "Packet number " + frame + " is not in the capture (1.." + c.frames() + ")";
        if (!ctx.select(frame)) return "Packet number " + frame + " isn't displayed: clear the display filter to see it";
        return null;
    }

    /**
     * Go > Next Packet (forward) and Previous Packet: the shown packet after (before) the selected one, without
     * wrapping (Wireshark's); none selected: the first (last). Returns the frame selected, 0 for none.
     */
    static int step(GuiContext ctx, boolean forward) {
        FrameView v = ctx.view();
        if (ctx.capture() == null || v.size() == 0) return 0;
        int sel = ctx.selectedFrame();
        int row = sel == 0 ? (forward ? 0 : v.size() - 1) : v.rowOf(sel) + (forward ? 1 : -1);
        if (row < 0 || row >= v.size()) return 0;
        int f = v.frameAt(row);
        ctx.select(f);
        return f;
    }

    private static final io.metaroce.dissector.FieldCatalog FIELDS = io.metaroce.dissector.FieldCatalog.get();
    private static final io.metaroce.protocol.FieldDef FLOW = FIELDS.field("analysis.flow"), IP_SRC = FIELDS.field("ip.src"),
            IP_DST = FIELDS.field("ip.dst"), IP6_SRC = FIELDS.field("ipv6.src"), IP6_DST = FIELDS.field("ipv6.dst"),
            UDP_SRC = FIELDS.field("udp.srcport"), UDP_DST = FIELDS.field("udp.dstport");

    /**
     * The display filter of a frame's conversation for Next/Previous Packet in Conversation: its QP flow as the
     * analysis assigned it ({@code analysis.flow}), else its UDP conversation (both addresses and both ports, either
     * direction), else its IP one; null when it has none (not IP).
     */
    static String conversationFilter(io.metaroce.dissector.FrameFields ff) {
        if (ff.count(FLOW) > 0) return FieldTreeModel.filterOf(FLOW, ff, 0);
        String ip;
        if (ff.count(IP_SRC) > 0 && ff.count(IP_DST) > 0) ip = both("ip.addr", IP_SRC, IP_DST, ff);
        else if (ff.count(IP6_SRC) > 0 && ff.count(IP6_DST) > 0) ip = both("ipv6.addr", IP6_SRC, IP6_DST, ff);
        else return null;
        if (ff.count(UDP_SRC) > 0 && ff.count(UDP_DST) > 0) return ip + " && " + both("udp.port", UDP_SRC, UDP_DST, ff);
        return ip;
    }

    /** "name == a && name == b": a frame whose either-field holds both values (one each way, or both the same). */
    private static String both(String name, io.metaroce.protocol.FieldDef a, io.metaroce.protocol.FieldDef b,
            io.metaroce.dissector.FrameFields ff) {
        return name + " == " + valueOf(a, ff) + " && " + name + " == " + valueOf(b, ff);
    }

    private static String valueOf(io.metaroce.protocol.FieldDef f, io.metaroce.dissector.FrameFields ff) {
        return FieldTreeModel.filterOf(f, ff, 0).substring(f.name().length() + " == ".length());
    }

    /**
     * Go > Next Packet in Conversation (forward) and Previous: the next (previous) shown packet of the selected one's
     * conversation ({@link #conversationFilter}), without wrapping; none: the status bar says so and the selection
     * stays. The future completes with the frame selected, 0 for none.
     */
    static CompletableFuture<Integer> conversation(GuiContext ctx, boolean forward) {
        OpenCapture c = ctx.capture();
        int sel = ctx.selectedFrame();
        if (c == null || sel == 0) {
            if (c != null) ctx.status("No packet is selected");
            return CompletableFuture.completedFuture(0);
        }
        FrameDecoder dec = new FrameDecoder(c.index(), ctx.analysis());
        dec.decode(sel);
        String text = conversationFilter(dec.fields());
        if (text == null) {
            ctx.status("Packet " + sel + " belongs to no conversation (not IP)");
            return CompletableFuture.completedFuture(0);
        }
        DisplayFilter filter;
        try {
            filter = GuiContext.compile(text);
        } catch (FilterException e) {
            throw new IllegalStateException("conversation filter " + text, e);
        }
        return search(ctx, filter, forward, false, "No " + (forward ? "next" : "previous") + " packet in the conversation of packet " + sel + " (" + text + ")");
    }

    /** Starts a search for the next (forward) or previous match of kind; null, or an error message. */
    static CompletableFuture<Integer> next(GuiContext ctx, Kind kind, boolean forward) {
        try {
            return search(ctx, GuiContext.compile(kind.filter), forward);
        } catch (FilterException e) {
            throw new IllegalStateException("built-in filter " + kind.filter, e);
        }
    }

    /**
     * Searches the shown packets after (before) the selected one, wrapping around, and selects the first match.
     * The future completes with the frame found, or 0 for none.
     */
    static CompletableFuture<Integer> search(GuiContext ctx, DisplayFilter filter, boolean forward) {
        return search(ctx, filter, forward, true, null);
    }

    /**
     * As {@link #search(GuiContext, DisplayFilter, boolean)}; wrap: go on from the other end; none: the status bar's
     * message when nothing matches (null: an error dialog names the filter).
     */
    private static CompletableFuture<Integer> search(GuiContext ctx, DisplayFilter filter, boolean forward, boolean wrap, String none) {
        CompletableFuture<Integer> result = new CompletableFuture<>();
        OpenCapture c = ctx.capture();
        if (c == null || ctx.view().size() == 0) {
            result.complete(0);
            return result;
        }
        FrameView v = ctx.view();
        int sel = ctx.selectedFrame();
        int start = sel == 0 ? (forward ? -1 : v.size()) : v.rowOf(sel);
        AnalysisSession s = ctx.analysis();
        Thread.ofPlatform().daemon().name("metaroce-gui-find").start(() -> {
            FrameDecoder dec = new FrameDecoder(c.index(), s);
            GuiFields.Accessor acc = new GuiFields.Accessor(s);
            int n = v.size(), found = 0;
            for (int k = 1; k <= n && found == 0; k++) {
                int at = start + (forward ? k : -k);
                if (!wrap && (at < 0 || at >= n)) break;
                int row = Math.floorMod(at, n);
                int f = v.frameAt(row);
                dec.decode(f);
                if (filter.matches(acc.of(dec.fields()))) found = f;
            }
            int hit = found;
            Platform.runLater(() -> {
                if (ctx.capture() == c && hit != 0) ctx.select(hit);
                else if (ctx.capture() == c && none != null) ctx.status(none);
                else if (ctx.capture() == c) ctx.error("No packet matches " + filter.text());
                result.complete(hit);
            });
        });
        return result;
    }
}

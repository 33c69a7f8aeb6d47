package io.metaroce.gui;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.filter.FilterException;
import java.util.concurrent.CompletableFuture;
import javafx.application.Platform;

/**
 * Go to a packet by number, or to the next or previous retransmission or expert item, among the packets shown,
 * wrapping at the end as Wireshark does (Edit > Find Packet searches for more: {@link FindPacket}). Searching decodes
 * frames, so it runs on a background thread; the selection changes on the UI thread when a match is found.
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
                int row = Math.floorMod(start + (forward ? k : -k), n);
                int f = v.frameAt(row);
                dec.decode(f);
                if (filter.matches(acc.of(dec.fields()))) found = f;
            }
            int hit = found;
            Platform.runLater(() -> {
                if (ctx.capture() == c && hit != 0) ctx.select(hit);
                else if (ctx.capture() == c) ctx.error("No packet matches " + filter.text());
                result.complete(hit);
            });
        });
        return result;
    }
}

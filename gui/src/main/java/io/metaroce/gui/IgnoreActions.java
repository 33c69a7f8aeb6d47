package io.metaroce.gui;

import java.util.List;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;

/**
 * Edit > Ignore/Unignore Packet, Ignore All Displayed and Unignore All Displayed, the packet list's context item and
 * the status bar's "Ignored: N" count, as Wireshark's. The ignored frames themselves are {@link GuiContext}'s
 * ({@link GuiContext#setIgnored}): the analysis runs again without them and no statistic counts them.
 */
final class IgnoreActions {
    private IgnoreActions() { }

    /**
     * Edit's Ignore/Unignore Packet (Ctrl+D: the selected packets, unignored when all of them are ignored, as Mark
     * does), Ignore All Displayed (Ctrl+Shift+D), Unignore All Displayed (Ctrl+Alt+D), as Wireshark's.
     */
    static List<MenuItem> ignoreItems(GuiContext ctx, PacketTable packets) {
        return List.of(new SeparatorMenuItem(),
                EditActions.item("Ignore/Unignore Packet", "Shortcut+D", "edit-ignore", () -> toggleIgnored(ctx, packets)),
                EditActions.item("Ignore All Displayed", "Shortcut+Shift+D", "edit-ignore-all", () -> ctx.setIgnoredDisplayed(true)),
                EditActions.item("Unignore All Displayed", "Shortcut+Alt+D", "edit-unignore-all", () -> ctx.setIgnoredDisplayed(false)));
    }

    /** The packet list's context menu item (Wireshark's Ignore/Unignore Packet there). */
    static MenuItem contextItem(GuiContext ctx, PacketTable packets) {
        return EditActions.item("Ignore/Unignore Packet", null, "list-ignore", () -> toggleIgnored(ctx, packets));
    }

    static void toggleIgnored(GuiContext ctx, PacketTable packets) {
        int[] frames = packets.selectedFrames();
        if (frames.length == 0) return;
        boolean all = true;
        for (int f : frames) all &= ctx.isIgnored(f);
        ctx.setIgnored(frames, !all);
    }

    /** The status bar's "Ignored: N (p%)" beside Displayed, as Wireshark's, shown only when N > 0. */
    static Label ignoredCount(GuiContext ctx) {
        Label l = new Label();
        l.setId("ignored-count");
        Runnable update = () -> {
            OpenCapture c = ctx.capture();
            int n = c == null ? 0 : ctx.ignoredCount();
            l.setText(n == 0 ? "" : "Ignored: " + n + " (" + String.format(java.util.Locale.ROOT, "%.1f", 100.0 * n / Math.max(1, c.frames())) + "%)");
        };
        ctx.editsProperty().addListener((o, a, b) -> update.run());
        ctx.captureProperty().addListener((o, a, b) -> update.run());
        return l;
    }
}

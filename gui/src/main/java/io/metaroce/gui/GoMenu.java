package io.metaroce.gui;

import java.util.List;
import javafx.scene.Scene;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;

/**
 * The Go menu, Wireshark's: Go to Packet, Go to Linked Packet (the frame the selected tree line refers to), Back and
 * Forward through the packets selected (Alt+Left, Alt+Right; Wireshark's packet history), Next/Previous Packet (Ctrl+Down, Ctrl+Up), Next/Previous
 * Packet in Conversation (Ctrl+. and Ctrl+, as Wireshark's: the QP flow, else the UDP or IP conversation), then this
 * analyzer's next/previous retransmission (Ctrl+Alt+. and Ctrl+Alt+,, since Wireshark's keys went to the
 * conversation) and expert item, Flow Search, First and Last Packet.
 */
final class GoMenu {
    private final GuiContext ctx;
    /** The items whose keys the packet list and the field tree take for themselves (Ctrl+Up/Down, Alt+Left/Right). */
    private final List<MenuItem> everywhere;
    private final Menu menu;

    /** askGoTo: Go to Packet's dialog; flowSearch: Flow Search's item (the main window knows its index store). */
    GoMenu(GuiContext ctx, FrameDetail detail, Runnable askGoTo, MenuItem flowSearch) {
        this.ctx = ctx;
        MenuItem back = item("Back", "Alt+Left", "go-back", e -> history(false));
        back.disableProperty().bind(ctx.history.canBackProperty().not());
        MenuItem forward = item("Forward", "Alt+Right", "go-forward", e -> history(true));
        forward.disableProperty().bind(ctx.history.canForwardProperty().not());
        MenuItem linked = item("Go to Linked Packet", null, "go-linked", e -> detail.goToLinked());
        linked.disableProperty().bind(detail.linkedFrameProperty().isEqualTo(0));
        MenuItem next = item("Next Packet", "Shortcut+Down", "go-next-packet", e -> Navigation.step(ctx, true));
        MenuItem previous = item("Previous Packet", "Shortcut+Up", "go-previous-packet", e -> Navigation.step(ctx, false));
        MenuItem nextConv = item("Next Packet in Conversation", "Shortcut+Period", "go-next-conversation", e -> Navigation.conversation(ctx, true));
        MenuItem prevConv = item("Previous Packet in Conversation", "Shortcut+Comma", "go-previous-conversation", e -> Navigation.conversation(ctx, false));
        everywhere = List.of(back, forward, next, previous, nextConv, prevConv);
        menu = new Menu("Go", null,
                item("Go to Packet...", "Shortcut+G", null, e -> askGoTo.run()),      // first, as it was and is in Wireshark
                linked,
                new SeparatorMenuItem(),
                back, forward,
                new SeparatorMenuItem(),
                next, previous, nextConv, prevConv,
                item("Next Retransmission", "Shortcut+Alt+Period", null, e -> Navigation.next(ctx, Navigation.Kind.RETRANSMISSION, true)),
                item("Previous Retransmission", "Shortcut+Alt+Comma", null, e -> Navigation.next(ctx, Navigation.Kind.RETRANSMISSION, false)),
                item("Next Expert Item", "Shortcut+Shift+Period", null, e -> Navigation.next(ctx, Navigation.Kind.EXPERT, true)),
                item("Previous Expert Item", "Shortcut+Shift+Comma", null, e -> Navigation.next(ctx, Navigation.Kind.EXPERT, false)),
                flowSearch,
                new SeparatorMenuItem(),
                item("First Packet", "Shortcut+Home", null, e -> ctx.select(ctx.view().size() > 0 ? ctx.view().frameAt(0) : 0)),
                item("Last Packet", "Shortcut+End", null, e -> ctx.select(ctx.view().size() > 0 ? ctx.view().frameAt(ctx.view().size() - 1) : 0)));
        menu.setId("menu-go");
    }

    Menu menu() { return menu; }

    /**
     * Makes Next/Previous Packet, Back and Forward work whichever pane has the focus, as Wireshark's: the packet list
     * and the field tree use Ctrl+Up/Down (move the focus) and the tree Alt+Left/Right before a menu accelerator sees
     * them, so the scene takes these keys first.
     */
    void install(Scene scene) {
        scene.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            for (MenuItem mi : everywhere) {
                if (mi.getAccelerator() != null && mi.getAccelerator().match(e)) {
                    if (!mi.isDisable()) mi.fire();
                    e.consume();
                    return;
                }
            }
        });
    }

    private void history(boolean forward) {
        if (ctx.goHistory(forward) == 0) ctx.status("No " + (forward ? "later" : "earlier") + " packet in the history is displayed");
    }

    private static MenuItem item(String text, String accelerator, String id, javafx.event.EventHandler<javafx.event.ActionEvent> h) {
        MenuItem mi = new MenuItem(text);
        if (accelerator != null) mi.setAccelerator(KeyCombination.keyCombination(accelerator));
        if (id != null) mi.setId(id);
        mi.setOnAction(h);
        return mi;
    }
}

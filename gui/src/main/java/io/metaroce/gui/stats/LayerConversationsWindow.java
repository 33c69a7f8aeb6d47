package io.metaroce.gui.stats;

import io.metaroce.dissector.stats.ConversationType;
import io.metaroce.dissector.stats.Conversations;
import io.metaroce.dissector.stats.Conversations.Conversation;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import java.util.List;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.TableView;

/**
 * Statistics > Conversations, as Wireshark's: a tab per layer (Ethernet, IPv4, IPv6, UDP), a row per pair of ends
 * with the packets and bytes each way, the relative start and the duration; the counts are the dissector's
 * {@link Conversations}, those {@code dissect -z conv,TYPE} prints, all four from one pass over the capture. A row's
 * context menu applies or prepares Wireshark's filter of the conversation (A &lt;-&gt; B, A -&gt; B, B -&gt; A).
 * "Limit to display filter" counts the displayed frames only. The per-QP table of the analysis is QP Conversations.
 */
public final class LayerConversationsWindow implements GuiWindow {
    @Override
    public Place place() { return Place.STATISTICS; }

    @Override
    public String title() { return "Conversations"; }

    /** One pass thread's counters: the four layers' {@link Conversations}. */
    static LayerTabs.Counters<Conversations> counters() {
        return new LayerTabs.Counters<>(Conversations::new, Conversations::add, Conversations::merge);
    }

    /** The filter of a row that matches exactly its frames: Wireshark's, unless a twin row would match it too. */
    static String exactFilter(Conversation c, List<Conversation> all) {
        boolean twin = false;
        for (Conversation o : all) twin |= c.twinOf(o);
        return c.exactFilter(twin);
    }

    @Override
    public void open(GuiContext ctx) {
        LayerTabs.open(ctx, "layer-conversations", "conv-tab", title(), "conversations", 1300,
                LayerConversationsWindow::counters, Conversations::rows, (t, status) -> table(ctx, t, status));
    }

    private static TableView<Conversation> table(GuiContext ctx, ConversationType t, Label status) {
        TableView<Conversation> table = new TableView<>();
        table.setId("conv-table-" + t.id());
        boolean ports = t == ConversationType.UDP;
        double addr = t == ConversationType.IPV6 ? 260 : 140;
        table.getColumns().add(StatsTables.col("Address A", Conversation::addressA, addr));
        if (ports) table.getColumns().add(StatsTables.col("Port A", Conversation::portA, 65));
        table.getColumns().add(StatsTables.col("Address B", Conversation::addressB, addr));
        if (ports) table.getColumns().add(StatsTables.col("Port B", Conversation::portB, 65));
        table.getColumns().add(StatsTables.col("Packets", Conversation::frames, 75));
        table.getColumns().add(StatsTables.col("Bytes", Conversation::bytes, 90));
        table.getColumns().add(StatsTables.col("Packets A \u2192 B", Conversation::abFrames, 105));
        table.getColumns().add(StatsTables.col("Bytes A \u2192 B", Conversation::abBytes, 100));
        table.getColumns().add(StatsTables.col("Packets B \u2192 A", Conversation::baFrames, 105));
        table.getColumns().add(StatsTables.col("Bytes B \u2192 A", Conversation::baBytes, 100));
        table.getColumns().add(StatsTables.seconds("Rel Start", Conversation::startNs, 6, 95));
        table.getColumns().add(StatsTables.seconds("Duration", Conversation::durationNs, 4, 80));
        String id = "conv-" + t.id();
        Menu apply = new Menu("Apply as Filter");
        apply.getItems().addAll(
                StatsTables.filterItem("A \u2194 B", id + "-apply-both", ctx, table, c -> exactFilter(c, table.getItems()), true, status),
                StatsTables.filterItem("A \u2192 B", id + "-apply-ab", ctx, table, Conversation::filterAtoB, true, status),
                StatsTables.filterItem("B \u2192 A", id + "-apply-ba", ctx, table, Conversation::filterBtoA, true, status));
        Menu prepare = new Menu("Prepare as Filter");
        prepare.getItems().addAll(
                StatsTables.filterItem("A \u2194 B", id + "-prepare-both", ctx, table, c -> exactFilter(c, table.getItems()), false, status),
                StatsTables.filterItem("A \u2192 B", id + "-prepare-ab", ctx, table, Conversation::filterAtoB, false, status),
                StatsTables.filterItem("B \u2192 A", id + "-prepare-ba", ctx, table, Conversation::filterBtoA, false, status));
        table.setContextMenu(new ContextMenu(apply, prepare));
        return table;
    }
}

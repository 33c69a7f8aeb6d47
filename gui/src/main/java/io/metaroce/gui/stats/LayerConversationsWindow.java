package io.metaroce.gui.stats;

import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.stats.ConversationType;
import io.metaroce.dissector.stats.Conversations;
import io.metaroce.dissector.stats.Conversations.Conversation;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;

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

    /** The four tables one pass fills. */
    static final class Tables {
        final List<Conversations> byType = new ArrayList<>();

        Tables() {
            for (ConversationType t : ConversationType.values()) byType.add(new Conversations(t));
        }

        void add(Dissection d) {
            for (Conversations c : byType) c.add(d);
        }

        void merge(Tables o) {
            for (int i = 0; i < byType.size(); i++) byType.get(i).merge(o.byType.get(i));
        }
    }

    /** The filter of a row that matches exactly its frames: Wireshark's, unless a twin row would match it too. */
    static String exactFilter(Conversation c, List<Conversation> all) {
        boolean twin = false;
        for (Conversation o : all) twin |= c.twinOf(o);
        return c.exactFilter(twin);
    }

    @Override
    public void open(GuiContext ctx) {
        TabPane tabs = new TabPane();
        tabs.setId("layer-conversations-tabs");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        Label status = new Label();
        status.setId("layer-conversations-status");
        List<TableView<Conversation>> tables = new ArrayList<>();
        for (ConversationType t : ConversationType.values()) {
            TableView<Conversation> table = table(ctx, t, status);
            tables.add(table);
            Tab tab = new Tab(t.title(), table);
            tab.setId("conv-tab-" + t.id());
            tabs.getTabs().add(tab);
        }
        CheckBox limit = new CheckBox("Limit to display filter");
        limit.setId("layer-conversations-limit");
        Label shown = new Label();
        HBox bar = new HBox(12, limit, shown, status);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(6, 8, 6, 8));
        BorderPane root = new BorderPane(tabs);
        root.setBottom(bar);
        var stage = Windows.show(ctx, "layer-conversations", "Conversations", root, 1300, 480);
        Runnable fill = StatsPass.forWindow(ctx, stage, limit, status, Tables::new, Tables::add, Tables::merge, r -> {
            long total = 0;
            for (int i = 0; i < tables.size(); i++) {
                List<Conversation> rows = r.byType.get(i).rows();
                tables.get(i).getItems().setAll(rows);
                tabs.getTabs().get(i).setText(ConversationType.values()[i].title() + " \u00b7 " + rows.size());
                total += rows.size();
            }
            status.setText(total + " conversations");
        });
        StatsPass.refill(ctx, stage, limit, shown, fill);
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

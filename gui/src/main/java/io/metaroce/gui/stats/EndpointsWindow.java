package io.metaroce.gui.stats;

import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.stats.ConversationType;
import io.metaroce.dissector.stats.Endpoints;
import io.metaroce.dissector.stats.Endpoints.Endpoint;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;

/**
 * Statistics > Endpoints, as Wireshark's: a tab per layer (Ethernet, IPv4, IPv6, UDP), a row per address (and port)
 * with the packets and bytes it sent and received; the counts are the dissector's {@link Endpoints}, those
 * {@code dissect -z endpoints,TYPE} prints, all four from one pass over the capture. A row's context menu applies or
 * prepares its filter ({@code ip.addr==10.0.0.1}); "Limit to display filter" counts the displayed frames only.
 */
public final class EndpointsWindow implements GuiWindow {
    @Override
    public Place place() { return Place.STATISTICS; }

    @Override
    public String title() { return "Endpoints"; }

    /** The four tables one pass fills. */
    static final class Tables {
        final List<Endpoints> byType = new ArrayList<>();

        Tables() {
            for (ConversationType t : ConversationType.values()) byType.add(new Endpoints(t));
        }

        void add(Dissection d) {
            for (Endpoints e : byType) e.add(d);
        }

        void merge(Tables o) {
            for (int i = 0; i < byType.size(); i++) byType.get(i).merge(o.byType.get(i));
        }
    }

    @Override
    public void open(GuiContext ctx) {
        TabPane tabs = new TabPane();
        tabs.setId("endpoints-tabs");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        Label status = new Label();
        status.setId("endpoints-status");
        List<TableView<Endpoint>> tables = new ArrayList<>();
        for (ConversationType t : ConversationType.values()) {
            TableView<Endpoint> table = table(ctx, t, status);
            tables.add(table);
            Tab tab = new Tab(t.title(), table);
            tab.setId("endpoints-tab-" + t.id());
            tabs.getTabs().add(tab);
        }
        CheckBox limit = new CheckBox("Limit to display filter");
        limit.setId("endpoints-limit");
        Label shown = new Label();
        HBox bar = new HBox(12, limit, shown, status);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(6, 8, 6, 8));
        BorderPane root = new BorderPane(tabs);
        root.setBottom(bar);
        var stage = Windows.show(ctx, "endpoints", "Endpoints", root, 1000, 480);
        Runnable fill = StatsPass.forWindow(ctx, stage, limit, status, Tables::new, Tables::add, Tables::merge, r -> {
            long total = 0;
            for (int i = 0; i < tables.size(); i++) {
                List<Endpoint> rows = r.byType.get(i).rows();
                tables.get(i).getItems().setAll(rows);
                tabs.getTabs().get(i).setText(ConversationType.values()[i].title() + " \u00b7 " + rows.size());
                total += rows.size();
            }
            status.setText(total + " endpoints");
        });
        StatsPass.refill(ctx, stage, limit, shown, fill);
    }

    private static TableView<Endpoint> table(GuiContext ctx, ConversationType t, Label status) {
        TableView<Endpoint> table = new TableView<>();
        table.setId("endpoints-table-" + t.id());
        table.getColumns().add(StatsTables.col("Address", Endpoint::address, t == ConversationType.IPV6 ? 260 : 140));
        if (t == ConversationType.UDP) table.getColumns().add(StatsTables.col("Port", Endpoint::port, 65));
        table.getColumns().add(StatsTables.col("Packets", Endpoint::frames, 75));
        table.getColumns().add(StatsTables.col("Bytes", Endpoint::bytes, 90));
        table.getColumns().add(StatsTables.col("Tx Packets", Endpoint::txFrames, 85));
        table.getColumns().add(StatsTables.col("Tx Bytes", Endpoint::txBytes, 90));
        table.getColumns().add(StatsTables.col("Rx Packets", Endpoint::rxFrames, 85));
        table.getColumns().add(StatsTables.col("Rx Bytes", Endpoint::rxBytes, 90));
        String id = "endpoints-" + t.id();
        table.setContextMenu(new ContextMenu(
                StatsTables.filterItem("Apply as Filter", id + "-apply", ctx, table, Endpoint::filter, true, status),
                StatsTables.filterItem("Prepare as Filter", id + "-prepare", ctx, table, Endpoint::filter, false, status)));
        return table;
    }
}

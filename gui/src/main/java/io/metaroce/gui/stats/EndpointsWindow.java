package io.metaroce.gui.stats;

import io.metaroce.dissector.stats.ConversationType;
import io.metaroce.dissector.stats.Endpoints;
import io.metaroce.dissector.stats.Endpoints.Endpoint;
import io.metaroce.gui.GuiContext;
import io.metaroce.gui.GuiWindow;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;

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

    /** One pass thread's counters: the four layers' {@link Endpoints}. */
    static LayerTabs.Counters<Endpoints> counters() {
        return new LayerTabs.Counters<>(Endpoints::new, Endpoints::add, Endpoints::merge);
    }

    @Override
    public void open(GuiContext ctx) {
        LayerTabs.open(ctx, "endpoints", "endpoints-tab", title(), "endpoints", 1000, EndpointsWindow::counters,
                Endpoints::rows, (t, status) -> table(ctx, t, status));
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

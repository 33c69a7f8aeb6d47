package io.metaroce.gui.stats;

import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.stats.ConversationType;
import io.metaroce.gui.GuiContext;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;

/**
 * The window Statistics > Conversations and Endpoints both are (Wireshark's layout): a tab per layer
 * ({@link ConversationType}: Ethernet, IPv4, IPv6, UDP) holding one table, the four counted in one pass over the
 * capture ({@link StatsPass}), "Limit to display filter" and a status line under them.
 */
final class LayerTabs {
    private LayerTabs() {}

    /** One counter per layer, fed and merged together: the unit of work of one pass's thread. */
    static final class Counters<C> {
        final List<C> byType = new ArrayList<>();
        private final BiConsumer<C, Dissection> add;
        private final BiConsumer<C, C> merge;

        Counters(Function<ConversationType, C> create, BiConsumer<C, Dissection> add, BiConsumer<C, C> merge) {
            for (ConversationType t : ConversationType.values()) byType.add(create.apply(t));
            this.add = add;
            this.merge = merge;
        }

        void add(Dissection d) {
            for (C c : byType) add.accept(c, d);
        }

        void merge(Counters<C> o) {
            for (int i = 0; i < byType.size(); i++) merge.accept(byType.get(i), o.byType.get(i));
        }
    }

    /**
     * Opens the window and starts its pass.
     *
     * @param id the window's id and its controls' prefix ({@code ID-tabs}, {@code ID-status}, {@code ID-limit})
     * @param tabId the tabs' prefix ({@code TABID-eth}, ...)
     * @param noun what a row is, plural, for the status line ("endpoints")
     * @param counters a pass thread's counters (one per layer); rows reads a layer's
     * @param table a layer's table (its columns and context menu), given the status line for its messages
     */
    static <C, R> void open(GuiContext ctx, String id, String tabId, String title, String noun, double width,
                            Supplier<Counters<C>> counters, Function<C, List<R>> rows,
                            BiFunction<ConversationType, Label, TableView<R>> table) {
        TabPane tabs = new TabPane();
        tabs.setId(id + "-tabs");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        Label status = new Label();
        status.setId(id + "-status");
        List<TableView<R>> tables = new ArrayList<>();
        for (ConversationType t : ConversationType.values()) {
            TableView<R> view = table.apply(t, status);
            tables.add(view);
            Tab tab = new Tab(t.title(), view);
            tab.setId(tabId + "-" + t.id());
            tabs.getTabs().add(tab);
        }
        StatsPass.window(ctx, id, title, tabs, width, 480, id + "-limit", status, counters, Counters::add, Counters::merge, r -> {
            long total = 0;
            for (int i = 0; i < tables.size(); i++) {
                List<R> shownRows = rows.apply(r.byType.get(i));
                tables.get(i).getItems().setAll(shownRows);
                tabs.getTabs().get(i).setText(ConversationType.values()[i].title() + " \u00b7 " + shownRows.size());
                total += shownRows.size();
            }
            status.setText(total + " " + noun);
        });
    }
}

package io.metaroce.gui;

import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.Dissection;
import java.util.List;
import java.util.function.Supplier;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;

/**
 * The rest of Wireshark's Analyze menu: Apply as Filter and Prepare as Filter (Selected, Not Selected, ...and
 * Selected, ...or Selected, ...and not Selected, ...or not Selected) for the field selected in the tree (the filter
 * its context menu's Apply as Filter gives), Conversation Filter (IPv4, UDP, RoCE QP) for the selected packet, and
 * Expert Information. The filters go to the main window's filter bar, as if typed there.
 */
final class AnalyzeFilters {
    /** Wireshark's six ways, in its order: the label and how the selected filter joins the current one. */
    static final List<String> WAYS = List.of("Selected", "Not Selected", "...and Selected", "...or Selected",
            "...and not Selected", "...or not Selected");
    private static final String[] IDS = {"selected", "not-selected", "and-selected", "or-selected", "and-not-selected", "or-not-selected"};

    private AnalyzeFilters() { }

    /** Adds the items to Analyze: the filter submenus before Decode As, Expert Information last (Wireshark's places). */
    static void addTo(Menu analyze, GuiContext ctx, Supplier<String> selectedField) {
        int at = 0;
        while (at < analyze.getItems().size() && !"menu-decode-as".equals(analyze.getItems().get(at).getId())) at++;
        analyze.getItems().addAll(at, List.of(ways("Apply as Filter", "analyze-apply-", ctx, selectedField, true),
                ways("Prepare as Filter", "analyze-prepare-", ctx, selectedField, false), conversation(ctx), new SeparatorMenuItem()));
        MenuItem expert = new MenuItem("Expert Information");
        expert.setId("analyze-expert-info");
        expert.setOnAction(e -> new io.metaroce.gui.stats.ExpertInfoWindow().open(ctx));
        analyze.getItems().addAll(new SeparatorMenuItem(), expert);
    }

    private static Menu ways(String label, String idPrefix, GuiContext ctx, Supplier<String> selectedField, boolean apply) {
        Menu m = new Menu(label);
        m.setId(idPrefix + "menu");
        for (int i = 0; i < WAYS.size(); i++) {
            int way = i;
            MenuItem mi = new MenuItem(WAYS.get(i));
            mi.setId(idPrefix + IDS[i]);
            mi.setOnAction(e -> {
                String f = selectedField.get();
                if (f == null) ctx.status(label + ": select a field in the packet details first");
                else ctx.filterFromWindow(combine(ctx.appliedFilterProperty().get(), f, way), apply);
            });
            m.getItems().add(mi);
        }
        return m;
    }

    /** The selected field's filter joined to the current one as Wireshark joins them ("(a) && (b)", "!(b)", ...). */
    static String combine(String current, String selected, int way) {
        boolean not = way == 1 || way == 4 || way == 5;
        String f = not ? "!(" + selected + ")" : selected;
        if (way < 2 || current == null || current.isBlank()) return f;
        return "(" + current.strip() + ") " + (way == 2 || way == 4 ? "&&" : "||") + " (" + f + ")";
    }

    /** Conversation Filter: the selected packet's IPv4 pair, UDP pair of sockets, or RoCE QP connection (both flows). */
    private static Menu conversation(GuiContext ctx) {
        Menu m = new Menu("Conversation Filter");
        m.setId("analyze-conversation-menu");
        String[][] kinds = {{"IPv4", "ip"}, {"UDP", "udp"}, {"RoCE QP", "roce"}};
        for (String[] k : kinds) {
            MenuItem mi = new MenuItem(k[0]);
            mi.setId("analyze-conversation-" + k[1]);
            mi.setOnAction(e -> {
                String f = conversationFilter(ctx, k[1]);
                if (f == null) ctx.status("Conversation Filter > " + k[0] + ": the selected packet has no " + k[0] + " conversation");
                else ctx.filterFromWindow(f, true);
            });
            m.getItems().add(mi);
        }
        return m;
    }

    /** The filter of the selected packet's conversation of that kind (ip, udp, roce), or null. */
    static String conversationFilter(GuiContext ctx, String kind) {
        OpenCapture c = ctx.capture();
        int frame = ctx.selectedFrame();
        if (c == null || frame <= 0) return null;
        AnalysisSession s = ctx.analysis();
        FrameDecoder dec = new FrameDecoder(c.index(), kind.equals("roce") ? s : null);
        Dissection d = dec.decode(frame);
        var ff = dec.fields();
        if (kind.equals("roce")) {
            String[] ids = dec.analysis() == null ? null : dec.analysis().flowIds(d);
            if (ids == null) return null;
            String f = "analysis.flow == \"" + ids[0] + "\"";
            return ids[1] == null ? f : f + " || analysis.flow == \"" + ids[1] + "\"";
        }
        String src = value(ff, "ip.src"), dst = value(ff, "ip.dst");
        if (src == null || dst == null) return null;
        String ip = "ip.addr == " + src + " && ip.addr == " + dst;
        if (kind.equals("ip")) return ip;
        String sp = value(ff, "udp.srcport"), dp = value(ff, "udp.dstport");
        return sp == null || dp == null ? null : ip + " && udp.port == " + sp + " && udp.port == " + dp;
    }

    private static String value(io.metaroce.dissector.FrameFields ff, String name) {
        var def = io.metaroce.dissector.FieldCatalog.get().field(name);
        return ff.count(def) == 0 ? null : FieldTreeModel.filterOf(def, ff, 0).substring(name.length() + 4);     // "name == v"
    }
}

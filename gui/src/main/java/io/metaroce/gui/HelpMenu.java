package io.metaroce.gui;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

/**
 * Wireshark's Help menu, last on the menu bar: About MetaRoCE Analyzer (the version line of {@code metaroce
 * --version}, the licence, the Java and JavaFX versions, the folders the GUI keeps its files in, the bundled
 * libraries and their licences) and Keyboard Shortcuts (every accelerator of the menu bar, read from the menu bar
 * itself so that it never lists a stale one). The library list is docs/licenses.md, copied into the jar at build
 * time (gui/pom.xml), not a second list.
 */
final class HelpMenu {
    private HelpMenu() { }

    /** {@code metaroce --version}'s line: the tool's version and the spec revision it implements. */
    static final String VERSION = "metaroce " + io.metaroce.validate.Reports.VERSION + " (MetaRoCE " + io.metaroce.protocol.Spec.VERSION + ")";
    static final String LICENCE = "Apache-2.0";
    /** docs/licenses.md as the build copied it. */
    static final String LICENSES_RESOURCE = "licenses.md";

    /** coloringFile: the current profile's, asked when the window opens (Edit > Configuration Profiles changes it). */
    static Menu menu(GuiContext ctx, MenuBar bar, java.util.function.Supplier<Path> coloringFile, Path recentStore, Path flowIndexStore) {
        MenuItem keys = new MenuItem("Keyboard Shortcuts");
        keys.setId("help-shortcuts");
        MenuItem about = new MenuItem("About MetaRoCE Analyzer");
        about.setId("help-about");
        keys.setOnAction(e -> about(ctx, bar, coloringFile.get(), recentStore, flowIndexStore).getSelectionModel().select(3));
        about.setOnAction(e -> about(ctx, bar, coloringFile.get(), recentStore, flowIndexStore));
        Menu help = new Menu("Help", null, keys, new SeparatorMenuItem(), about);
        help.setId("menu-help");
        return help;
    }

    /** The About window: tabs as Wireshark's (the analyzer, Folders, Licences, Keyboard Shortcuts). */
    static TabPane about(GuiContext ctx, MenuBar bar, Path coloringFile, Path recentStore, Path flowIndexStore) {
        Label main = new Label(String.join("\n", aboutLines()));
        main.setId("about-text");
        main.setPadding(new Insets(12));
        TabPane tabs = new TabPane(
                new Tab("MetaRoCE Analyzer", new VBox(main)),
                new Tab("Folders", table("about-folders", List.of("Name", "Location"), folders(coloringFile, recentStore, flowIndexStore))),
                new Tab("Licences", table("about-licences", List.of("Component", "Version", "Licence", "Used"), licences())),
                new Tab("Keyboard Shortcuts", table("about-shortcuts", List.of("Shortcut", "Menu item"), shortcuts(bar))));
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        tabs.setId("about");
        Stage st = new Stage();
        if (ctx.stage() != null) st.initOwner(ctx.stage());
        st.setTitle("About MetaRoCE Analyzer");
        st.setScene(new Scene(tabs, 900, 560));
        st.show();
        return tabs;
    }

    static List<String> aboutLines() {
        return List.of(VERSION,
                "MetaRoCE Analyzer: a RoCEv2 and MetaRoCE capture analyzer",
                "Licence: " + LICENCE + " (the bundled libraries' licences: the Licences tab)",
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor", "?") + "), JavaFX "
                        + System.getProperty("javafx.runtime.version", System.getProperty("javafx.version", "?")));
    }

    /** The files the GUI keeps, as Wireshark's Folders tab: name, path. */
    static List<List<String>> folders(Path coloringFile, Path recentStore, Path flowIndexStore) {
        List<List<String>> out = new ArrayList<>();
        out.add(List.of("Personal configuration", coloringFile.toAbsolutePath().getParent().toString()));
        out.add(List.of("Coloring rules", coloringFile.toAbsolutePath().toString()));
        out.add(List.of("Recent files", recentStore.toAbsolutePath().toString()));
        out.add(List.of("Zoom level", coloringFile.toAbsolutePath().resolveSibling("zoom").toString()));
        String index = "";
        try {
            if (Files.isRegularFile(flowIndexStore)) index = " (last searched: " + Files.readString(flowIndexStore).strip() + ")";
        } catch (IOException e) {
            index = " (unreadable: " + e.getMessage() + ")";
        }
        out.add(List.of("Flow index (Flow Search)", flowIndexStore.toAbsolutePath() + index));
        return out;
    }

    /** The rows of docs/licenses.md's table: component, version, licence, where it is used. */
    static List<List<String>> licences() {
        List<List<String>> out = new ArrayList<>();
        try (InputStream in = HelpMenu.class.getResourceAsStream(LICENSES_RESOURCE)) {
            if (in == null) return List.of(List.of("(docs/licenses.md is not in this build)", "", "", ""));
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.startsWith("| ") || line.startsWith("| component ")) continue;
                String[] cells = line.substring(2, line.length() - (line.endsWith(" |") ? 2 : 0)).split(" \\| ", -1);
                List<String> row = new ArrayList<>();
                for (int i = 0; i < 4; i++) row.add(i < cells.length ? cells[i].replace("`", "").strip() : "");
                out.add(row);
            }
        } catch (IOException e) {
            out.add(List.of("(docs/licenses.md unreadable: " + e.getMessage() + ")", "", "", ""));
        }
        return out;
    }

    /** Every accelerator of the menu bar: its keys as the menus show them, and the item's menu path. */
    static List<List<String>> shortcuts(MenuBar bar) {
        List<List<String>> out = new ArrayList<>();
        for (Menu m : bar.getMenus()) shortcuts(m, m.getText(), out);
        return out;
    }

    private static void shortcuts(Menu m, String path, List<List<String>> out) {
        for (MenuItem i : m.getItems()) {
            if (i instanceof Menu sub) shortcuts(sub, path + " > " + sub.getText(), out);
            else if (i.getAccelerator() != null) out.add(List.of(i.getAccelerator().getDisplayText(), path + " > " + i.getText()));
        }
    }

    private static TableView<List<String>> table(String id, List<String> names, List<List<String>> rows) {
        TableView<List<String>> t = new TableView<>();
        t.setId(id);
        for (int c = 0; c < names.size(); c++) {
            int col = c;
            TableColumn<List<String>, String> tc = new TableColumn<>(names.get(c));
            tc.setCellValueFactory(cd -> new ReadOnlyStringWrapper(cd.getValue().get(col)));
            tc.setPrefWidth(c == names.size() - 1 ? 420 : 160);
            t.getColumns().add(tc);
        }
        t.getItems().setAll(rows);
        t.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        return t;
    }
}

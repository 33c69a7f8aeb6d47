package io.metaroce.gui;

import io.metaroce.dissector.EnabledProtocols;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Spec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/**
 * Wireshark's Analyze > Enabled Protocols... (Shift+Ctrl+E): every protocol of {@code -G protocols} with a check box, a
 * search field, Enable All / Disable All / Invert; OK opens the capture again with the choice (as Decode As does) and
 * keeps it in the profile's {@code disabled_protos} (Wireshark's file: a protocol name a line). The protocols the
 * GUI can switch off are those whose switch costs nothing ({@link EnabledProtocols}): RoCE ({@code bth}); the others
 * are listed greyed out, with why in their tooltip. MetaRoCE ({@code mrth}) is switched off in {@code dissect} only:
 * the GUI's analysis and graphs read MetaRoCE with their own dissectors, which the switch does not reach.
 */
final class EnabledProtocolsDialog {
    static final String FILE_NAME = "disabled_protos";
    /** What the GUI switches (the rest are greyed out). */
    private static final Set<String> SWITCHABLE = Set.of("bth");

    private EnabledProtocolsDialog() {}

    /** The Analyze menu's item; file: the current profile's {@code disabled_protos}. */
    static MenuItem item(GuiContext ctx, Supplier<Path> file) {
        MenuItem mi = new MenuItem("Enabled Protocols...");
        mi.setId("menu-enabled-protocols");
        mi.setAccelerator(KeyCombination.keyCombination("Shift+Shortcut+E"));
        mi.setOnAction(e -> show(ctx, file.get()));
        return mi;
    }

    /** The protocols a profile's file switches off (unknown or unswitchable names ignored; no file: none). */
    static Set<String> load(Path file) {
        Set<String> off = new LinkedHashSet<>();
        try {
            if (!Files.exists(file)) return off;
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String name = line.strip();
                if (name.isEmpty() || name.startsWith("#")) continue;
                String c = EnabledProtocols.canonical(name);
                if (c != null && SWITCHABLE.contains(c)) off.add(c);
            }
        } catch (IOException | RuntimeException e) {
            return off;     // an unreadable file switches nothing off (as a missing one)
        }
        return off;
    }

    static String save(Path file, Set<String> off) {
        StringBuilder b = new StringBuilder("# Protocols switched off by Analyze > Enabled Protocols (Wireshark's disabled_protos)\n");
        for (String p : off) b.append(p).append('\n');
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, b, StandardCharsets.UTF_8);
            return null;
        } catch (IOException | RuntimeException e) {
            return "Enabled Protocols not saved to " + file + ": " + e.getMessage();
        }
    }

    /** Shows the dialog (not waiting for it); OK applies and saves the choice. */
    static Dialog<ButtonType> show(GuiContext ctx, Path file) {
        Dialog<ButtonType> dialog = new Dialog<>();
        dialog.setTitle("Enabled Protocols");
        if (ctx.stage() != null) dialog.initOwner(ctx.stage());
        List<CheckBox> boxes = new ArrayList<>();
        VBox list = new VBox(4);
        for (HeaderDef h : Spec.HEADERS) {
            CheckBox b = new CheckBox(h.id() + "  " + h.title());
            b.setId("proto-" + h.id());
            b.setUserData(h.id());
            boolean switchable = SWITCHABLE.contains(h.id());
            b.setSelected(!ctx.protocolsOff().contains(h.id()));
            b.setDisable(!switchable);
            b.setTooltip(new Tooltip(switchable ? EnabledProtocols.meaning(h.id()) : h.id().equals("mrth")
                    ? "MetaRoCE is switched off in dissect (--disable-protocol mrth): the GUI's analysis and graphs read it on their own"
                    : "Always on: it carries RoCE or is one of its headers"));
            boxes.add(b);
            list.getChildren().add(b);
        }
        TextField search = new TextField();
        search.setId("proto-search");
        search.setPromptText("Search (name or description)");
        search.textProperty().addListener((o, a, text) -> {
            String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
            for (CheckBox b : boxes) {
                boolean shown = t.isEmpty() || b.getText().toLowerCase(Locale.ROOT).contains(t);
                b.setVisible(shown);
                b.setManaged(shown);
            }
        });
        Button all = new Button("Enable All"), none = new Button("Disable All"), invert = new Button("Invert");
        all.setId("proto-enable-all");
        none.setId("proto-disable-all");
        invert.setId("proto-invert");
        // As Wireshark's: on the protocols shown (the search's), here those that can be switched.
        all.setOnAction(e -> boxes.stream().filter(b -> b.isVisible() && !b.isDisabled()).forEach(b -> b.setSelected(true)));
        none.setOnAction(e -> boxes.stream().filter(b -> b.isVisible() && !b.isDisabled()).forEach(b -> b.setSelected(false)));
        invert.setOnAction(e -> boxes.stream().filter(b -> b.isVisible() && !b.isDisabled()).forEach(b -> b.setSelected(!b.isSelected())));
        ScrollPane scroll = new ScrollPane(list);
        scroll.setPrefSize(460, 360);
        Label note = new Label("OK opens the capture again with the protocols checked and keeps the choice in the profile ("
                + file.getFileName() + ").");
        note.setWrapText(true);
        VBox box = new VBox(8, search, scroll, new HBox(8, all, none, invert), note);
        box.setPadding(new Insets(10));
        dialog.getDialogPane().setContent(box);
        dialog.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        dialog.setOnHidden(e -> {
            if (dialog.getResult() != ButtonType.OK) return;
            Set<String> off = new LinkedHashSet<>();
            for (CheckBox b : boxes) if (!b.isDisabled() && !b.isSelected()) off.add((String) b.getUserData());
            String problem = save(file, off);
            if (problem != null) ctx.error(problem);
            ctx.enabledProtocols(off);
        });
        dialog.show();
        search.requestFocus();
        return dialog;
    }
}

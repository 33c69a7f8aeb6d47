package io.metaroce.gui;

import java.util.List;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.control.RadioMenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleGroup;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * Wireshark's Edit > Configuration Profiles... (Ctrl+Shift+A): the profiles, Default first; New (empty), Copy (the
 * selected one's files), Rename and Delete (not Default) act on the folders at once, under the name typed below the
 * list (checked: {@link Profiles#checkName}); OK switches the window to the selected profile. Also the status
 * bar's {@code Profile: NAME} at the right, whose click opens a menu of the profiles plus Manage Profiles..., and
 * the Edit menu's two items (this one and Preferences...).
 */
final class ProfilesDialog {
    private ProfilesDialog() { }

    /** The Edit menu's last items, as Wireshark's: Configuration Profiles..., Preferences... */
    static List<MenuItem> editMenuItems(MainWindow w) {
        MenuItem profiles = new MenuItem("Configuration Profiles...");
        profiles.setId("edit-profiles");
        profiles.setAccelerator(KeyCombination.keyCombination("Shortcut+Shift+A"));
        profiles.setOnAction(e -> show(w));
        MenuItem prefs = new MenuItem("Preferences...");
        prefs.setId("edit-preferences");
        prefs.setAccelerator(KeyCombination.keyCombination("Shortcut+Shift+P"));
        prefs.setOnAction(e -> PreferencesDialog.show(w));
        return List.of(new SeparatorMenuItem(), profiles, prefs);
    }

    /** The status bar's {@code Profile: NAME}; a click shows the profiles (the current one checked) to switch to. */
    static Label statusLabel(MainWindow w) {
        Label label = new Label();
        label.setId("status-profile");
        label.textProperty().bind(w.profileNameProperty().map(n -> "Profile: " + n));
        ContextMenu menu = new ContextMenu();
        menu.setId("status-profile-menu");
        label.setOnMouseClicked(e -> {
            if (e.getButton() != MouseButton.PRIMARY && e.getButton() != MouseButton.SECONDARY) return;
            menu.getItems().setAll(switchItems(w));
            menu.show(label, e.getScreenX(), e.getScreenY());
        });
        return label;
    }

    /** The status bar menu's items: a radio item per profile (clicking switches), then Manage Profiles... */
    static List<MenuItem> switchItems(MainWindow w) {
        ToggleGroup group = new ToggleGroup();
        List<MenuItem> items = new java.util.ArrayList<>();
        for (String name : w.profiles().list()) {
            RadioMenuItem mi = new RadioMenuItem(name);
            mi.setMnemonicParsing(false);
            mi.setToggleGroup(group);
            mi.setSelected(name.equals(w.profiles().current()));
            mi.setOnAction(e -> report(w, w.useProfile(name)));
            items.add(mi);
        }
        MenuItem manage = new MenuItem("Manage Profiles...");
        manage.setId("status-profile-manage");
        manage.setOnAction(e -> show(w));
        items.add(new SeparatorMenuItem());
        items.add(manage);
        return items;
    }

    private static void report(MainWindow w, String problem) {
        if (problem != null) w.context().error(problem);
    }

    /** Shows the dialog (not waiting for it). */
    static Dialog<ButtonType> show(MainWindow w) {
        Dialog<ButtonType> d = create(w);
        d.show();
        return d;
    }

    static Dialog<ButtonType> create(MainWindow w) {
        Profiles profiles = w.profiles();
        ListView<String> list = new ListView<>();
        list.setId("profiles-list");
        list.setPrefSize(360, 240);
        list.getItems().setAll(profiles.list());
        list.getSelectionModel().select(profiles.current());
        TextField name = new TextField();
        name.setId("profiles-name");
        name.setPromptText("the new profile's name");
        HBox.setHgrow(name, Priority.ALWAYS);
        Label problem = new Label();
        problem.setId("profiles-problem");
        problem.setStyle("-fx-text-fill: #a40000;");
        problem.setWrapText(true);
        Button create = new Button("New"), copy = new Button("Copy"), rename = new Button("Rename"), delete = new Button("Delete");
        create.setId("profiles-new");
        copy.setId("profiles-copy");
        rename.setId("profiles-rename");
        delete.setId("profiles-delete");
        // Default is the configuration folder itself: it can be copied, not renamed or deleted (as in Wireshark).
        var isDefault = list.getSelectionModel().selectedItemProperty().map(Profiles.DEFAULT::equals).orElse(true);
        rename.disableProperty().bind(isDefault);
        delete.disableProperty().bind(isDefault);
        create.setOnAction(e -> done(w, list, problem, name, name.getText(), profiles.create(name.getText())));
        copy.setOnAction(e -> {
            String from = list.getSelectionModel().getSelectedItem();
            done(w, list, problem, name, name.getText(), profiles.copy(from == null ? Profiles.DEFAULT : from, name.getText()));
        });
        rename.setOnAction(e -> {
            String from = list.getSelectionModel().getSelectedItem(), was = profiles.current();
            String why = profiles.rename(from, name.getText());
            done(w, list, problem, name, name.getText(), why);
            // The current profile renamed: the window's stores now live in the renamed folder.
            if (why == null && from.equals(was)) report(w, w.useProfile(profiles.current()));
        });
        delete.setOnAction(e -> {
            String gone = list.getSelectionModel().getSelectedItem(), was = profiles.current();
            String why = profiles.delete(gone);
            done(w, list, problem, name, Profiles.DEFAULT, why);
            if (why == null && gone.equals(was)) report(w, w.useProfile(Profiles.DEFAULT));
        });
        Label note = new Label("New, Copy, Rename and Delete change the profiles' folders under " + profiles.root()
                + " at once; OK switches to the selected profile.");
        note.setWrapText(true);
        VBox content = new VBox(8, list, new HBox(6, name, create, copy, rename, delete), problem, note);
        content.setPadding(new Insets(10));
        content.setPrefWidth(560);

        Dialog<ButtonType> d = new Dialog<>();
        d.initOwner(w.stage());
        d.setTitle("Configuration Profiles");
        d.setHeaderText(null);
        d.getDialogPane().setContent(content);
        d.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        d.getDialogPane().lookupButton(ButtonType.OK).setId("profiles-ok");
        d.setOnHidden(e -> {
            String chosen = list.getSelectionModel().getSelectedItem();
            if (d.getResult() == ButtonType.OK && chosen != null && !chosen.equals(profiles.current())) report(w, w.useProfile(chosen));
        });
        return d;
    }

    /** After an action: its problem shown (nothing changed), or the list read again with select chosen. */
    private static void done(MainWindow w, ListView<String> list, Label problem, TextField name, String select, String why) {
        problem.setText(why == null ? "" : why);
        if (why != null) return;
        list.getItems().setAll(w.profiles().list());
        list.getSelectionModel().select(select);
        name.clear();
    }
}

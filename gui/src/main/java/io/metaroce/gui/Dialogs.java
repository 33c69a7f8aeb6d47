package io.metaroce.gui;

import javafx.scene.control.Alert;
import javafx.stage.Window;

/** Message dialogs owned by the main window. */
final class Dialogs {
    private Dialogs() { }

    static void error(Window owner, String title, String message) {
        Alert a = new Alert(Alert.AlertType.ERROR, message);
        a.setTitle(title);
        a.setHeaderText(null);
        if (owner != null) a.initOwner(owner);
        a.show();
    }
}

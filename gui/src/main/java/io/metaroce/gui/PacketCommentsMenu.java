package io.metaroce.gui;

import java.util.List;
import java.util.Optional;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCombination;

/**
 * Wireshark's Edit > Packet Comments (and the packet list's context menu): Add New Comment... (Ctrl+Alt+C) to the
 * selected packet, Edit and Delete each of its comments, Delete All Packet Comments (of the capture, or of the
 * displayed packets). The comments live in the {@link GuiContext} ({@link PacketComments}); the details tree, the
 * {@code frame.comment} filter, Expert Info and Capture File Properties follow them, and File > Save writes them.
 * The comment editor is replaceable (tests answer it).
 */
final class PacketCommentsMenu {
    /** Edits a comment's text: the text shown first ("" for a new one); the result, or null when cancelled. */
    interface Editor {
        String edit(String title, String text);
    }

    private final GuiContext ctx;
    private Editor editor = this::dialog;

    PacketCommentsMenu(GuiContext ctx) { this.ctx = ctx; }

    void setEditor(Editor e) { editor = e; }

    /** A Packet Comments submenu (one for the Edit menu, one for the packet list's context menu: ids with prefix). */
    Menu menu(String idPrefix) {
        Menu m = new Menu("Packet Comments");
        m.setId(idPrefix + "packet-comments");
        // One Add item for good (its accelerator stays registered); the per-comment items are the selected packet's,
        // built again when the selection or the comments change.
        MenuItem add = new MenuItem("Add New Comment...");
        add.setId(idPrefix + "comment-add");
        if (idPrefix.isEmpty()) add.setAccelerator(KeyCombination.keyCombination("Shortcut+Alt+C"));
        add.setOnAction(e -> add());
        fill(m, add, idPrefix);
        ctx.selectedFrameProperty().addListener((o, a, b) -> fill(m, add, idPrefix));
        ctx.commentsProperty().addListener((o, a, b) -> fill(m, add, idPrefix));
        m.disableProperty().bind(ctx.captureProperty().isNull());
        return m;
    }

    private void fill(Menu m, MenuItem add, String idPrefix) {
        int frame = ctx.selectedFrame();
        add.setDisable(frame == 0);
        m.getItems().setAll(add);
        List<String> comments = ctx.comments(frame);
        for (int i = 0; i < comments.size(); i++) {
            int index = i;
            String shown = abbreviate(comments.get(i));
            MenuItem edit = new MenuItem("Edit \"" + shown + "\"...");
            edit.setId(idPrefix + "comment-edit-" + i);
            edit.setOnAction(e -> edit(index));
            MenuItem delete = new MenuItem("Delete \"" + shown + "\"");
            delete.setId(idPrefix + "comment-delete-" + i);
            delete.setOnAction(e -> ctx.deleteComment(ctx.selectedFrame(), index));
            m.getItems().addAll(edit, delete);
        }
        MenuItem all = new MenuItem("Delete All Packet Comments");
        all.setId(idPrefix + "comment-delete-all");
        all.setOnAction(e -> ctx.deleteAllComments(false));
        MenuItem displayed = new MenuItem("Delete Comments of Displayed Packets");
        displayed.setId(idPrefix + "comment-delete-displayed");
        displayed.setOnAction(e -> ctx.deleteAllComments(true));
        m.getItems().addAll(new SeparatorMenuItem(), all, displayed);
    }

    /** Add New Comment...: the editor's text, when not blank, becomes the selected packet's last comment. */
    void add() {
        int frame = ctx.selectedFrame();
        if (frame == 0) return;
        String text = editor.edit("Packet " + frame + ": Add New Comment", "");
        if (text != null && !text.isBlank()) ctx.addComment(frame, text);
    }

    /** Edits the selected packet's comment i; a blank text deletes it (Wireshark keeps no empty comment). */
    void edit(int i) {
        int frame = ctx.selectedFrame();
        List<String> comments = ctx.comments(frame);
        if (i < 0 || i >= comments.size()) return;
        String text = editor.edit("Packet " + frame + ": Edit Comment", comments.get(i));
        if (text == null) return;
        if (text.isBlank()) ctx.deleteComment(frame, i);
        else ctx.editComment(frame, i, text);
    }

    private static String abbreviate(String s) {
        String line = s.strip().replace('\n', ' ');
        return line.length() <= 40 ? line : line.substring(0, 39) + "\u2026";
    }

    private String dialog(String title, String text) {
        Dialog<String> d = new Dialog<>();
        d.initOwner(ctx.stage());
        d.setTitle(title);
        TextArea area = new TextArea(text);
        area.setId("comment-text");
        area.setPrefRowCount(6);
        area.setWrapText(true);
        d.getDialogPane().setContent(area);
        d.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        d.setResultConverter(b -> b == ButtonType.OK ? area.getText() : null);
        javafx.application.Platform.runLater(area::requestFocus);
        Optional<String> r = d.showAndWait();
        return r.orElse(null);
    }
}

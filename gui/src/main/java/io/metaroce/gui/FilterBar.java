package io.metaroce.gui;

import io.metaroce.dissector.FieldCatalog;
import io.metaroce.filter.FilterException;
import io.metaroce.protocol.FieldDef;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Spec;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * The display filter bar: green while the text compiles, red with the error's column when it does not (checked as
 * you type, with the same compiler as {@code dissect -Y}), Enter or Apply to filter, a history of applied filters
 * (the drop-down), and completion of field names, Wireshark aliases and protocol names from the catalogue.
 */
final class FilterBar extends HBox {
    static final String VALID = "filter-valid", INVALID = "filter-invalid";
    private static final int MAX_HISTORY = 30, MAX_COMPLETIONS = 15;
    /** Every name a filter can use, sorted: completion candidates. */
    private static final TreeSet<String> NAMES = names();

    private final GuiContext ctx;
    private final ComboBox<String> box = new ComboBox<>();
    private final Label error = new Label();
    private final ContextMenu completions = new ContextMenu();
    private final List<String> history = new ArrayList<>();
    /** Where the saved filters are kept (Wireshark's dfilters format), or null: kept for this window only. */
    private java.nio.file.Path bookmarkFile;
    private final List<FilterBookmarks.Bookmark> bookmarks = new ArrayList<>();
    private final MenuButton bookmarkButton = new MenuButton();
    /** Set while a filter is applied: updating the history must not apply it again through the box's action. */
    private boolean applying;

    FilterBar(GuiContext ctx) { this(ctx, null); }

    /** @param bookmarkFile the dfilters file the saved filters are read from and written to, or null */
    FilterBar(GuiContext ctx, java.nio.file.Path bookmarkFile) {
        this.ctx = ctx;
        this.bookmarkFile = bookmarkFile;
        bookmarks.addAll(FilterBookmarks.read(bookmarkFile));
        bookmarkButton.setId("filter-bookmarks");
        bookmarkButton.setText("\u2630");
        bookmarkButton.setTooltip(new javafx.scene.control.Tooltip("Saved display filters: save this filter, apply a saved one, manage them"));
        bookmarkButton.setOnShowing(e -> bookmarkButton.getItems().setAll(bookmarkItems()));
        bookmarkButton.getItems().setAll(bookmarkItems());
        setId("filter-bar");
        setSpacing(6);
        setPadding(new Insets(4));
        setAlignment(Pos.CENTER_LEFT);
        box.setEditable(true);
        box.setId("filter-field");
        box.setPromptText("Apply a display filter ... (e.g. analysis.retransmission or bth.opcode == 0x11)");
        box.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(box, Priority.ALWAYS);
        error.setId("filter-error");
        error.setStyle("-fx-text-fill: #a40000;");
        Button apply = new Button("Apply");
        apply.setId("filter-apply");
        apply.setOnAction(e -> apply());
        Button clear = new Button("Clear");
        clear.setId("filter-clear");
        clear.setOnAction(e -> {
            editor().setText("");
            apply();
        });
        getChildren().addAll(bookmarkButton, new Label("Filter:"), box, apply, clear, error);
        editor().textProperty().addListener((o, a, text) -> {
            check(text);
            // After this change the caret moves: offer completions for the word it ends up after.
            javafx.application.Platform.runLater(() -> complete(editor().getText()));
        });
        // While completions show, the popup sees the keys first (typed characters still reach the bar): Enter applies
        // the filter as typed (a completion is taken with the mouse, or the arrow keys and Space), Escape closes it.
        completions.addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.ENTER) {
                e.consume();
                apply();
            } else if (e.getCode() == KeyCode.ESCAPE) {
                e.consume();
                completions.hide();
            }
        });
        // Enter reaches the bar as the combo box's action (its skin takes the key); picking a history entry too.
        box.setOnAction(e -> {
            if (applying) return;
            if (box.getValue() != null && !box.getValue().equals(editor().getText())) editor().setText(box.getValue());
            apply();
        });
        ctx.appliedFilterProperty().addListener((o, a, f) -> {
            if (!editor().getText().equals(f)) editor().setText(f);
        });
        check("");
    }

    TextField editor() { return box.getEditor(); }

    ContextMenu completions() { return completions; }

    List<String> history() { return history; }

    String errorText() { return error.getText(); }

    /** Puts text in the bar (prepare as filter); apply it with {@link #apply()}. */
    void prepare(String text) {
        editor().setText(text);
        editor().positionCaret(text.length());
        editor().requestFocus();
    }

    /** Applies the text in the bar; a filter that does not compile stays red and changes nothing. */
    void apply() {
        if (applying) return;
        applying = true;
        try {
            applyText();
        } finally {
            applying = false;
        }
    }

    private void applyText() {
        completions.hide();
        String text = editor().getText() == null ? "" : editor().getText().strip();
        FilterException e = ctx.applyFilter(text);
        if (e != null) {
            showError(e);
            return;
        }
        if (!text.isEmpty()) {
            history.remove(text);
            history.addFirst(text);
            while (history.size() > MAX_HISTORY) history.removeLast();
            box.getItems().setAll(history);
        }
    }

    private void check(String text) {
        getStyleClass().removeAll(VALID, INVALID);
        String style;
        if (text == null || text.isBlank()) {
            style = "";
            error.setText("");
        } else {
            try {
                GuiContext.compile(text);
                getStyleClass().add(VALID);
                style = "-fx-control-inner-background: #afffaf;";
                error.setText("");
            } catch (FilterException e) {
                getStyleClass().add(INVALID);
                style = "-fx-control-inner-background: #ffafaf;";
                showError(e);
            }
        }
        editor().setStyle(style);
    }

    private void showError(FilterException e) {
        error.setText("column " + e.column() + ": " + e.getMessage());
    }

    // ------------------------------------------------------------------ bookmarks (saved filters)

    List<FilterBookmarks.Bookmark> bookmarks() { return List.copyOf(bookmarks); }

    MenuButton bookmarkButton() { return bookmarkButton; }

    /** The bookmark button's menu: save or remove the filter in the bar, the saved filters (click applies), manage. */
    List<MenuItem> bookmarkItems() {
        String text = editor().getText() == null ? "" : editor().getText().strip();
        MenuItem save = new MenuItem("Save this filter");
        save.setId("bookmark-save");
        save.setDisable(text.isEmpty() || DisplayFiltersDialog.check(text) != null);
        save.setOnAction(e -> askSave(text));
        MenuItem remove = new MenuItem("Remove this filter");
        remove.setId("bookmark-remove");
        remove.setDisable(indexOfFilter(text) < 0);
        remove.setOnAction(e -> removeBookmark(text));
        List<MenuItem> out = new ArrayList<>(List.of(save, remove, new javafx.scene.control.SeparatorMenuItem()));
        for (FilterBookmarks.Bookmark b : bookmarks) {
            MenuItem mi = new MenuItem(b.name() + ": " + b.filter());
            mi.setMnemonicParsing(false);
            mi.setOnAction(e -> {
                editor().setText(b.filter());
                apply();
            });
            out.add(mi);
        }
        MenuItem manage = new MenuItem("Manage Display Filters...");
        manage.setId("bookmark-manage");
        manage.setOnAction(e -> manage());
        out.add(new javafx.scene.control.SeparatorMenuItem());
        out.add(manage);
        return out;
    }

    private void askSave(String filter) {
        javafx.scene.control.TextInputDialog d = new javafx.scene.control.TextInputDialog(filter);
        if (getScene() != null) d.initOwner(getScene().getWindow());
        d.setTitle("Save this filter");
        d.setHeaderText(null);
        d.setContentText("Name:");
        d.showAndWait().ifPresent(name -> {
            String err = saveBookmark(name, filter);
            if (err != null) ctx.error(err);
        });
    }

    /** Saves filter under name (replacing a saved filter of that name); an error message when it cannot. */
    String saveBookmark(String name, String filter) {
        String n = name == null ? "" : name.strip(), f = filter == null ? "" : filter.strip();
        if (n.isEmpty()) return "A saved filter needs a name";
        String err = DisplayFiltersDialog.check(f);
        if (err != null) return "The filter cannot be saved: " + err;
        List<FilterBookmarks.Bookmark> next = new ArrayList<>(bookmarks);
        next.removeIf(b -> b.name().equals(n));
        next.add(new FilterBookmarks.Bookmark(n, f));
        return setBookmarks(next);
    }

    /** Removes the saved filters whose filter is text; false when none is. */
    boolean removeBookmark(String filter) {
        if (indexOfFilter(filter) < 0) return false;
        List<FilterBookmarks.Bookmark> next = new ArrayList<>(bookmarks);
        next.removeIf(b -> b.filter().equals(filter.strip()));
        String err = setBookmarks(next);
        if (err != null) ctx.error(err);
        return true;
    }

    /** Replaces the saved filters and writes them to the file; an error message when it cannot be written. */
    String setBookmarks(List<FilterBookmarks.Bookmark> next) {
        bookmarks.clear();
        bookmarks.addAll(next);
        bookmarkButton.getItems().setAll(bookmarkItems());
        if (bookmarkFile == null) return null;
        try {
            FilterBookmarks.write(bookmarkFile, bookmarks);
            return null;
        } catch (java.io.IOException | RuntimeException e) {
            return "Cannot save the display filters to " + bookmarkFile + ": " + e.getMessage();
        }
    }

    /** Another configuration profile's saved filters: read from its dfilters file, kept there from now on. */
    void useBookmarkFile(java.nio.file.Path file) {
        bookmarkFile = file;
        bookmarks.clear();
        bookmarks.addAll(FilterBookmarks.read(file));
        bookmarkButton.getItems().setAll(bookmarkItems());
    }

    /** Analyze > Display Filters...: the dialog over the saved filters. */
    void manage() {
        DisplayFiltersDialog.create(getScene() == null ? null : getScene().getWindow(), bookmarks, next -> {
            String err = setBookmarks(next);
            if (err != null) ctx.error(err);
        }).show();
    }

    private int indexOfFilter(String filter) {
        String f = filter == null ? "" : filter.strip();
        for (int i = 0; i < bookmarks.size(); i++) if (!f.isEmpty() && bookmarks.get(i).filter().equals(f)) return i;
        return -1;
    }

    /** Offers the names that start with the word being typed. */
    private void complete(String text) {
        completions.getItems().clear();
        if (text == null || !editor().isFocused()) {
            completions.hide();
            return;
        }
        int end = editor().getCaretPosition() > 0 ? Math.min(text.length(), editor().getCaretPosition()) : text.length();
        int start = end;
        while (start > 0 && isNameChar(text.charAt(start - 1))) start--;
        String word = text.substring(start, end);
        if (word.length() < 2) {
            completions.hide();
            return;
        }
        List<String> hits = candidates(word);
        if (hits.isEmpty() || hits.size() == 1 && hits.getFirst().equals(word)) {
            completions.hide();
            return;
        }
        int from = start;
        for (String h : hits) {
            MenuItem mi = new MenuItem(h);
            mi.setOnAction(e -> {
                String t = editor().getText();
                String next = t.substring(0, from) + h + t.substring(Math.min(t.length(), end));
                editor().setText(next);
                editor().positionCaret(from + h.length());
            });
            completions.getItems().add(mi);
        }
        if (getScene() != null && getScene().getWindow() != null && getScene().getWindow().isShowing())
            completions.show(editor(), javafx.geometry.Side.BOTTOM, 0, 0);
    }

    /** Catalogue names and aliases starting with prefix, the first {@value #MAX_COMPLETIONS}. */
    static List<String> candidates(String prefix) {
        List<String> out = new ArrayList<>();
        for (String n : NAMES.tailSet(prefix)) {
            if (!n.startsWith(prefix) || out.size() == MAX_COMPLETIONS) break;
            out.add(n);
        }
        return out;
    }

    private static boolean isNameChar(char c) { return Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-'; }

    private static TreeSet<String> names() {
        TreeSet<String> s = new TreeSet<>();
        for (FieldDef f : FieldCatalog.get().fields()) {
            s.add(f.name());
            s.addAll(f.aliases());
        }
        for (HeaderDef h : Spec.HEADERS) s.add(h.id());
        s.addAll(Spec.PROTOCOL_ALIASES.keySet());
        s.addAll(GuiFields.extraNames());
        return s;
    }
}

package io.metaroce.gui;

/**
 * A window the main window offers in its Statistics or Graphs menu (see {@link GuiContext} on how to attach
 * one). Implementations are stateless factories: {@link #open} builds a new window each time (or brings an open
 * one to the front).
 */
public interface GuiWindow {
    /** Which menu lists the window. */
    enum Place { STATISTICS, GRAPHS }

    Place place();

    /** The menu item's text, e.g. "Expert Info". */
    String title();

    /** Builds and shows the window for the capture open in ctx (called on the JavaFX thread). */
    void open(GuiContext ctx);
}

package io.metaroce.gui;

/**
 * Prism settings the GUI runs with; JavaFX reads them once, when its toolkit starts, so {@link #beforeToolkitStart}
 * must run before that (GuiMain does; so do the benchmarks and the test fixtures, so that they measure and test
 * what users run). A setting given on the command line ({@code -Dprism...}) wins.
 *
 * <p><b>No region background cache.</b> Prism draws a region whose background has more than one fill (Modena's
 * table rows, the table, tree and scroll panes: a border colour, then the inner colour, inset) by rasterising it
 * once into a small texture and stretching that texture's slices over the region every frame. On a GPU that is a
 * textured quad; in the software pipeline (Xvfb, remote desktops, VMs without a GPU) it is a per-pixel texture
 * lookup with interpolation over the whole region, where drawing the fills directly is a few solid rectangle fills.
 * perf on the render thread while jumping through 1 M frames: 67 % of its CPU in drawing those cached backgrounds;
 * without the cache, render CPU per jump went from about 50 ms to about 10 ms. The pixels differ only in two
 * one-pixel lines (the table's focus ring and the tree's bottom edge, anti-aliasing of fractional insets).
 */
public final class RenderingSetup {
    static final String NO_REGION_CACHE = "prism.disableRegionCaching";

    private RenderingSetup() { }

    /** Applies the settings (each unless set already); call before the JavaFX toolkit starts. */
    public static void beforeToolkitStart() {
        if (System.getProperty(NO_REGION_CACHE) == null) System.setProperty(NO_REGION_CACHE, "true");
    }
}

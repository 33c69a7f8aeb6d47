package io.metaroce.gui.graph;

/**
 * Maps a value in [0, max] to an ARGB colour through a 256-entry table (the heatmap fills one int per cell), with
 * one colour for cells that have nothing to measure. Loss and CE run from dark green (none) through yellow to
 * red; RTT from dark blue (fast) to yellow (slow), so "hot" means "bad" in every mode.
 */
public final class ColorScale {
    /** Cells without a measurement: a neutral grey, distinct from every colour of the scales. */
    public static final int EMPTY = 0xFF3A3A3A;
    private final int[] table = new int[256];

    private ColorScale(int[][] stops) {
        for (int i = 0; i < 256; i++) {
            double t = i / 255.0 * (stops.length - 1);
            int k = Math.min(stops.length - 2, (int) t);
            double f = t - k;
            int r = (int) Math.round(stops[k][0] + f * (stops[k + 1][0] - stops[k][0]));
            int g = (int) Math.round(stops[k][1] + f * (stops[k + 1][1] - stops[k][1]));
            int b = (int) Math.round(stops[k][2] + f * (stops[k + 1][2] - stops[k][2]));
            table[i] = 0xFF000000 | r << 16 | g << 8 | b;
        }
    }

    public static ColorScale of(HeatMetric m) {
        return m == HeatMetric.RTT
                ? new ColorScale(new int[][] {{20, 30, 90}, {40, 110, 170}, {90, 190, 120}, {250, 230, 60}})
                : new ColorScale(new int[][] {{20, 90, 40}, {120, 190, 60}, {250, 220, 50}, {240, 120, 30}, {200, 20, 30}});
    }

    /** The colour of value v on a scale from 0 to max; NaN gives {@link #EMPTY}. */
    public int argb(double v, double max) {
        if (Double.isNaN(v)) return EMPTY;
        if (max <= 0) return table[0];
        int i = (int) Math.round(Math.max(0, Math.min(1, v / max)) * 255);
        return table[i];
    }

    /** The colour at a fraction of the scale (for the legend bar). */
    public int at(double fraction) { return table[(int) Math.round(Math.max(0, Math.min(1, fraction)) * 255)]; }
}

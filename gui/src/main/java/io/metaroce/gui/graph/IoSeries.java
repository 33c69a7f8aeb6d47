package io.metaroce.gui.graph;

/**
 * One line of the IO graph: a name, the display filter choosing its frames (the CLI's language, empty for all),
 * what is counted per interval, and its colour (ARGB).
 */
public record IoSeries(String name, String filter, Metric metric, int argb) {
    public enum Metric {
        PACKETS("packets/interval"),
        BYTES("bytes/interval"),
        /** Unique payload (not retransmitted, not duplicated) in bits per second over the interval. */
        GOODPUT("goodput bit/s");

        private final String unit;

        Metric(String unit) { this.unit = unit; }

        public String unit() { return unit; }
    }

    public IoSeries {
        filter = filter == null ? "" : filter.strip();
    }
}

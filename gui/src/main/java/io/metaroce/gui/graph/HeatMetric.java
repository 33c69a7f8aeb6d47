package io.metaroce.gui.graph;

/** What the path heatmap colours a cell by. */
public enum HeatMetric {
    /** Packets first sent on the path in the interval that the sender had to send again (not spurious copies). */
    LOSS("loss rate"),
    /** CE-marked data packets over the path's data packets in the interval. */
    CE("CE fraction"),
    /** Mean acknowledgement round trip of the path's data packets sent in the interval. */
    RTT("RTT");

    private final String label;

    HeatMetric(String label) { this.label = label; }

    public String label() { return label; }
}

package io.metaroce.gui.graph;

/**
 * What a marker on the PSN graph stands for, with the shape and colour that tell it apart (colour alone is not
 * enough for every reader, so each kind also has its own shape). Colours are ARGB.
 */
public enum MarkerKind {
    RETRANSMISSION("Retransmission", Shape.SQUARE, 0xFFD62728),
    SPURIOUS("Spurious retransmission", Shape.DIAMOND, 0xFFFF7F0E),
    NAK("NAK", Shape.TRIANGLE_DOWN, 0xFF9467BD),
    NACK("MR-NACK", Shape.TRIANGLE_UP, 0xFFE377C2),
    SACK("MR-SACK", Shape.PLUS, 0xFF2CA02C),
    ACK("ACK", Shape.TICK, 0xFF8C8C8C),
    CNP("CNP", Shape.CROSS, 0xFF17BECF),
    CE("CE mark", Shape.CIRCLE, 0xFFBCBD22);

    public enum Shape { SQUARE, DIAMOND, TRIANGLE_DOWN, TRIANGLE_UP, PLUS, TICK, CROSS, CIRCLE }

    private final String label;
    private final Shape shape;
    private final int argb;

    MarkerKind(String label, Shape shape, int argb) {
        this.label = label;
        this.shape = shape;
        this.argb = argb;
    }

    public String label() { return label; }

    public Shape shape() { return shape; }

    public int argb() { return argb; }
}

package io.metaroce.analysis;

/** Where a flow's packets are seen (§11): at their sender's host, at their receiver's host, or mid-path. */
public enum View {
    SENDER("S"), RECEIVER("R"), MIRROR("M");

    private final String letter;

    View(String letter) { this.letter = letter; }

    public String letter() { return letter; }

    public String label() { return name().toLowerCase(); }
}

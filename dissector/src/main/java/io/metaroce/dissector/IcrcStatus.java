package io.metaroce.dissector;

/** Verdict of the ICRC check (§8). NONE: the frame carries no RoCE transport packet. */
public enum IcrcStatus {
    GOOD, BAD, UNCHECKED, NONE;

    /** Made once: the JSON and fields output ask for it on every frame. */
    private final String label = name().toLowerCase(java.util.Locale.ROOT);

    public String label() { return label; }
}

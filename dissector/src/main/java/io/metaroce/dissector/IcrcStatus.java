package io.metaroce.dissector;

/** Verdict of the ICRC check (§8). NONE: the frame carries no RoCE transport packet. */
public enum IcrcStatus {
    GOOD, BAD, UNCHECKED, NONE;

    public String label() { return name().toLowerCase(java.util.Locale.ROOT); }
}

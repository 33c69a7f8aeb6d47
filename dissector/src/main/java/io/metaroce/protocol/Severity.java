package io.metaroce.protocol;

/** Severity of an expert item or a rule finding, lowest first. */
public enum Severity {
    NOTE, WARN, ERROR;

    public String label() { return name().toLowerCase(java.util.Locale.ROOT); }
}

package io.metaroce.protocol;

/** A conformance rule of the spec's section 11. */
public record RuleDef(String id, Severity severity, String section, String taps, String text) {}

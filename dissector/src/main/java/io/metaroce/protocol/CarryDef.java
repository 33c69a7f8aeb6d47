package io.metaroce.protocol;

/**
 * A header carried inside a bytes field (CM private data): header {@code header} at byte {@code at} of
 * field {@code field}, present only when field {@code whenField} (of the carried header) equals
 * {@code whenEquals} (whenField -1: always).
 */
public record CarryDef(int field, int header, int at, int whenField, long whenEquals) {}

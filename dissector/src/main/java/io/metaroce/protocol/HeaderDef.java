package io.metaroce.protocol;

/**
 * A header of the catalogue. Its fields are {@code Spec.FIELDS[firstField .. firstField + fieldCount)}.
 * Pseudo headers (frame, payload, icrc) have no wire layout: their fields are computed.
 */
public record HeaderDef(int index, String id, String title, String origId, String section, String doc, int size,
                        boolean pseudo, int firstField, int fieldCount) {}

package io.metaroce.protocol;

import io.metaroce.dissector.ExpertItem;

/**
 * One kind of expert item (a row of Wireshark's ei[] table), generated from the spec's {@code expert} table into
 * {@link Expert}: a stable id ({@code icrc.bad}, {@code ip.total_length_exceeds_frame}), its group and severity,
 * a one-line summary, and the id of the §11 rule the item is evidence for (null when none).
 */
public record ExpertDef(int index, String id, ExpertItem.Group group, Severity severity, String summary, String rule) {}

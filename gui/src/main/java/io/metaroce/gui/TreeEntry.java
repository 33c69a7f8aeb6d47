package io.metaroce.gui;

import io.metaroce.dissector.ExpertItem;
import io.metaroce.dissector.FieldNode;

/**
 * One line of the field tree: its text, the {@link FieldNode} it shows (null for expert lines and summary lines),
 * the bytes it covers (for the hex pane), its tooltip (the spec's doc text) and the display filter that selects
 * frames with the same value (null when there is none), and the frame its value refers to (Go to Linked Packet;
 * 0: the line links nowhere).
 */
record TreeEntry(String text, FieldNode node, ExpertItem expert, int offset, int length, String tooltip, String filter, int link) {
    TreeEntry(String text, FieldNode node, ExpertItem expert, int offset, int length, String tooltip, String filter) {
        this(text, node, expert, offset, length, tooltip, filter, 0);
    }

    boolean hasBytes() { return offset >= 0 && length > 0; }

    @Override
    public String toString() { return text; }
}

package io.metaroce.gui;

/**
 * One column of the packet list as saved and as the Column Preferences list it: a built-in column (field null,
 * title one of {@link PacketTable#COLUMNS}) or a custom one showing a field; whether it is shown, and its width.
 */
record ColumnSpec(String title, String field, boolean shown, double width) {
    boolean custom() { return field != null; }

    ColumnSpec withShown(boolean s) { return new ColumnSpec(title, field, s, width); }
}

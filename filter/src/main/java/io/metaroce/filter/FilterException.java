package io.metaroce.filter;

/**
 * A display filter that cannot be compiled: a syntax error, an unknown field, a literal that does not
 * fit the field's type, an operator that does not apply to the field.
 */
public final class FilterException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String filterText;
    private final int column;
    private final int length;

    /**
     * @param message    what is wrong, without the filter text
     * @param filterText the whole filter as given to {@link DisplayFilter#compile}
     * @param column     1-based column (character index + 1) of the offending part; may be
     *                   {@code filterText.length() + 1} for "something is missing at the end"
     * @param length     number of characters the offending part spans (at least 1)
     */
    public FilterException(String message, String filterText, int column, int length) {
        super(message);
        this.filterText = filterText == null ? "" : filterText;
        this.column = Math.max(1, column);
        this.length = Math.max(1, length);
    }

    /** 1-based column of the offending part of the filter. */
    public int column() {
        return column;
    }

    /** Number of characters of the offending part (at least 1). */
    public int length() {
        return length;
    }

    /** The filter text the error refers to. */
    public String filterText() {
        return filterText;
    }

    /** The message and where in the filter, on one line: {@code "=" is not a valid operator; ... (column 9)}. */
    public String oneLine() {
        return getMessage() + " (column " + column + ")";
    }

    /**
     * The message, the filter on the next line and a caret line under the offending part, like Wireshark:
     * <pre>
     * "xyz.abc" is not a valid protocol or protocol field
     * xyz.abc == 1
     * ^~~~~~~
     * </pre>
     */
    public String formatted() {
        // Keep the filter on one line so the caret lines up; tabs are kept so widths match.
        String shown = filterText.replace('\r', ' ').replace('\n', ' ');
        StringBuilder sb = new StringBuilder(getMessage().length() + 2 * shown.length() + 8);
        sb.append(getMessage()).append('\n').append(shown).append('\n');
        int start = column - 1;
        for (int i = 0; i < start; i++) {
            sb.append(i < shown.length() && shown.charAt(i) == '\t' ? '\t' : ' ');
        }
        sb.append('^');
        int end = Math.min(start + length, Math.max(shown.length(), start + 1));
        for (int i = start + 1; i < end; i++) {
            sb.append('~');
        }
        return sb.toString();
    }
}

package io.metaroce.index;

/** A query the parser cannot read; {@link #column()} (1-based) is where the problem starts. */
public final class QuerySyntaxException extends IllegalArgumentException {
    private final int column;
    private final String reason;

    public QuerySyntaxException(String reason, int column) {
        super("column " + column + ": " + reason);
        this.reason = reason;
        this.column = column;
    }

    /** The 1-based column of the character where the problem starts. */
    public int column() { return column; }

    /** The message without the column. */
    public String reason() { return reason; }
}

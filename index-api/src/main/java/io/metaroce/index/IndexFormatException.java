package io.metaroce.index;

import java.io.IOException;

/**
 * A directory or collection that is not a flow index of this schema version (empty of a marker, another
 * program's files, or an index written by another version): its message is the one line the user sees.
 */
public final class IndexFormatException extends IOException {
    public IndexFormatException(String message) { super(message); }
}

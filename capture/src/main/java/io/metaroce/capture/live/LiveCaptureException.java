package io.metaroce.capture.live;

import java.io.IOException;
import java.io.Serial;

/** A live capture could not start: its message is one line for the user, its {@link #kind()} says why. */
public final class LiveCaptureException extends IOException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** Why the capture could not start. */
    public enum Kind { PERMISSION, NO_SUCH_INTERFACE, BAD_FILTER, NO_LIBPCAP, FAILED }

    private final Kind kind;

    public LiveCaptureException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}

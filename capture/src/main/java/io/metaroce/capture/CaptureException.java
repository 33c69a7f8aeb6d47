package io.metaroce.capture;

import java.io.IOException;
import java.io.Serial;

/**
 * Thrown by {@link CaptureFiles#open} when a file cannot be read as a capture at all: missing, unreadable,
 * empty, or not a pcap/pcapng file. Damage found <em>inside</em> a capture is never thrown; it is reported
 * through {@link PacketSource#problems()} so that every frame before the damage stays usable.
 */
public final class CaptureException extends IOException {
    @Serial
    private static final long serialVersionUID = 1L;

    public CaptureException(String message) {
        super(message);
    }

    public CaptureException(String message, Throwable cause) {
        super(message, cause);
    }
}

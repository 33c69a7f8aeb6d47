package io.metaroce.capture;

/**
 * Damage or an inconsistency found while reading a capture.
 *
 * @param offset  byte offset in the file where the problem was found (start of the damaged record or block)
 * @param message human-readable description that also names the offset, so it can be printed on its own
 */
public record CaptureProblem(long offset, String message) {
    @Override
    public String toString() {
        return message;
    }
}

package io.metaroce.index;

/**
 * The identity of one indexed capture, stored in each of its documents: a capture is found again by its
 * content hash (a copy elsewhere is the same capture) and replaced when a file at its path changes.
 *
 * @param path the absolute, normalized path it was read from
 * @param size its size in bytes when indexed
 * @param hash its content hash ({@link CaptureIdentity#contentHash}): CRC-32C and CRC-32, 16 lowercase hex digits,
 *             or the XXH3-128 (32 digits) or SHA-256 (64) an index written before holds
 * @param format {@code pcap} or {@code pcapng}
 * @param tap where the analysis placed the tap ({@code mirror}, {@code host:IP})
 * @param firstNs time of its first frame, null when it had none
 * @param lastNs time of its last frame, null when it had none
 * @param indexedAtNs when it was indexed (nanoseconds since the epoch)
 */
public record IndexedCapture(String path, long size, String hash, String format, String tap, Long firstNs, Long lastNs,
                             long indexedAtNs) {
    public IndexedCapture {
        if (!CaptureIdentity.isKnownHash(hash))
            throw new IllegalArgumentException("capture hash must be " + CaptureIdentity.HASH_DIGITS + ", " + CaptureIdentity.XXH3_DIGITS
                    + " or " + CaptureIdentity.SHA256_DIGITS + " hex digits: " + hash);
    }

    /** The time now as {@link #indexedAtNs} counts it: nanoseconds since the epoch. */
    public static long nowNs() {
        java.time.Instant t = java.time.Instant.now();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}

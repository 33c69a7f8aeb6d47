package io.metaroce.index;

/**
 * The identity of one indexed capture, stored in each of its documents: a capture is found again by its
 * content hash (a copy elsewhere is the same capture) and replaced when a file at its path changes.
 *
 * @param path the absolute, normalized path it was read from
 * @param size its size in bytes when indexed
 * @param hash the SHA-256 of its content, 64 lowercase hex digits
 * @param format {@code pcap} or {@code pcapng}
 * @param tap where the analysis placed the tap ({@code mirror}, {@code host:IP})
 * @param firstNs time of its first frame, null when it had none
 * @param lastNs time of its last frame, null when it had none
 * @param indexedAtNs when it was indexed (nanoseconds since the epoch)
 */
public record IndexedCapture(String path, long size, String hash, String format, String tap, Long firstNs, Long lastNs,
                             long indexedAtNs) {
    public IndexedCapture {
        if (hash == null || !hash.matches("[0-9a-f]{64}")) throw new IllegalArgumentException("capture hash must be 64 hex digits: " + hash);
    }
}

package io.metaroce.capture;

import java.util.List;

/**
 * A snapshot of what a {@link PacketSource} has learnt about the file so far. Taken fresh on every call to
 * {@link PacketSource#stats()}; values grow as more of the file is read.
 *
 * @param format               container format
 * @param framesRead           frames returned so far
 * @param sectionCount         pcapng sections seen (1 for pcap)
 * @param interfaceCount       interfaces seen across all sections (may exceed {@code interfaces().size()})
 * @param interfaces           interfaces in file order; capped at {@link #MAX_LISTED_INTERFACES} so that a
 *                             hostile file cannot make this list grow without bound
 * @param fileComments         shb_comment options of all sections (capped likewise)
 * @param captureApplication   shb_userappl of the first section, or null
 * @param problemCount         problems found so far (the list in {@link PacketSource#problems()} may be capped)
 */
public record CaptureStats(
        CaptureFormat format,
        long framesRead,
        int sectionCount,
        long interfaceCount,
        List<CaptureInterface> interfaces,
        List<String> fileComments,
        String captureApplication,
        long problemCount) {

    /** Upper bound on {@link #interfaces()} and {@link #fileComments()} entries kept. */
    public static final int MAX_LISTED_INTERFACES = 4096;

    public CaptureStats {
        interfaces = List.copyOf(interfaces);
        fileComments = List.copyOf(fileComments);
    }

    /** Sum of isb_ifdrop over listed interfaces that reported it; -1 if none did. */
    public long totalIfDropped() {
        return sumKnown(true);
    }

    /** Sum of isb_osdrop over listed interfaces that reported it; -1 if none did. */
    public long totalOsDropped() {
        return sumKnown(false);
    }

    private long sumKnown(boolean ifDrop) {
        long sum = -1;
        for (CaptureInterface i : interfaces) {
            long v = ifDrop ? i.ifDropped() : i.osDropped();
            if (v >= 0) {
                sum = (sum < 0 ? 0 : sum) + v;
            }
        }
        return sum;
    }
}

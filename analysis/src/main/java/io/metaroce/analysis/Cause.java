package io.metaroce.analysis;

/** Why a PSN was sent again (§12). */
public enum Cause {
    /** After a RoCEv2 NAK PSN sequence error. */
    NAK,
    /** After an MR-NACK (reason loss or ICRC error). */
    NACK,
    /** MetaRoCE: inferred from a gap in an MR-SACK. */
    SACK,
    /** No signal before it: the sender's timer (or a READ re-issued after missing responses). */
    TIMEOUT,
    /** After an RNR NAK or an MR-NACK reason 0x11. */
    RNR;

    public String label() { return name().toLowerCase(); }

    public static Cause parse(String s) {
        return s == null ? null : valueOf(s.trim().toUpperCase());
    }
}

package io.metaroce.analysis;

/** Types of analysis events (one object per notable frame and finding). */
public enum EventType {
    RETRANSMISSION, SPURIOUS_RETRANSMISSION, TIMEOUT_RETRANSMISSION, NAK, RNR_NAK, OUT_OF_ORDER, DUPLICATE, PSN_GAP,
    ACK_OF_UNSEEN, CNP, CE_MARK, CE_WITHOUT_CNP, CREDIT_STALL, PATH_DOWN,
    /** A response sent again because its request was re-issued (not a retransmission: §12 counts requests). */
    REPEATED_RESPONSE,
    /** A request captured after the acknowledgement covering it: the capture reordered the two directions. */
    ACK_BEFORE_REQUEST;

    public String label() { return name().toLowerCase(); }
}

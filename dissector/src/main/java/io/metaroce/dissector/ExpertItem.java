package io.metaroce.dissector;

import io.metaroce.protocol.Severity;

/**
 * Something wrong or notable about a frame (Wireshark's expert info): a severity, a group saying what
 * kind of problem it is, and a message a person can act on.
 */
public record ExpertItem(Severity severity, Group group, String message) {

    /** Wireshark's expert groups, reduced to what a RoCE dissector meets. */
    public enum Group { MALFORMED, CHECKSUM, PROTOCOL, UNDECODED, SEQUENCE, CAPTURE }
}

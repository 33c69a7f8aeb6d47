package io.metaroce.analysis.diagnosis;

import io.metaroce.analysis.FrameFacts;
import io.metaroce.protocol.OpcodeDef;

/** Packet kinds of the QoS audit: data, ACK, NAK (and RNR NAK), CNP, zero-length requests, control. */
final class Kinds {
    static final int DATA = 0, ACK = 1, NAK = 2, CNP = 3, ZERO_LENGTH = 4, CONTROL = 5;
    static final String[] NAMES = {"data", "ack", "nak", "cnp", "zero-length", "control"};

    private Kinds() {}

    static int of(FrameFacts f) {
        int op = f.opcodeValue;
        if (op == 0x81 || f.hasMrCnp) return CNP;
        OpcodeDef d = f.opcode;
        switch (d.role()) {
            case REQUEST, RESPONSE -> {
                return f.payloadLength == 0 && d.payload() && d.role() == OpcodeDef.Role.REQUEST ? ZERO_LENGTH : DATA;
            }
            case ACK -> {
                return f.hasAeth && f.aethKind != 0 ? NAK : ACK;
            }
            default -> {
                return CONTROL;
            }
        }
    }
}

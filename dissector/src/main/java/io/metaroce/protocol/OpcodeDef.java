package io.metaroce.protocol;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * One opcode as defined under one transport version: name, role, message position and the headers
 * that follow the BTH (and MRTH). sprayChain replaces chain when MRTH.spray is set (tver 1), or is null.
 */
public record OpcodeDef(int code, String id, String label, String transport, String service, Role role, String family,
                        Segment segment, int[] chain, int[] sprayChain, boolean payload, int payloadBytes,
                        String psnRule) {

    public enum Role { REQUEST, RESPONSE, ACK, CONTROL }

    public enum Segment { FIRST, MIDDLE, LAST, ONLY }

    public int[] chain(boolean spray) { return spray && sprayChain != null ? sprayChain : chain; }

    public boolean isFirstOrOnly() { return segment == Segment.FIRST || segment == Segment.ONLY; }

    public boolean isLastOrOnly() { return segment == Segment.LAST || segment == Segment.ONLY; }

    /** A 256-entry list indexed by opcode value, null where the opcode is not defined. */
    public static List<OpcodeDef> table(OpcodeDef... defs) {
        OpcodeDef[] t = new OpcodeDef[256];
        for (OpcodeDef d : defs) t[d.code()] = d;
        return Collections.unmodifiableList(Arrays.asList(t));
    }

    @Override
    public String toString() { return label + " (0x" + Integer.toHexString(code) + ")"; }
}

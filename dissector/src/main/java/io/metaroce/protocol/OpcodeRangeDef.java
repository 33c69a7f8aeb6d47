package io.metaroce.protocol;

/**
 * A range of opcode values that is met in captures but not decoded (CNP class, reserved, vendor). expert: the
 * item a frame with such an opcode gets (its severity is the range's).
 */
public record OpcodeRangeDef(int from, int to, String id, String label, Severity severity, String message,
                             boolean tver0, boolean tver1, ExpertDef expert) {
    public boolean contains(int opcode, int tver) {
        return opcode >= from && opcode <= to && (tver == 0 ? tver0 : tver == 1 ? tver1 : true);
    }
}

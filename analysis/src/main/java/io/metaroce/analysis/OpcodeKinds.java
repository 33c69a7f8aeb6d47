package io.metaroce.analysis;

import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.Spec;
import java.util.List;

/**
 * What the per-frame path asks of an opcode's service and family strings, as bits worked out once per opcode of
 * the spec's tables. The launcher runs analyze with C1 alone, which does not inline {@link String#equals}: a
 * string compare per frame (service "ud", family "read", the control family switch) showed in the profile of the
 * analysis thread. An opcode outside both tables (none today) is classified from its strings each time.
 */
public final class OpcodeKinds {
    /** Service "ud": datagrams, no PSN sequence. */
    public static final int UD = 1;
    /** Family "read": READ request or response. */
    public static final int READ = 1 << 1;
    /** Family "atomic". */
    public static final int ATOMIC = 1 << 2;
    /** The control families {@link AnalysisEngine} dispatches on, in the low bits above the flags. */
    public static final int CNP = 1 << 3, SACK = 2 << 3, NACK = 3 << 3, CREDIT = 4 << 3, PROBE = 5 << 3;
    /** Mask of the control family bits. */
    public static final int CONTROL_MASK = 7 << 3;

    private static final OpcodeDef[] DEFS0 = new OpcodeDef[256], DEFS1 = new OpcodeDef[256];
    private static final int[] KINDS0 = new int[256], KINDS1 = new int[256];

    static {
        fill(Spec.OPCODES_TVER0, DEFS0, KINDS0);
        fill(Spec.OPCODES_TVER1, DEFS1, KINDS1);
    }

    private OpcodeKinds() {}

    private static void fill(List<OpcodeDef> table, OpcodeDef[] defs, int[] kinds) {
        for (int c = 0; c < 256 && c < table.size(); c++) {
            OpcodeDef d = table.get(c);
            if (d == null) continue;
            defs[c] = d;
            kinds[c] = compute(d);
        }
    }

    /** The kind bits of op (not null). */
    public static int of(OpcodeDef op) {
        int c = op.code() & 0xFF;
        if (DEFS0[c] == op) return KINDS0[c];
        if (DEFS1[c] == op) return KINDS1[c];
        return compute(op);
    }

    /** The kind bits of the opcode with this code in the spec's table of transport version tver (0 or 1). */
    static int ofTable(int tver, int code) {
        return tver == 0 ? KINDS0[code] : KINDS1[code];
    }

    /** Service "ud" (datagrams, no PSN sequence). */
    public static boolean isUd(OpcodeDef op) {
        return (of(op) & UD) != 0;
    }

    /** Family "read" (a READ request or response). */
    public static boolean isRead(OpcodeDef op) {
        return (of(op) & READ) != 0;
    }

    static int compute(OpcodeDef op) {
        int k = "ud".equals(op.service()) ? UD : 0;
        String family = op.family();
        if (family == null) return k;
        return k | switch (family) {
            case "read" -> READ;
            case "atomic" -> ATOMIC;
            case "cnp" -> CNP;
            case "sack" -> SACK;
            case "nack" -> NACK;
            case "credit" -> CREDIT;
            case "probe" -> PROBE;
            default -> 0;
        };
    }
}

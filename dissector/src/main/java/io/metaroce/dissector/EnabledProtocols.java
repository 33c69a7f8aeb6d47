package io.metaroce.dissector;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * tshark's {@code --disable-protocol NAME} / {@code --enable-protocol NAME} (Wireshark's Analyze > Enabled
 * Protocols...), the same in every command and in the GUI. Two of our protocols can be switched off, each at a place the
 * dissector passes anyway, so nothing costs more while both are on:
 * <ul>
 * <li>{@code bth} (also {@code roce}, {@code rroce}, {@code infiniband}): no UDP port is RoCE (not 4791, not a -d
 * port), and RoCEv1's GRH is not followed by a BTH: those frames end at UDP (or GRH) with the rest as data, and the
 * analysis sees no RoCE frame and no QP.</li>
 * <li>{@code mrth} (also {@code metaroce}): a BTH with tver 1 is not followed by an MRTH and MetaRoCE's own headers:
 * the frame is a BTH and data (its opcode undecoded). dissect and the GUI only: the analysis and validate read
 * MetaRoCE frames on their own fast path, whose settings this does not reach.</li>
 * </ul>
 * Every other protocol of {@code -G protocols} is part of the frames these two sit in (Ethernet, IP, UDP) or of their
 * headers (RETH, AETH, ...; the ICRC has --no-icrc): switching it off alone would leave no meaning to the rest.
 */
public final class EnabledProtocols {
    /** The switchable protocols' bits in {@link DissectorConfig#disabled()}. */
    public static final int BTH = 1, MRTH = 2;
    public static final List<String> SWITCHABLE = List.of("bth", "mrth");
    public static final String LABEL = "NAME[,NAME...]";
    public static final String DISABLE_HELP = "Disable a protocol's dissection, as tshark (repeatable, or a comma list): "
            + "bth (or roce, infiniband): UDP 4791 and -d ports carry data, no RoCE; mrth (or metaroce): tver 1 frames are "
            + "a BTH and data (dissect only).";
    public static final String ENABLE_HELP = "Enable a protocol --disable-protocol disabled (repeatable, or a comma list).";

    private EnabledProtocols() {}

    /** The protocol a name switches (bth or mrth), or null when it is none of them. */
    public static String canonical(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "bth", "roce", "rroce", "rocev2", "infiniband" -> "bth";
            case "mrth", "metaroce" -> "mrth";
            default -> null;
        };
    }

    /** What a protocol being off means, for the GUI's dialog and the docs. */
    public static String meaning(String protocol) {
        return protocol.equals("bth") ? "RoCE: with it off, UDP 4791 (and Decode As ports) carry data, no QP is analyzed"
                : "MetaRoCE: with it off, tver 1 frames are a BTH and data (no MRTH, no MetaRoCE headers)";
    }

    /**
     * The protocols off after the --disable-protocol and then the --enable-protocol lists (each a name or a comma list;
     * enabling wins, as tshark applies it after). Throws with the line to print after the command's name.
     */
    public static Set<String> disabled(List<String> disable, List<String> enable) {
        Set<String> off = new LinkedHashSet<>();
        for (String n : names(disable, "--disable-protocol")) off.add(n);
        for (String n : names(enable, "--enable-protocol")) off.remove(n);
        return off;
    }

    private static List<String> names(List<String> args, String option) {
        List<String> l = new ArrayList<>();
        if (args == null) return l;
        for (String a : args) {
            for (String n : a.split(",")) {
                if (n.isBlank()) continue;
                String c = canonical(n);
                if (c == null) {
                    throw new IllegalArgumentException(option + " " + n.trim() + ": " + (FieldCatalog.get().protocol(n.trim()) != null
                            ? "cannot be switched off alone here (it carries or is part of RoCE's headers)" : "no such protocol")
                            + "; the protocols that can: bth (roce, infiniband), mrth (metaroce)");
                }
                l.add(c);
            }
        }
        return l;
    }

    /** The bits of {@link DissectorConfig#disabled()} for a set of protocols off. */
    public static int bits(Set<String> off) {
        return (off.contains("bth") ? BTH : 0) | (off.contains("mrth") ? MRTH : 0);
    }

    /** The UDP ports decoded as RoCE with these protocols off: none when bth is. */
    public static Set<Integer> ports(Set<Integer> ports, Set<String> off) {
        return off.contains("bth") ? Set.of() : ports;
    }
}

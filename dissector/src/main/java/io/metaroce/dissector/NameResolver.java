package io.metaroce.dissector;

import java.io.BufferedReader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Wireshark's name resolution for addresses: MAC addresses through {@code ethers} and the vendor prefixes of
 * Wireshark's {@code manuf} and {@code wka} files ({@code Mellanox_12:34:56}, with the /28 and /36 blocks), IPv4 and
 * IPv6 addresses through {@code hosts} files ({@code ADDRESS NAME [ALIAS...]}, {@code #} comments). The files are
 * the user's own: Wireshark's data folder (/usr/share/wireshark, or $WIRESHARK_DATA_DIR) and personal folder
 * (~/.config/wireshark, or $WIRESHARK_CONFIG_DIR), /etc/ethers, and hosts files given with -H. Nothing of
 * Wireshark's is bundled: without those files MAC addresses keep their digits.
 *
 * <p>Resolution happens when an address is printed, never while frames are decoded or analyzed: the tables are
 * read once, and a resolved MAC name is cached per address (at most {@link #CACHE_CAP} of them; beyond, it is
 * computed again, with the same result). Names are looked up as Wireshark 4.0's addr_resolv.c does (ethers first,
 * then the well-known ranges from the longest prefix, then the OUI with the multicast bit cleared), so the
 * columns and {@code eth.src_resolved} read as tshark's. A line a file cannot use is skipped and counted.
 */
public final class NameResolver {
    /** Resolved MAC names kept per address; a capture with more distinct MACs computes the rest each time. */
    public static final int CACHE_CAP = 65_536;
    /** Entries read from all files together; the lines beyond are skipped (and counted) so a huge file cannot exhaust memory. */
    public static final int ENTRY_CAP = 2_000_000;

    /** No resolution: every address as its digits (dissect's default, and -n). */
    public static final NameResolver NONE = new NameResolver(false, false, false);

    private final boolean mac, network, transport;
    private final Map<Long, String> ethers = new HashMap<>();
    private final Map<Long, String> wka = new HashMap<>();
    private final Map<Integer, String> manuf = new HashMap<>();
    private final Map<Integer, String> v4 = new HashMap<>();
    private final Map<String, String> v6 = new HashMap<>();
    /** Where each host name or MAC name came from (for Statistics > Resolved Addresses). */
    private final Map<String, String> origin = new HashMap<>();
    private final ConcurrentHashMap<Long, String> macCache = new ConcurrentHashMap<>();
    private final List<String> warnings = new ArrayList<>();
    private int entries;
    /** The GUI's Statistics > Resolved Addresses: the names given out (address text to name), at most CACHE_CAP each. */
    private volatile boolean recording;
    /**
     * Wireshark's own manuf and wka (some 66,000 lines, half a second to read in a cold JVM) are read at the first MAC
     * lookup, not at the start: most runs print IP addresses only. Null once read (or when there is none).
     */
    private volatile Path deferredData;
    private final ConcurrentHashMap<String, String> usedHosts = new ConcurrentHashMap<>(), usedMacs = new ConcurrentHashMap<>();

    private NameResolver(boolean mac, boolean network, boolean transport) {
        this.mac = mac;
        this.network = network;
        this.transport = transport;
    }

    /** An unreadable file given by the user (-H), with tshark's wording. */
    public static final class UnreadableFile extends IOException {
        public UnreadableFile(String message) { super(message); }
    }

    /**
     * The resolver for tshark's -N letters (m: MAC, n: network, t: transport, and d, N, v, g, s accepted as tshark
     * accepts them), with these hosts files read after the personal one (a later entry wins, as in Wireshark).
     *
     * @param flags -N's letters, or "" for none
     * @param hosts -H files (read whatever the flags, as tshark's -H)
     * @param dataDir Wireshark's global data folder (manuf, wka), or null for none
     * @param configDir Wireshark's personal folder (manuf, ethers, hosts), or null for none
     * @param systemEthers /etc/ethers, or null
     */
    public static NameResolver load(String flags, List<Path> hosts, Path dataDir, Path configDir, Path systemEthers) throws IOException {
        NameResolver r = new NameResolver(flags.indexOf('m') >= 0, flags.indexOf('n') >= 0, flags.indexOf('t') >= 0);
        if (r.mac) {
            r.deferredData = dataDir;
            if (configDir != null) {
                r.readMacs(configDir.resolve("manuf"), false, "manuf");
                r.readMacs(configDir.resolve("ethers"), true, "ethers");
            }
            if (systemEthers != null) r.readMacs(systemEthers, true, "ethers");
        }
        if (configDir != null && r.network) r.readHosts(configDir.resolve("hosts"), false);
        for (Path h : hosts) r.readHosts(h, true);
        return r;
    }

    /**
     * {@link #load} with the system's folders: $WIRESHARK_DATA_DIR or /usr/share/wireshark, $WIRESHARK_CONFIG_DIR or
     * ~/.config/wireshark (~ is $HOME, as Wireshark reads it), /etc/ethers.
     */
    public static NameResolver system(String flags, List<Path> hosts) throws IOException {
        String data = System.getenv("WIRESHARK_DATA_DIR"), config = System.getenv("WIRESHARK_CONFIG_DIR");
        String home = System.getenv("HOME");
        if (home == null || home.isBlank()) home = System.getProperty("user.home");
        return load(flags, hosts, Path.of(data != null && !data.isEmpty() ? data : "/usr/share/wireshark"),
                config != null && !config.isEmpty() ? Path.of(config) : home == null ? null : Path.of(home, ".config", "wireshark"),
                Path.of("/etc/ethers"));
    }

    /** The -N letters tshark accepts; null when all are valid, else the first unknown one (as tshark's message names it). */
    public static Character unknownFlag(String flags) {
        for (int i = 0; i < flags.length(); i++) {
            if ("mntdNvgs".indexOf(flags.charAt(i)) < 0) return flags.charAt(i);
        }
        return null;
    }

    /** Keeps the names given out from now on, for {@link #usedHosts()} and {@link #usedMacs()} (off by default: dissect has no use for them). */
    public NameResolver recording() {
        recording = true;
        return this;
    }

    /** The host names given out while {@link #recording()}: address text to name, sorted by address text. */
    public Map<String, String> usedHosts() { return new TreeMap<>(usedHosts); }

    /** The MAC names given out while {@link #recording()}: address to name, sorted. */
    public Map<String, String> usedMacs() { return new TreeMap<>(usedMacs); }

    private static void record(ConcurrentHashMap<String, String> used, String address, String name) {
        if (used.size() < CACHE_CAP) used.putIfAbsent(address, name);
    }

    public boolean resolvesMac() { return mac; }

    public boolean resolvesNetwork() { return network; }

    public boolean resolvesTransport() { return transport; }

    /** True when some name can come out (a flag with a table behind it). */
    public boolean active() { return mac || (network && (!v4.isEmpty() || !v6.isEmpty())); }

    /** Lines skipped in the files read, one message per file ("hosts: 2 lines skipped (not ADDRESS NAME), the first line 4"). */
    public List<String> warnings() { return List.copyOf(warnings); }

    // ---------------------------------------------------------------------------------------------------------
    // Lookups

    /** The name of an IPv4 address from the hosts files, or null (also null without network resolution). */
    public String ipv4Name(int address) { return network ? v4.get(address) : null; }

    /** The name of an IPv6 address (16 bytes) from the hosts files, or null. */
    public String ipv6Name(MemorySegment address) {
        if (!network || v6.isEmpty()) return null;
        return v6.get(Addresses.ipv6(address));
    }

    /** The name of an IPv6 address in its RFC 5952 text, or null. */
    public String ipv6Name(String text) { return network ? v6.get(text) : null; }

    /** The IPv4 address as Wireshark's columns and ip.*_host show it: its name when resolved, else its digits. */
    public String ipv4(int address) {
        String n = ipv4Name(address);
        if (n == null) return Addresses.ipv4(address);
        if (recording) record(usedHosts, Addresses.ipv4(address), n);
        return n;
    }

    public String ipv6(MemorySegment address) {
        String n = ipv6Name(address);
        if (n == null) return Addresses.ipv6(address);
        if (recording) record(usedHosts, Addresses.ipv6(address), n);
        return n;
    }

    /** The MAC address as eth.*_resolved shows it: the ethers name, a vendor prefix and the rest, or its digits. */
    public String mac(long address) {
        if (!mac) return Addresses.mac(address);
        Long key = address;
        String n = macCache.get(key);
        if (n != null) return n;
        if (deferredData != null) readData();
        n = resolveMac(address);
        if (macCache.size() < CACHE_CAP) macCache.put(key, n);
        if (recording && !n.equals(Addresses.mac(address))) record(usedMacs, Addresses.mac(address), n);
        return n;
    }

    /**
     * An address field's value text with its name before it, as tshark's tree shows it ("gpu-node-01 (10.0.0.1)",
     * "Mellanox_12:34:56 (00:02:c9:12:34:56)"); the text itself when the field is no address or has no name.
     */
    public String labelled(String field, String text) {
        if (text == null) return null;
        String name = null;
        switch (field) {
            case "eth.src", "eth.dst" -> {
                long[] a = mac ? macAddress(text) : null;
                if (a != null && a[1] == 48) name = mac(a[0]);
                if (text.equals(name)) name = null;
            }
            case "ip.src", "ip.dst" -> {
                long a = network ? ipv4Address(text) : -1;
                if (a >= 0) name = v4.get((int) a);
            }
            case "ipv6.src", "ipv6.dst" -> name = ipv6Name(text);
            default -> { }
        }
        return name == null ? text : name + " (" + text + ")";
    }

    /** True when {@link #mac} gives a name rather than the digits. */
    public boolean macResolved(long address) { return mac && !mac(address).equals(Addresses.mac(address)); }

    /** Where a name came from: the file it was read from ("hosts: /path", "ethers: /etc/ethers", "manuf"). */
    public String origin(String name) {
        String o = origin.get(name);
        return o != null ? o : "";
    }

    /** The hosts entries read (address text to name), sorted by address text; for the GUI's Resolved Addresses. */
    public Map<String, String> hostEntries() {
        Map<String, String> m = new TreeMap<>();
        for (Map.Entry<Integer, String> e : v4.entrySet()) m.put(Addresses.ipv4(e.getKey()), e.getValue());
        m.putAll(v6);
        return m;
    }

    private String resolveMac(long a) {
        String n = ethers.get(a);
        if (n != null) return n;
        int b1 = byteAt(a, 1), b2 = byteAt(a, 2), b3 = byteAt(a, 3), b4 = byteAt(a, 4), b5 = byteAt(a, 5);
        // Well-known ranges, longest prefix first: only the bits after the prefix are printed (addr_resolv.c's loops).
        for (int mask = 7; mask >= 0; mask--) {
            String w = wka.get(prefix(a, mask + 40));
            if (w != null) return w + "_" + hex(b5 & (0xFF >> mask));
        }
        for (int mask = 7; mask >= 0; mask--) {
            String w = wka.get(prefix(a, mask + 32));
            if (w != null) return w + "_" + hex(b4 & (0xFF >> mask)) + ":" + hex(b5);
        }
        for (int mask = 7; mask >= 0; mask--) {
            String w = wka.get(prefix(a, mask + 24));
            if (w != null) return w + "_" + hex(b3 & (0xFF >> mask)) + ":" + hex(b4) + ":" + hex(b5);
        }
        int oui = (int) (a >>> 24);
        String v = manuf.get(oui);
        // A group address has its vendor's OUI with the I/G bit set: cleared, it names the vendor (the U/L bit is kept).
        if (v == null && (oui & 0x010000) != 0) v = manuf.get(oui & 0xFEFFFF);
        if (v != null) return v + "_" + hex(b3) + ":" + hex(b4) + ":" + hex(b5);
        for (int mask = 7; mask >= 0; mask--) {
            String w = wka.get(prefix(a, mask + 16));
            if (w != null) return w + "_" + hex(b2 & (0xFF >> mask)) + ":" + hex(b3) + ":" + hex(b4) + ":" + hex(b5);
        }
        for (int mask = 7; mask >= 0; mask--) {
            String w = wka.get(prefix(a, mask + 8));
            if (w != null) return w + "_" + hex(b1 & (0xFF >> mask)) + ":" + hex(b2) + ":" + hex(b3) + ":" + hex(b4) + ":" + hex(b5);
        }
        return Addresses.mac(a);
    }

    /**
     * Reads Wireshark's data files once; the user's own entries (personal manuf, ethers), read at the start, win over
     * them. Lines they cannot use are not reported: the files are Wireshark's, not the user's.
     */
    private synchronized void readData() {
        Path data = deferredData;
        if (data == null) return;
        try {
            readMacs(data.resolve("manuf"), false, "manuf", false);
            readMacs(data.resolve("wka"), false, "wka", false);
        } catch (IOException e) {
            // Unreadable: MAC addresses keep their digits, as without the files.
        }
        deferredData = null;
    }

    private static int byteAt(long a, int i) { return (int) (a >>> (8 * (5 - i))) & 0xFF; }

    private static long prefix(long a, int bits) { return a & (0xFFFFFFFFFFFFL << (48 - bits)) & 0xFFFFFFFFFFFFL; }

    private static String hex(int v) {
        return new String(new char[] {Character.forDigit(v >>> 4, 16), Character.forDigit(v & 0xF, 16)});
    }

    // ---------------------------------------------------------------------------------------------------------
    // Files

    /** manuf, wka and ethers: {@code ADDRESS[/BITS] NAME [LONG NAME]}, bytes separated by ':', '-' or '.'. */
    private void readMacs(Path file, boolean ethersFile, String kind) throws IOException { readMacs(file, ethersFile, kind, true); }

    /** @param wins whether an entry replaces one read before (the user's files), else only fills gaps (Wireshark's) */
    private void readMacs(Path file, boolean ethersFile, String kind, boolean wins) throws IOException {
        if (!Files.isReadable(file)) return;
        int skipped = 0, first = 0, lineNo = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            for (String line; (line = in.readLine()) != null; ) {
                lineNo++;
                String[] t = tokens(line);
                if (t.length == 0) continue;
                long[] am = t.length >= 2 ? macAddress(t[0]) : null;
                if (am == null || entries >= ENTRY_CAP) {
                    if (skipped++ == 0) first = lineNo;
                    continue;
                }
                entries++;
                long addr = am[0];
                int bits = (int) am[1];
                String name = t[1];
                if (bits == 48) put(ethers, addr, name, wins);
                else if (bits == 24 && !ethersFile && am[2] == 3) put(manuf, (int) (addr >>> 24), name, wins);
                else put(wka, prefix(addr, bits), name, wins);
                origin.putIfAbsent(name, kind + ": " + file);
            }
        } catch (java.nio.charset.MalformedInputException e) {
            skipped++;
        }
        if (skipped > 0 && wins) warnings.add(file + ": " + skipped + " line" + (skipped == 1 ? "" : "s") + " skipped (not ADDRESS NAME), the first line " + first);
    }

    private static <K> void put(Map<K, String> m, K key, String name, boolean wins) {
        if (wins) m.put(key, name);
        else m.putIfAbsent(key, name);
    }

    /** hosts: {@code ADDRESS NAME [ALIAS...]}; the first name is the one shown. */
    private void readHosts(Path file, boolean given) throws IOException {
        if (!Files.isReadable(file) || Files.isDirectory(file)) {
            if (given) throw new UnreadableFile("Can't read host entries from \"" + file + "\"");
            return;
        }
        int skipped = 0, first = 0, lineNo = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line; (line = in.readLine()) != null; ) {
                lineNo++;
                String[] t = tokens(line);
                if (t.length == 0) continue;
                boolean ok = t.length >= 2 && entries < ENTRY_CAP;
                if (ok) {
                    long v4a = ipv4Address(t[0]);
                    if (v4a >= 0) {
                        v4.put((int) v4a, t[1]);
                    } else {
                        String v6a = ipv6Address(t[0]);
                        if (v6a != null) v6.put(v6a, t[1]);
                        else ok = false;
                    }
                }
                if (!ok) {
                    if (skipped++ == 0) first = lineNo;
                    continue;
                }
                entries++;
                origin.put(t[1], "hosts: " + file);
            }
        } catch (java.nio.charset.CharacterCodingException e) {
            if (given) throw new UnreadableFile("Can't read host entries from \"" + file + "\" (not a text file)");
            return;
        }
        if (skipped > 0) warnings.add(file + ": " + skipped + " line" + (skipped == 1 ? "" : "s") + " skipped (not ADDRESS NAME), the first line " + first);
    }

    /** The line's words before a '#'. */
    private static String[] tokens(String line) {
        int hash = line.indexOf('#');
        String s = (hash >= 0 ? line.substring(0, hash) : line).strip();
        return s.isEmpty() ? new String[0] : s.split("\\s+");
    }

    /** Dotted IPv4 (four decimal parts 0-255) as an unsigned int, or -1. */
    static long ipv4Address(String s) {
        String[] p = s.split("\\.", -1);
        if (p.length != 4) return -1;
        long v = 0;
        for (String part : p) {
            if (part.isEmpty() || part.length() > 3) return -1;
            int n = 0;
            for (int i = 0; i < part.length(); i++) {
                char c = part.charAt(i);
                if (c < '0' || c > '9') return -1;
                n = n * 10 + (c - '0');
            }
            if (n > 255) return -1;
            v = (v << 8) | n;
        }
        return v;
    }

    /** An IPv6 literal in RFC 5952 text, or null; never a DNS lookup (only hex digits, ':' and '.' reach the parser). */
    static String ipv6Address(String s) {
        if (s.indexOf(':') < 0 || s.length() > 45) return null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.digit(c, 16) < 0 && c != ':' && c != '.') return null;
        }
        try {
            byte[] b = java.net.InetAddress.getByName(s).getAddress();
            if (b.length == 4) {   // Java maps ::ffff:a.b.c.d to IPv4
                byte[] m = new byte[16];
                m[10] = m[11] = (byte) 0xFF;
                System.arraycopy(b, 0, m, 12, 4);
                b = m;
            }
            return Addresses.ipv6(b);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * A MAC address or prefix: {address, bits, bytes given}; 3 bytes are an OUI (24 bits), 6 bytes a full address
     * unless /BITS follows; null when it is not one.
     */
    static long[] macAddress(String s) {
        int slash = s.indexOf('/');
        String a = slash >= 0 ? s.substring(0, slash) : s;
        String[] p = a.split("[:.-]", -1);
        // Without /BITS an OUI (3 bytes) or an address (6); with it any prefix (wka's "00-00-0C-07-AC/40").
        if (slash < 0 ? p.length != 3 && p.length != 6 : p.length > 6) return null;
        long v = 0;
        for (String part : p) {
            if (part.isEmpty() || part.length() > 2) return null;
            int hi = part.length() == 2 ? Character.digit(part.charAt(0), 16) : 0;
            int lo = Character.digit(part.charAt(part.length() - 1), 16);
            if (hi < 0 || lo < 0) return null;
            v = (v << 8) | (hi << 4) | lo;
        }
        v <<= 8 * (6 - p.length);
        int bits = p.length * 8;
        if (slash >= 0) {
            try {
                bits = Integer.parseInt(s.substring(slash + 1));
            } catch (NumberFormatException e) {
                return null;
            }
            if (bits < 8 || bits > 48) return null;
        }
        return new long[] {v, bits, p.length};
    }

    /** The address of a MAC in a frame's bytes at offset o (6 bytes, network order). */
    public static long macAt(MemorySegment s, long o) {
        long v = 0;
        for (int i = 0; i < 6; i++) v = (v << 8) | (s.get(ValueLayout.JAVA_BYTE, o + i) & 0xFF);
        return v;
    }
}

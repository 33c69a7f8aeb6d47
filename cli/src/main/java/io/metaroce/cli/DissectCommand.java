package io.metaroce.cli;

import io.metaroce.analysis.AnalysisFrameFields;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.analysis.AnalysisSettings;
import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.Dissector;
import io.metaroce.dissector.DissectorConfig;
import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FieldFormat;
import io.metaroce.dissector.FrameBatch;
import io.metaroce.dissector.FramePipeline;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.FrameJson;
import io.metaroce.dissector.NameResolver;
import io.metaroce.dissector.stats.StatsTrees;
import io.metaroce.filter.DisplayFilter;
import io.metaroce.filter.FilterException;
import io.metaroce.protocol.FieldDef;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code metaroce dissect}: decode a capture with tshark's habits (-T, -e, -E, -c, -Y, -V, -q, -d, -w, -x, -O, -t, -z). */
@Command(name = "dissect", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = {"Decode every frame of a capture: Ethernet/VLAN/IP/UDP, RoCEv1/v2, MetaRoCE v1 headers, CM MADs, "
                + "and check the ICRC.", "Field names: bth.psn, mrth.path_id, icrc.status, ... (Wireshark names such as "
                + "infiniband.bth.psn work too); list them with --list-fields."},
        // Each example fits the help's 80 columns, continued with a backslash: picocli cut the filters in the
        // middle of a field name ("bth.<newline>opcode"), and the copied lines did not run.
        footer = {"", "Examples:", "  metaroce dissect -r samples/captures/rocev2-clean.pcapng",
                "  metaroce dissect -r x.pcap -T fields -e frame.number -e bth.psn \\",
                "      -Y 'bth.opcode == 0x11 && aeth.syndrome.kind == nak'",
                "  metaroce dissect -r x.pcap -T jsonl -c 10", "  metaroce dissect -r x.pcap -q",
                "  metaroce dissect -r x.pcap -Y 'bth.opcode == 7' -w write-middle.pcapng",
                "  metaroce dissect -r x.pcap -c 2 -P -x -t ud",
                "  metaroce dissect -r x.pcap \\",
                "      -Y 'analysis.retransmission && analysis.retransmission_cause == \"nak\"'"})
final class DissectCommand implements Callable<Integer> {
    enum Format { text, json, jsonl, fields, ek, pdml, psml, tabs }

    @picocli.CommandLine.Mixin
    StandardOptions standard;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = {"-r", "--read"}, paramLabel = "FILE", description = "Capture file to read (pcap or pcapng, gzip-compressed or not; - reads standard input).")
    Path file;

    @Option(names = {"-T", "--format"}, paramLabel = "FORMAT", description = "Output: ${COMPLETION-CANDIDATES} (default: "
            + "${DEFAULT-VALUE}); ek is tshark's Elasticsearch bulk layout, pdml and psml tshark's XML (the fields; the "
            + "summary's columns), tabs the summary with tabs.", defaultValue = "text")
    Format format;

    @Option(names = {"-e", "--field"}, paramLabel = "FIELD", description = "Field to print with -T fields, json, jsonl or ek "
            + "(repeatable); also the summary's columns _ws.col.No., Time, Source, Destination, Protocol, Length, Info "
            + "(_ws.col.Info, ...) and frame.time, frame.time_utc, frame.encap_type, as tshark.")
    List<String> fields = new ArrayList<>();

    @Option(names = "-E", paramLabel = "KEY=VALUE", description = "-T fields options: header=y|n, separator=/t|/s|C, aggregator=/t|/s|C, quote=d|s|n (C: one character).")
    List<String> fieldOptions = new ArrayList<>();

    @Option(names = {"-c", "--count"}, paramLabel = "N", description = "Stop after N frames (that pass -Y).")
    Long countOption;
    private long count = Long.MAX_VALUE;

    @Option(names = {"-Y", "--display-filter"}, paramLabel = "FILTER", description = "Wireshark display filter, e.g. 'bth.psn >= 100 && mrth'.")
    String filter;

    @Option(names = "-R", paramLabel = "FILTER", description = "Read filter, with -2 only (as tshark): the frames that do not "
            + "match it are left out after the first pass, as -Y leaves them out.")
    String readFilter;

    @Option(names = {"-j", "-J"}, paramLabel = "PROTOCOLS", description = "With -T json, jsonl, ek or pdml: only the fields "
            + "of these protocols (space or comma separated: frame, eth, ip, udp, infiniband, or a header such as bth, reth, "
            + "mrth); -T ek marks the other layers {\"filtered\": NAME}, as tshark.")
    List<String> protocolFilter;

    @Option(names = "-l", description = "Flush the standard output after each frame (for a pipe to grep), as tshark -l.")
    boolean flushEach;

    @Option(names = "-u", paramLabel = "s|hms", description = "Relative and delta times in seconds (s, the default) or in "
            + "hours, minutes and seconds (hms: 1h  2m  3.000000000s), as tshark -u.")
    String secondsFormat;

    @Option(names = "-Q", description = "Only errors: no frames and no summary on the standard output (as tshark -Q); "
            + "-w and -z still work.")
    boolean onlyErrors;

    @Option(names = "-V", description = "Print the full field tree of each frame (text output).")
    boolean verbose;

    @Option(names = "-O", paramLabel = "PROTO[,PROTO]", split = ",", description = "As -V, with the fields of these protocols "
            + "only (header names such as bth, reth, ip; infiniband for all the RoCE headers; frame; analysis), the others "
            + "as one line each, as tshark -O.")
    List<String> onlyProtocols;

    @Option(names = "-x", description = "After each frame's summary (-P) or tree (-V), or alone, the hex and ASCII dump of its bytes, as tshark -x.")
    boolean hex;

    @Option(names = "-P", description = "Print the summary line of each frame even with -w (or with -x).")
    boolean printSummary;

    @Option(names = "-w", paramLabel = "FILE", description = "Write the frames that pass -Y (and -c) to a capture file, as read (- is standard output); "
            + "nothing is printed per frame unless -P, -V or -x.")
    String writeFile;

    @Option(names = "-F", paramLabel = "pcapng|pcap", arity = "0..1", fallbackValue = "",
            description = "File type for -w (default: pcapng); -F alone lists the types.")
    String writeType;

    @Option(names = "-t", paramLabel = "FORMAT", description = "Time column: a|ad|adoy|d|dd|e|r|u|ud|udoy, as tshark (default: r, "
            + "seconds since the first frame); .N sets the decimals (e.g. ad.6).")
    String timeFormat;

    @Option(names = "-z", paramLabel = "STAT", description = "Statistics after the frames (repeatable; with -q only them; "
            + "the last given first, as tshark), as tshark -z: io,phs (protocol hierarchy), io,stat,INTERVAL[,COLUMN]... "
            + "(per INTERVAL seconds, 0: the whole capture; a COLUMN is a display filter, frames and bytes of the frames "
            + "that match it, or COUNT|SUM|MIN|MAX|AVG(FIELD)FILTER), conv,TYPE and endpoints,TYPE (TYPE: eth, ip, ipv6, "
            + "udp), expert[,error|warn|note|chat|comment], flow,any|roce,standard|network (a ladder diagram: hosts, QP "
            + "numbers, the analysis' verdicts), plen,tree, ptype,tree, ip_hosts,tree, ip_srcdst,tree, dests,tree, "
            + "ipv6_hosts,tree, ipv6_srcdst,tree, ipv6_dests,tree (tshark's stats trees), roce_ops,tree (RDMA operations "
            + "by transport), follow,roce,ascii|hex|raw|yaml,STREAM[,RANGE] (Follow RoCE QP Stream: a QP connection's "
            + "payload, STREAM its number or a flow id), roce,srt (service response time of RDMA operations, as tshark's "
            + "rpc,srt; its FILTER picks the requests); io,phs, conv, endpoints, expert, flow, the trees and srt take ,FILTER after them. "
            + "They count every frame read, also those -Y hides (as tshark's taps); -z help lists them.")
    List<String> zStats;
    /** -z io,stat: per argument, its columns and interval (each worker counts into a copy). */
    private final Map<Integer, ZStats.IoStat> zIoStats = new HashMap<>();
    /** -z: per argument, its table's own display filter (or null), compiled once for every worker. */
    private final List<DisplayFilter> zFilters = new ArrayList<>();
    /** -z expert was given: the analysis runs first, for its findings (as tshark's TCP analysis does for its items). */
    private boolean zExpert;
    /** -z roce,srt was given: the analysis runs first, for the requests' analysis.ack_rtt_ns. */
    private boolean zSrt;
    /** -z flow: per argument, its type and mode (the analysis runs first, for the rows' comments). */
    private final Map<Integer, Object[]> zFlows = new HashMap<>();
    /** -z follow: per argument, what it follows (the analysis runs first, for the QP connections' pairing). */
    private final Map<Integer, FollowStat.Spec> zFollows = new HashMap<>();
    /** -z flow: where its printing pass reads the capture again (set once the analysis has run). */
    private FlowStat.Source flowSource;

    @Option(names = "-G", paramLabel = "REPORT", arity = "0..1", fallbackValue = "fields",
            description = "Print a glossary and exit, as tshark -G: fields (the default; as --list-fields, in tshark's "
                    + "layout), protocols, fieldcount, values (the named values: opcodes, ...), ftypes, column-formats, defaultprefs, currentprefs (-o); -G help lists them.")
    String glossary;
    /** -z: every worker's counts, merged after the run. */
    private final List<ZStats> zWorkers = java.util.Collections.synchronizedList(new ArrayList<>());

    @Option(names = "-n", description = "No name resolution (the default here; tshark's default is -N m).")
    boolean noResolve;

    @Option(names = "-N", paramLabel = "FLAGS", description = "Name resolution, as tshark -N: m (MAC vendors from Wireshark's "
            + "manuf, ethers names), n (host names from hosts files and -H), t d N v g s accepted; the Source and Destination "
            + "columns and eth.src_resolved, ip.src_host, ... show the names.")
    String resolveFlags;

    @Option(names = "-H", paramLabel = "FILE", description = "A hosts file (ADDRESS NAME per line, # comments), as tshark -H: "
            + "its names show with -N n (repeatable).")
    List<Path> hostsFiles = new ArrayList<>();

    /** -N/-H's resolver (none by default or with -n). */
    private NameResolver names = NameResolver.NONE;

    /** Reads -N's and -H's tables; an exit status when they cannot be used (tshark's wording), else null. */
    private Integer loadNames() {
        if (resolveFlags != null) {
            Character bad = NameResolver.unknownFlag(resolveFlags);
            if (bad != null) {
                err.println("metaroce dissect: -N specifies unknown resolving option '" + bad + "'; valid options are: m (MAC), "
                        + "n (network), t (transport), d, N, v, g, s");
                return 2;
            }
        }
        if (resolveFlags == null && hostsFiles.isEmpty()) return null;
        try {
            names = NameResolver.system(noResolve || resolveFlags == null ? "" : resolveFlags, hostsFiles);
        } catch (java.io.IOException e) {
            err.println("metaroce dissect: " + (e instanceof NameResolver.UnreadableFile ? e.getMessage()
                    : "cannot read the name resolution files: " + e.getMessage()));
            return 2;
        }
        for (String w : names.warnings()) err.println("metaroce dissect: warning: " + w);
        return null;
    }

    @Option(names = "-2", description = "Two passes, as tshark -2: the same as -A (the first pass analyzes the capture).")
    boolean twoPass;

    @Option(names = "-q", description = "Decode and check every frame; print only a summary of frames, protocols and expert items.")
    boolean quiet;

    @Option(names = {"-d", "--decode-as"}, paramLabel = DecodeAs.LABEL, description = DecodeAs.HELP)
    List<String> decodeAs = new ArrayList<>();

    @Option(names = "-o", paramLabel = "NAME:VALUE", description = "Set a preference, as tshark -o: gui.column.format "
            + "(the text output's columns, e.g. '\"No.\",\"%%m\",\"QP\",\"%%Cus:bth.dest_qp\",\"Info\",\"%%i\"'; -G column-formats) "
            + "or infiniband.rroce.port (the UDP port read as RoCEv2 instead of 4791). -G currentprefs prints them.")
    List<String> preferenceFlags = new ArrayList<>();
    /** -o's values. */
    private DissectPreferences preferences = DissectPreferences.DEFAULT;

    @Option(names = "--disable-protocol", paramLabel = io.metaroce.dissector.EnabledProtocols.LABEL,
            description = io.metaroce.dissector.EnabledProtocols.DISABLE_HELP)
    List<String> disableProtocols = new ArrayList<>();

    @Option(names = "--enable-protocol", paramLabel = io.metaroce.dissector.EnabledProtocols.LABEL,
            description = io.metaroce.dissector.EnabledProtocols.ENABLE_HELP)
    List<String> enableProtocols = new ArrayList<>();

    @Option(names = {"-A", "--analysis"}, description = "Add the analysis.* fields (retransmissions and their cause, spurious, "
            + "out of order, ACK RTT, ...: a first pass analyzes the capture). On by itself when -Y or -e names an analysis field.")
    boolean analysis;

    @Option(names = "--tap", paramLabel = "auto|host:IP|mirror", defaultValue = "auto",
            description = "Where the capture was taken, for the analysis fields (default: ${DEFAULT-VALUE}).")
    String tap;

    @Option(names = "--threads", paramLabel = "N", description = "Worker threads (default: one per core; output order is kept).")
    Integer threads;

    /**
     * The most --threads takes: the pipeline holds three batches per worker, so 100,000 workers filled a 6 GiB heap
     * before the first frame (out of memory); past the cores more workers only cost memory.
     */
    static final int MAX_THREADS = 1024;

    @Option(names = "--no-icrc", description = "Do not compute the ICRC.")
    boolean noIcrc;

    @Option(names = "--list-fields", description = "List every field name with its type and label, then exit.")
    boolean listFields;

    /** Live capture instead of -r (-i IFACE, -f, -s, -B, -p, --immediate, --queue, -a duration:S). */
    @picocli.CommandLine.Mixin
    LiveOptions live;

    private final PrintStream err = System.err;
    // With -i: the running capture, and output flushed after every batch so that frames show as they come.
    private LiveSession session;


    @Override
    public Integer call() {
        if (listFields) {
            listFields();
            return 0;
        }
        try {
            preferences = DissectPreferences.parse(preferenceFlags);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        if (glossary != null) return glossary();
        if (file == null && !live.live()) {
            err.println("metaroce dissect: no capture given (-r FILE, or -i IFACE to capture live)");
            return 2;
        }
        // Usage errors first, whatever else the command line asks for (tshark's wording for -c).
        if (countOption != null) {
            if (countOption == 0) throw usage("The specified packet count is zero");
            if (countOption < 0) throw usage("The specified packet count \"" + countOption + "\" is a negative number");
            count = countOption;
        }
        Integer nameProblem = loadNames();
        if (nameProblem != null) return nameProblem;
        String conflict = live.fileConflict();
        if (conflict != null) throw usage(conflict);
        // An empty name is the path of the working directory (": is a directory, not a capture file").
        if (file != null && file.toString().isEmpty()) throw usage("'': the file name is empty");
        // 0 or a negative count of threads was taken silently as the default; too many ran out of memory.
        if (threads != null && (threads < 1 || threads > MAX_THREADS)) {
            throw usage("--threads must be 1 to " + MAX_THREADS + ", not " + threads);
        }
        Set<Integer> ports = new HashSet<>(DissectorConfig.DEFAULT.roceUdpPorts());
        AnalysisSettings.Tap tapChoice;
        Set<String> protocolsOff;
        try {
            ports.addAll(DecodeAs.ports(decodeAs));
            if (preferences.rocePort() != null) {
                // -o infiniband.rroce.port replaces the standard port, as in Wireshark; -d's ports still add to it.
                ports.clear();
                ports.add(preferences.rocePort());
                for (String d : decodeAs) ports.add(io.metaroce.dissector.DecodeAs.port(d));
            }
            tapChoice = TapCheck.parse(tap);
            protocolsOff = io.metaroce.dissector.EnabledProtocols.disabled(disableProtocols, enableProtocols);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        // RoCE off: no port is RoCE, for the dissector, the analysis pass and a live capture alike.
        ports = new HashSet<>(io.metaroce.dissector.EnabledProtocols.ports(ports, protocolsOff));
        // tshark: -R is the first pass's filter; alone it was the old single-pass filter, which -Y replaced.
        if (readFilter != null && !twoPass) {
            err.println("metaroce dissect: -R without -2 is deprecated. For single-pass filtering use -Y.");
            return 2;
        }
        if (readFilter != null) filter = filter == null ? readFilter : "(" + readFilter + ") && (" + filter + ")";
        DisplayFilter displayFilter = null;
        if (filter != null) {
            try {
                displayFilter = DisplayFilter.compile(filter, FieldCatalog.get());
            } catch (FilterException e) {
                // One line (scripts and CI logs); on a terminal also the filter with a caret under the problem.
                // A tshark name we know but cannot offer says why on the same line (spec file, ws-unmapped).
                StringBuilder why = new StringBuilder();
                Matcher words = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*").matcher(filter);
                while (words.find()) {
                    String reason = FieldCatalog.get().resolve(words.group()) == null ? FieldCatalog.unmappedReason(words.group()) : null;
                    if (reason != null) why.append("; ").append(words.group()).append(" has no equivalent here: ").append(reason);
                }
                err.println("metaroce dissect: bad display filter: " + e.oneLine() + why);
                if (Terminal.stderrIsTerminal()) err.println(e.formatted().substring(e.getMessage().length() + 1));
                return 2;
            }
        }
        List<FieldDef> selected = new ArrayList<>();
        List<Object> columnList = new ArrayList<>();
        for (String name : fields) {
            FieldDef f = FieldCatalog.get().field(name);
            // ip.host and ipv6.host are address fields of the catalogue; with -N n their values are names, as tshark's.
            if (f != null && names.resolvesNetwork() && (format == Format.fields || format == Format.ek)
                    && (name.equals("ip.host") || name.equals("ipv6.host"))) {
                f = null;
            }
            TsharkOutputs.Pseudo pseudo = f == null ? TsharkOutputs.pseudo(name) : null;
            if (pseudo != null) {
                if (format == Format.json || format == Format.jsonl) {
                    err.println("metaroce dissect: -e " + name + " is for -T fields and -T ek (-T " + format + " has the fields only)");
                    return 2;
                }
                columnList.add(pseudo);
                continue;
            }
            if (f == null) {
                String why = FieldCatalog.unmappedReason(name);
                err.println("metaroce dissect: '" + name + "' is not a valid field (see --list-fields)"
                        + (why == null ? "" : "; no equivalent here: " + why));
                return 2;
            }
            selected.add(f);
            columnList.add(f);
        }
        columns = columnList.toArray();
        // tshark: -e needs -T fields (or json/jsonl, which it narrows to those fields).
        if (!fields.isEmpty() && (format == Format.text || format == Format.pdml || format == Format.psml || format == Format.tabs)) {
            err.println("metaroce dissect: Output fields were specified with \"-e\", but \"-T fields\", \"-T json\", \"-T jsonl\" or \"-T ek\" was not specified.");
            return 2;
        }
        if (protocolFilter != null) {
            if (format != Format.json && format != Format.jsonl && format != Format.ek && format != Format.pdml) {
                err.println("metaroce dissect: -j and -J select the protocols of -T json, jsonl, ek or pdml, not of -T " + format);
                return 2;
            }
            java.util.SortedSet<String> known = TsharkOutputs.protocolNames();
            protocols = new java.util.LinkedHashSet<>();
            for (String list : protocolFilter) {
                for (String p : list.split("[\\s,]+")) {
                    if (p.isEmpty()) continue;
                    if (!known.contains(p)) {
                        err.println("metaroce dissect: -j " + p + ": no such protocol here (one of " + String.join(", ", known) + ")");
                        return 2;
                    }
                    protocols.add(p);
                }
            }
        }
        if (onlyErrors) quiet = true; // -Q: -q, and not even the summary
        if (format == Format.fields && columnList.isEmpty() && !quiet) {
            err.println("metaroce dissect: -T fields needs at least one -e FIELD");
            return 2;
        }
        FieldsOptions fo;
        try {
            fo = FieldsOptions.parse(fieldOptions);
        } catch (IllegalArgumentException e) {
            err.println("metaroce dissect: " + e.getMessage());
            return 2;
        }
        if (twoPass) analysis = true; // tshark's -2 is a first pass over the file: here, the analysis pass
        if (zStats != null) {
            for (String z : zStats) {
                if (z.equals("help")) {
                    System.out.println("     " + String.join("\n     ", ZStats.SUPPORTED));
                    return 0;
                }
                if (z.equals("follow") || z.startsWith("follow,")) {
                    Object parsed = FollowStat.parse(z);
                    if (refusedTwoPassZ(z, parsed)) return 2;
                    zFollows.put(zFilters.size(), (FollowStat.Spec) parsed);
                    zFilters.add(null);
                    continue;
                }
                if (z.equals("flow") || z.startsWith("flow,")) {
                    Object parsed = FlowStat.parse(z);
                    if (refusedTwoPassZ(z, parsed)) return 2;
                    String text = FlowStat.filterText(z);
                    DisplayFilter f = null;
                    if (text != null) {
                        try {
                            f = DisplayFilter.compile(text, FieldCatalog.get());
                        } catch (FilterException e) {
                            err.println("metaroce dissect: -z " + z + ": bad display filter: " + e.oneLine());
                            return 2;
                        }
                    }
                    zFlows.put(zFilters.size(), (Object[]) parsed);
                    zFilters.add(f);
                    continue;
                }
                if (z.startsWith("io,stat,")) {
                    ZStats.IoStat io = ioStat(z);
                    if (io == null) return 2;
                    zIoStats.put(zFilters.size(), io);
                    zFilters.add(null);
                    continue;
                }
                String kind = zKind(z);
                if (kind == null) {
                    err.println("metaroce dissect: invalid -z argument \"" + z + "\"; it must be one of: conv,TYPE, "
                            + "endpoints,TYPE (TYPE: eth, ip, ipv6 or udp), expert, io,phs, NAME,tree (NAME: " + String.join(", ", treeNames())
                            + "; each with ,FILTER after it or not), io,stat,INTERVAL[,COLUMN]... (INTERVAL: seconds, 0 for the whole capture), "
                            + "flow,any|roce,standard|network[,FILTER], follow,roce,ascii|hex|raw|yaml,STREAM[,RANGE], roce,srt[,FILTER]");
                    return 2;
                }
                String text = zFilterText(z);
                DisplayFilter f = null;
                if (text != null) {
                    try {
                        f = DisplayFilter.compile(text, FieldCatalog.get());
                    } catch (FilterException e) {
                        // expert,LEVEL: a word that is no level is read as a filter (tshark's order); name the levels.
                        if (kind.equals("expert") && zExpertLevel(z) == null && text.matches("[A-Za-z]+")) {
                            err.println("metaroce dissect: -z " + z + ": unknown level '" + text + "' (levels: error, warn, "
                                    + "note, chat, comment; a display filter may follow, e.g. expert,warn,bth)");
                            return 2;
                        }
                        err.println("metaroce dissect: -z " + z + ": bad display filter: " + e.oneLine());
                        return 2;
                    }
                }
                zFilters.add(f);
                if (kind.equals("expert")) zExpert = true;
                if (kind.equals("srt")) {
                    if (live.live()) {
                        err.println("metaroce dissect: -z " + z + " adds up the analysis' request/response pairs: it needs a capture file (-r)");
                        return 2;
                    }
                    zSrt = true;
                }
            }
        }
        if (onlyProtocols != null) {
            // tshark takes any word in silence (and shows no protocol's fields); a typo here is said.
            java.util.Set<String> known = TreeText.protocols();
            for (String p : onlyProtocols) {
                if (!known.contains(p)) {
                    err.println("metaroce dissect: -O " + p + ": no such protocol here (one of " + String.join(", ", known) + ")");
                    return 2;
                }
            }
            verbose = true; // -O is -V for some protocols
        }
        if (timeFormat != null) {
            time = timeColumn(timeFormat);
            if (time == null) {
                err.println("metaroce dissect: Invalid time stamp type \"" + timeFormat + "\"; it must be one of a, ad, adoy, d, dd, "
                        + "e, r, u, ud, udoy (add .N for N decimals, e.g. ad.6)");
                return 2;
            }
            ioTimeMode = SummaryLines.TIME_FORMATS[time[0]];
            if (!zIoStats.isEmpty() && !ZStats.IoStat.TIME_MODES.contains(ioTimeMode)) {
                // tshark's words: an interval's row cannot be an epoch or a delta.
                err.println("metaroce dissect: invalid -t operand. io,stat only supports -t <r|a|ad|adoy|u|ud|udoy>");
                return 2;
            }
        }
        if (secondsFormat != null) {
            if (!secondsFormat.equals("s") && !secondsFormat.equals("hms")) {
                err.println("metaroce dissect: Invalid seconds type \"" + secondsFormat + "\"; it must be one of: s (seconds), "
                        + "hms (hours, minutes and seconds)");
                return 2;
            }
            if (secondsFormat.equals("hms")) time = time == null ? new int[] {0, 9, 1} : new int[] {time[0], time[1], 1};
        }
        if (hex && format != Format.text) {
            err.println("metaroce dissect: -x prints the hex dump with the text output, not with -T " + format);
            return 2;
        }
        boolean pcapOut = false;
        if (writeType != null) {
            switch (writeType) {
                case "pcapng" -> pcapOut = false;
                case "pcap" -> pcapOut = true;
                // tshark: -F alone lists the types; an unknown one says so and lists them.
                case "" -> {
                    err.println("metaroce dissect: The available capture file types for the \"-F\" flag are: "
                            + "pcap (Wireshark/tcpdump/... - pcap), pcapng (Wireshark/... - pcapng)");
                    return 2;
                }
                default -> {
                    err.println("metaroce dissect: \"" + writeType + "\" isn't a valid capture file type; "
                            + "the available types for -F are pcap and pcapng");
                    return 2;
                }
            }
        }
        java.io.OutputStream copyTarget = null;
        if (writeFile != null) {
            String why = writeConflict();
            if (why != null) throw usage(why);
            copyTarget = openCopyTarget();
            if (copyTarget == null) return 2;
        }
        DissectorConfig config = new DissectorConfig(ports, !noIcrc, io.metaroce.dissector.EnabledProtocols.bits(protocolsOff));
        boolean needAnalysis = analysis || selected.stream().anyMatch(f -> f.name().startsWith("analysis."))
                || (preferences.columns() != null && CustomColumns.fields(preferences.columns()).stream().anyMatch(f -> f.name().startsWith("analysis.")))
                || (displayFilter != null && displayFilter.referencedFields().stream().anyMatch(f -> f.name().startsWith("analysis.")))
                || zFilters.stream().anyMatch(z -> z != null && z.referencedFields().stream().anyMatch(f -> f.name().startsWith("analysis.")))
                || ((zExpert || zSrt || !zFlows.isEmpty() || !zFollows.isEmpty()) && !live.live());
        AnalysisSession verdicts = null;
        if (needAnalysis && live.live()) {
            err.println("metaroce dissect: the analysis.* fields (-A) need a capture file: use analyze -i for live analysis");
            return 2;
        }
        if (needAnalysis) {
            try {
                AnalysisSettings settings = AnalysisSettings.DEFAULT.withPorts(ports).withTap(tapChoice)
                        .withCheckIcrc(!noIcrc);
                String warning = TapCheck.warning(file, ports, tapChoice);
                if (warning != null) err.println("metaroce dissect: " + warning);
                verdicts = new AnalysisSession(settings, new AnalysisSession.Options(true, false, false));
                verdicts.run(file);
            } catch (CaptureException e) {
                err.println("metaroce dissect: " + e.getMessage());
                return 2;
            } catch (IllegalArgumentException e) {
                err.println("metaroce dissect: " + e.getMessage());
                return 2;
            }
        }
        PacketSource src;
        if (live.live()) {
            src = openLive(ports);
            if (src == null) return 2;
        } else {
            try {
                src = CaptureFiles.open(file);
            } catch (CaptureException e) {
                err.println("metaroce dissect: " + e.getMessage());
                return 2;
            }
        }
        CaptureCopy copy = null;
        try (src) {
            int workers = threads != null ? threads : FramePipeline.defaultThreads();
            flowSource = new FlowStat.Source(file, config, verdicts, workers);
            if (copyTarget != null || zStats != null) {
                if (copyTarget != null) {
                    try {
                        copy = new CaptureCopy(copyTarget, pcapOut, src);
                    } catch (java.io.IOException e) {
                        err.println("metaroce dissect: cannot write " + writeFile + ": " + e.getMessage());
                        return 2;
                    }
                }
                // -w: the frames are written in capture order by this thread; the text (if any) goes along.
                // -z -c N: the statistics count the first N frames shown, which one worker sees in order.
                if (!outputRun(src, config, displayFilter, selected, fo,
                        timeNeedsOrder() || (zStats != null && count != Long.MAX_VALUE) || zNeedsOrder() ? 1 : workers, verdicts, copy))
                    return 0;
                if (copyFailed != null) {
                    err.println("metaroce dissect: cannot write " + writeFile + ": " + copyFailed);
                    return 2;
                }
                if (zStats != null) printStats();
            }
            else if (quiet) quietRun(src, config, displayFilter, count == Long.MAX_VALUE ? workers : 1, verdicts);
            // frame.time_delta_displayed needs the frames in display order: one worker then.
            else if (!outputRun(src, config, displayFilter, selected, fo,
                    selected.stream().anyMatch(f -> f.name().equals("frame.time_delta_displayed")) || timeNeedsOrder() ? 1 : workers,
                    verdicts, null))
                return 0; // stdout closed
            System.out.flush();
            if (session == null) {
                for (CaptureProblem p : src.problems()) err.println("metaroce dissect: " + file + ": " + p.message());
                // Every readable frame was printed, but the capture is damaged: exit 2, as tshark does.
                if (!src.problems().isEmpty()) return 2;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 2;
        } finally {
            if (session != null) {
                session.close();
                session.summary();
            }
        }
        return session != null && session.capture().error() != null ? 2 : 0;
    }

    /** dissect -i: the frame source is a live capture; everything after it is the file path's code. */
    private PacketSource openLive(Set<Integer> ports) {
        LiveSession.Autostop stop;
        try {
            stop = LiveSession.Autostop.parse(live.autostop);
        } catch (IllegalArgumentException e) {
            err.println("metaroce dissect: " + e.getMessage());
            return null;
        }
        session = LiveSession.start("dissect", live, ports, 0, stop.durationNanos(), err);
        if (session == null) return null;
        file = Path.of(String.join(",", live.interfaces));
        return new io.metaroce.capture.live.LivePacketSource(session.capture());
    }

    /** -t: the time column's format and decimals (default r, 9), or null when FORMAT is not one of tshark's. */
    static int[] timeColumn(String format) {
        int dot = format.indexOf('.');
        String name = dot < 0 ? format : format.substring(0, dot);
        int mode = java.util.List.of(SummaryLines.TIME_FORMATS).indexOf(name);
        if (mode < 0) return null;
        int digits = 9;
        if (dot >= 0) {
            String n = format.substring(dot + 1);
            if (n.length() != 1 || n.charAt(0) < '0' || n.charAt(0) > '9') return null;
            digits = n.charAt(0) - '0';
        }
        return new int[] {mode, digits};
    }

    /**
     * -z io,stat,INTERVAL[,COL]...: the interval (seconds, at least a microsecond, or 0 for the whole capture) and
     * the columns, as tshark reads them: a column is split at commas, and pieces are joined again while a display
     * filter does not compile (a filter may hold commas). Null after one line on stderr in tshark's words.
     */
    private ZStats.IoStat ioStat(String z) {
        String rest = z.substring(8);
        int comma = rest.indexOf(',');
        String seconds = (comma < 0 ? rest : rest.substring(0, comma)).strip();
        java.math.BigDecimal value;
        try {
            value = new java.math.BigDecimal(seconds);
        } catch (NumberFormatException e) {
            value = null;
        }
        if (value == null || value.signum() < 0 || z.endsWith(",")) {
            err.println("metaroce dissect: invalid -z argument \"" + z + "\"; it must be io,stat,INTERVAL[,COLUMN]... "
                    + "(INTERVAL: seconds, or 0 for the whole capture; COLUMN: a display filter or FUNC(FIELD)FILTER, "
                    + "FUNC one of " + String.join(", ", ZStats.IoStat.FUNCTIONS) + ")");
            return null;
        }
        long us = 0;
        int precision = 0;
        if (value.signum() > 0) {
            us = value.movePointRight(6).setScale(0, java.math.RoundingMode.HALF_UP).min(java.math.BigDecimal.valueOf(Long.MAX_VALUE / 2)).longValue();
            if (us < 1) {
                err.println("metaroce dissect: -z " + z + ": \"-z\" interval must be >=0.000001 seconds or \"0\" for the entire capture duration.");
                return null;
            }
            // tshark's precision: the decimals the interval needs; a whole number keeps the decimals written (1.00).
            precision = 6;
            for (long i = 10; i < 10_000_000L && us % i == 0; i *= 10) precision--;
            int dot = seconds.indexOf('.');
            if (precision == 0 && dot >= 0 && dot < seconds.length() - 1) precision = Math.min(6, seconds.length() - dot - 1);
        }
        List<ZStats.IoStat.Column> columns = new ArrayList<>();
        if (comma < 0) {
            columns.add(new ZStats.IoStat.Column(null, ZStats.IoStat.FRAMES_AND_BYTES, null, null));
        } else {
            String pending = null, problem = null;
            for (String piece : rest.substring(comma + 1).split(",", -1)) {
                String text = pending == null ? piece : pending + "," + piece;
                Object c = ioColumn(text.strip());
                if (c instanceof ZStats.IoStat.Column col) {
                    columns.add(col);
                    pending = null;
                } else {
                    pending = text;
                    problem = (String) c;
                }
            }
            if (pending != null) {
                err.println("metaroce dissect: -z " + z + ": " + problem);
                return null;
            }
        }
        return new ZStats.IoStat(us, precision, columns, "r");
    }

    /** One io,stat column (empty: frames and bytes of every frame), or why it is not one (tshark's words). */
    private static Object ioColumn(String text) {
        if (text.isEmpty()) return new ZStats.IoStat.Column(null, ZStats.IoStat.FRAMES_AND_BYTES, null, null);
        int type = ZStats.IoStat.FRAMES_AND_BYTES;
        String filter = text;
        FieldDef field = null;
        Matcher m = Pattern.compile("([A-Z]+)\\(").matcher(text);
        if (text.equals("FRAMES") || text.equals("BYTES")) {
            type = ZStats.IoStat.FUNCTIONS.indexOf(text);
            filter = "";
        } else if (text.startsWith("LOAD(")) {
            return "LOAD() is not supported here (it needs a response-time field such as smb.time): use "
                    + String.join(", ", ZStats.IoStat.FUNCTIONS);
        } else if (m.lookingAt() && ZStats.IoStat.FUNCTIONS.contains(m.group(1))) {
            String func = m.group(1);
            type = ZStats.IoStat.FUNCTIONS.indexOf(func);
            int close = text.indexOf(')', m.end());
            if (close < 0) return "Closing parenthesis missing from calculated expression.";
            String name = text.substring(m.end(), close).strip();
            filter = text.substring(close + 1).strip();
            if (type == ZStats.IoStat.FRAMES || type == ZStats.IoStat.BYTES) {
                if (!name.isEmpty()) return func + " does not require or allow a field name within the parens.";
            } else {
                if (name.isEmpty()) return "You didn't specify a field name for " + func + "(*).";
                field = FieldCatalog.get().field(name);
                if (field == null) return "There is no field named '" + name + "'.";
                boolean integral = field.type() == io.metaroce.protocol.ValueType.UINT || field.type() == io.metaroce.protocol.ValueType.TIME;
                if (type != ZStats.IoStat.COUNT && !integral) {
                    return name + " doesn't have integral values, so " + func + "(*) calculations are not supported on it.";
                }
            }
        }
        DisplayFilter f = null;
        if (!filter.isEmpty()) {
            try {
                f = DisplayFilter.compile(filter, FieldCatalog.get());
            } catch (FilterException e) {
                return "bad display filter: " + e.oneLine();
            }
        }
        return new ZStats.IoStat.Column(text, type, field, f);
    }

    /** -z: the statistics of every worker merged, printed as tshark prints them: the last -z first. */
    private void printStats() {
        ZStats all = new ZStats((d, ff) -> { }, zTallies(), 0);
        for (ZStats z : zWorkers) all.merge(z);
        ByteOut out = new ByteOut(System.out);
        for (int i = zStats.size() - 1; i >= 0; i--) all.tallies.get(i).print(out);
        out.flush();
    }

    /**
     * What a -z argument counts (conv, endpoints, expert, phs), or null when it is none of them: conv,TYPE and
     * endpoints,TYPE with TYPE eth, ip, ipv6 or udp, expert[,error|warn|note|chat|comment], io,phs; each may end
     * with ,FILTER (tshark's syntax).
     */
    static String zKind(String z) {
        String[] p = z.split(",", 3);
        return switch (p[0]) {
            case "conv", "endpoints" -> p.length >= 2 && List.of("eth", "ip", "ipv6", "udp").contains(p[1]) ? p[0] : null;
            case "expert" -> "expert";
            case "io" -> p.length >= 2 && p[1].equals("phs") ? "phs" : null;
            case "roce" -> p.length >= 2 && p[1].equals("srt") ? "srt" : null;
            default -> p.length >= 2 && p[1].equals("tree") && StatsTrees.Kind.of(p[0]) != null ? "tree" : null;
        };
    }

    /** The display filter at the end of a -z argument (null: none or empty). */
    static String zFilterText(String z) {
        String rest;
        if (z.startsWith("expert")) {
            rest = z.substring(6);
            if (rest.isEmpty()) return null;
            if (rest.charAt(0) != ',') return null;
            String level = zExpertLevel(z);
            rest = rest.substring(1 + (level == null ? 0 : level.length()));
            if (level != null && rest.startsWith(",")) rest = rest.substring(1);
        } else {
            String[] p = z.split(",", 3);
            rest = p.length == 3 ? p[2] : "";
        }
        return rest.isEmpty() ? null : rest;
    }

    /** -z expert,LEVEL[,FILTER]: the level word as given (any case), or null. */
    static String zExpertLevel(String z) {
        for (String level : List.of("error", "warn", "note", "chat", "comment")) {
            if (z.regionMatches(true, 7, level, 0, level.length()) && z.length() > 7 && z.charAt(6) == ','
                    && (z.length() == 7 + level.length() || z.charAt(7 + level.length()) == ',')) {
                return z.substring(7, 7 + level.length());
            }
        }
        return null;
    }

    /** The stats trees' -z names (plen, ptype, ...). */
    private static List<String> treeNames() {
        List<String> l = new ArrayList<>();
        for (StatsTrees.Kind k : StatsTrees.Kind.values()) l.add(k.abbr());
        return l;
    }

    /** One worker's tables, one per -z argument. */
    private List<ZStats.Tally> zTallies() {
        List<ZStats.Tally> l = new ArrayList<>();
        for (int i = 0; i < zStats.size(); i++) {
            String z = zStats.get(i);
            DisplayFilter f = zFilters.get(i);
            String text = zFilterText(z);
            String kind = zKind(z);
            if (zFollows.containsKey(i)) l.add(new FollowStat(zFollows.get(i), flowSource));
            else if (zFlows.containsKey(i)) {
                Object[] tm = zFlows.get(i);
                l.add(new FlowStat((io.metaroce.analysis.FlowGraph.Type) tm[0], (io.metaroce.analysis.FlowGraph.Mode) tm[1], f, flowSource));
            } else if (zIoStats.containsKey(i)) {
                ZStats.IoStat io = zIoStats.get(i);
                l.add(new ZStats.IoStat(io.intervalUs, io.precision, io.columns, ioTimeMode));
            } else if (kind.equals("phs")) l.add(new ZStats.Phs(f, text));
            else if (kind.equals("tree")) l.add(new ZStats.Tree(StatsTrees.Kind.of(z.split(",", 2)[0]), f));
            else if (kind.equals("srt")) l.add(new ZStats.Srt(f));
            else if (kind.equals("expert")) {
                String level = zExpertLevel(z);
                io.metaroce.protocol.Severity lowest = level == null ? io.metaroce.protocol.Severity.NOTE
                        : switch (level.toLowerCase(java.util.Locale.ROOT)) {
                            case "error" -> io.metaroce.protocol.Severity.ERROR;
                            case "warn" -> io.metaroce.protocol.Severity.WARN;
                            default -> io.metaroce.protocol.Severity.NOTE;
                        };
                l.add(new ZStats.Expert(f, lowest));
            } else {
                l.add(new ConversationTable(io.metaroce.dissector.stats.ConversationType.of(z.split(",", 3)[1]), kind.equals("endpoints"), f, text));
            }
        }
        return l;
    }

    /** -z io,stat with AVG: its column is sized by the running mean, which needs the frames in capture order. */
    private boolean zNeedsOrder() {
        for (ZStats.IoStat io : zIoStats.values()) if (io.needsOrder()) return true;
        // The stats trees' burst rates count the frames of each 100 ms in capture order.
        if (zStats != null) for (String z : zStats) if ("tree".equals(zKind(z))) return true;
        return false;
    }

    /**
     * -z follow and -z flow, which read the capture again after the analysis: whether the argument is refused (its
     * parser's message, or a live capture, which cannot be read twice), after saying why.
     */
    private boolean refusedTwoPassZ(String z, Object parsed) {
        if (parsed instanceof String why) {
            err.println("metaroce dissect: " + why);
            return true;
        }
        if (live.live()) {
            err.println("metaroce dissect: -z " + z + " reads the capture twice: it needs a capture file (-r)");
            return true;
        }
        return false;
    }

    /** -t dd: the delta to the previous displayed frame needs the frames in display order (one worker). */
    private boolean timeNeedsOrder() {
        return time != null && SummaryLines.TIME_FORMATS[time[0]].equals("dd")
                || preferences.columns() != null && CustomColumns.needsOrder(preferences.columns(), time);
    }

    /** Per -e: its catalogue field or its {@link TsharkOutputs.Pseudo} (a summary column, frame.time, ...). */
    private Object[] columns = new Object[0];
    /** -j/-J: the protocols json, jsonl, ek and pdml show; null: all. */
    private java.util.Set<String> protocols;

    /** -T json/jsonl with -j/-J: the fields of those protocols; null (every field) without. */
    private List<FieldDef> jsonProtocols() {
        if (protocols == null) return null;
        List<FieldDef> l = new ArrayList<>();
        for (FieldDef f : FieldCatalog.get().fields()) if (TsharkOutputs.selects(protocols, f)) l.add(f);
        return l;
    }

    /** Why -w cannot run with the rest of the command line, or null. */
    private String writeConflict() {
        if (live.live()) return "-w with -i: a live capture is written by metaroce capture -w";
        boolean text = format != Format.text || verbose || hex || printSummary || zStats != null;
        if (writeFile.equals("-") && text && !quiet) {
            return "-w - writes the capture to standard output, where the text of -P, -V, -x, -z or -T would mix into it";
        }
        if (!writeFile.equals("-") && !"-".equals(file.toString())) {
            try {
                Path out = Path.of(writeFile);
                if (java.nio.file.Files.exists(out) && java.nio.file.Files.isSameFile(out, file)) {
                    return "-w " + writeFile + " is the capture being read: write to another file";
                }
            } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
                return null; // opening it says what is wrong
            }
        }
        return null;
    }

    /** The stream -w writes to, or null after saying (tshark's wording) why the file cannot be opened. */
    private java.io.OutputStream openCopyTarget() {
        if (writeFile.equals("-")) return CaptureCopy.stdout();
        try {
            return new java.io.BufferedOutputStream(java.nio.file.Files.newOutputStream(Path.of(writeFile)), 1 << 16);
        } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
            String reason = e instanceof java.nio.file.NoSuchFileException ? "No such file or directory"
                    : e instanceof java.nio.file.AccessDeniedException ? "Permission denied"
                    : e instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason()
                    : e.getMessage();
            err.println("metaroce dissect: The file to which the capture would be saved (\"" + writeFile
                    + "\") could not be opened: " + reason + ".");
            return null;
        }
    }

    private picocli.CommandLine.ParameterException usage(String message) {
        return new picocli.CommandLine.ParameterException(spec.commandLine(), message);
    }

    /** -q: every worker keeps its own counts; they are merged at the end. */
    private void quietRun(PacketSource src, DissectorConfig config, DisplayFilter displayFilter, int workers,
                          AnalysisSession verdicts) throws InterruptedException {
        long[] budget = {count};
        long size = src.mapping().byteSize();
        List<QuietWorker> ws;
        try (ProgressBar bar = ProgressBar.open("dissect", null)) {
            ws = FramePipeline.run(src, workers, () -> new QuietWorker(config, displayFilter, budget, verdicts), r -> {
                if (bar != null) bar.update(src.recordOffset(), size);
                return true;
            });
        }
        if (onlyErrors) return;
        Summary total = new Summary(file);
        for (QuietWorker w : ws) total.merge(w.summary);
        try (ByteOut out = new ByteOut(System.out)) {
            total.print(out, src);
        }
    }

    private static final class QuietWorker implements FramePipeline.Worker<Object> {
        final Dissector dissector;
        final DisplayFilter filter;
        final Dissection d = new Dissection();
        final FrameFields ff = new FrameFields();
        final Summary summary;
        final long[] budget; // shared only when there is a single worker (-c)
        final AnalysisFrameFields analysis;

        QuietWorker(DissectorConfig config, DisplayFilter filter, long[] budget, AnalysisSession verdicts) {
            this.dissector = new Dissector(config);
            this.filter = filter;
            this.budget = budget;
            this.summary = new Summary(null);
            this.analysis = verdicts == null ? null : verdicts.frameFields();
        }

        @Override
        public Object process(FrameBatch batch) {
            for (int i = 0; i < batch.size() && budget[0] > 0; i++) {
                batch.dissect(i, dissector, d);
                if (analysis != null) analysis.attach(d);
                if (filter != null && !filter.matches(ff.of(d))) continue;
                if (budget[0] != Long.MAX_VALUE) budget[0]--;
                summary.frame(d, ff);
            }
            return null;
        }
    }

    /**
     * Output formats: workers render their batch into a buffer; the buffers are written in capture order.
     * Returns false when stdout was closed (a pipe to head): the run stops at the next batch, quietly.
     */
    private boolean outputRun(PacketSource src, DissectorConfig config, DisplayFilter displayFilter, List<FieldDef> selected,
                           FieldsOptions fo, int workers, AnalysisSession verdicts, CaptureCopy copy) throws InterruptedException {
        boolean array = format == Format.json;
        ByteOut stdout = new ByteOut(System.out);
        if (array) stdout.ch('[');
        if (format == Format.psml) TsharkOutputs.psmlHeader(stdout, preferences.columns());
        if (format == Format.pdml) TsharkOutputs.pdmlHeader(stdout, file == null ? null : file.toString());
        if (format == Format.fields && fo.header()) FieldsText.header(stdout, fields, fo);
        long[] remaining = {count};
        boolean[] first = {true};
        // The batches' buffers go round: a worker renders into one, this thread writes it out and hands it back.
        Queue<byte[]> spare = new ConcurrentLinkedQueue<>();
        FramePipeline.run(src, workers, () -> new OutputWorker(config, displayFilter, verdicts, spare, copy != null, out -> withStats(switch (format) {
            case text -> textSink(out, copy != null);
            case json, jsonl -> new FrameJson(out, array, selected.isEmpty() ? jsonProtocols() : selected)::frame;
            case fields -> new FieldsText(out, columns, fields, fo, time).names(names);
            case ek -> new TsharkOutputs.Ek(out, protocols, columns.length == 0 ? null : columns, fields, time).names(names);
            case pdml -> new TsharkOutputs.Pdml(out, protocols);
            case psml -> preferences.columns() != null ? new CustomColumns.Lines(out, preferences.columns(), time, CustomColumns.Layout.PSML).names(names)
                    : new TsharkOutputs.Psml(out, time).names(names);
            case tabs -> summaryLines(out, true);
        })), chunk -> {
            int[] ends = chunk.ends();
            if (copy != null && !writeCopies(copy, chunk.copies(), remaining[0])) return false;
            if (!array && remaining[0] >= ends.length && !flushEach) {
                // Every frame of the batch is shown and nothing goes between them: one write for all (from 64 KiB
                // on, ByteOut hands it to stdout without copying it into its own buffer).
                if (ends.length > 0) stdout.bytes(chunk.bytes(), 0, ends[ends.length - 1]);
                remaining[0] -= ends.length;
            } else {
                int start = 0;
                for (int k = 0; k < ends.length && remaining[0] > 0; k++) {
                    if (array) stdout.ascii(first[0] ? "\n  " : ",\n  ");
                    first[0] = false;
                    stdout.bytes(chunk.bytes(), start, ends[k] - start);
                    start = ends[k];
                    remaining[0]--;
                    if (flushEach) stdout.flush(); // -l: each frame as soon as it is written
                }
            }
            spare.offer(chunk.bytes()); // written out or copied: free for the next batch
            if (session != null) stdout.flush();
            return remaining[0] > 0 && !stdout.closed();
        });
        if (array) stdout.ascii(first[0] ? "]\n" : "\n]\n");
        if (format == Format.psml) TsharkOutputs.psmlTrailer(stdout);
        if (format == Format.pdml) TsharkOutputs.pdmlTrailer(stdout);
        stdout.flush();
        if (copy != null && copyFailed == null) {
            try {
                copy.close();
            } catch (java.io.IOException e) {
                copyFailed = e.getMessage();
            }
        }
        return !stdout.closed();
    }

    /** Why writing -w's file failed (the run stopped at that batch), or null. */
    private String copyFailed;

    /** -w: writes the batch's frames that are shown (at most {@code budget}); false after a failure (copyFailed). */
    private boolean writeCopies(CaptureCopy copy, List<CaptureCopy.Frame> frames, long budget) {
        try {
            for (int k = 0; k < frames.size() && k < budget; k++) copy.write(frames.get(k));
            return true;
        } catch (java.io.IOException | IllegalStateException e) {
            copyFailed = e.getMessage();
        }
        return false;
    }

    /**
     * The text output's sink, with tshark's rules: -V prints the tree; otherwise the summary line, unless -w or -x
     * (then only with -P); -x adds the hex dump after either. With nothing to print, a sink that prints nothing.
     */
    private FrameSink textSink(ByteOut out, boolean writing) {
        FrameSink base = verbose ? new TreeText(out, onlyProtocols == null ? null : java.util.Set.copyOf(onlyProtocols), names)
                : printSummary || (!writing && !hex) ? summaryLines(out, false) : null;
        if (quiet) return (d, ff) -> { };
        if (hex) return new HexDump(out, base, base != null && !verbose);
        if (base == null) return (d, ff) -> { };
        return base;
    }

    /** The one-line-per-frame output: the default columns, or -o gui.column.format's. */
    private FrameSink summaryLines(ByteOut out, boolean tabs) {
        if (preferences.columns() != null) {
            return new CustomColumns.Lines(out, preferences.columns(), time, tabs ? CustomColumns.Layout.TABS : CustomColumns.Layout.TEXT).names(names);
        }
        return new SummaryLines(out, time, tabs).names(names);
    }

    /** With -z, the sink counts the frames it is given too (each worker its own, merged at the end). */
    private FrameSink withStats(FrameSink sink) {
        if (zStats == null) return sink;
        ZStats z = new ZStats(sink, zTallies(), count);
        zWorkers.add(z);
        return z;
    }

    /** -t: the time column's format (index into SummaryLines.TIME_FORMATS) and decimals; null: the default. */
    private int[] time;
    /** -t's format without its decimals, for -z io,stat's first column (r by default). */
    private String ioTimeMode = "r";

    /**
     * The rendered frames of one batch and where each ends ({@code bytes} may be longer than the last end); with
     * -w also the frames shown, copied, to write.
     */
    record Chunk(byte[] bytes, int[] ends, List<CaptureCopy.Frame> copies) {}

    private static final class OutputWorker implements FramePipeline.Worker<Chunk> {
        final Dissector dissector;
        final DisplayFilter filter;
        final Dissection d = new Dissection();
        final FrameFields ff = new FrameFields();
        final GrowBuffer buffer;
        final ByteOut out;
        final FrameSink sink;
        /** -z: the statistics, which count the frames -Y hides too (tshark's taps see every frame). */
        final ZStats taps;
        final AnalysisFrameFields analysis;
        /** Time of the frame this worker showed last: with a single worker, the previous displayed frame. */
        long lastShownNanos = Long.MIN_VALUE;
        int[] ends = new int[FramePipeline.defaultBatch()];

        /** -w: the frames shown are copied for the writer. */
        final boolean copying;

        OutputWorker(DissectorConfig config, DisplayFilter filter, AnalysisSession verdicts, Queue<byte[]> spare,
                     boolean copying, java.util.function.Function<ByteOut, FrameSink> sinks) {
            this.copying = copying;
            this.buffer = new GrowBuffer(spare);
            this.out = new ByteOut(buffer);
            this.dissector = new Dissector(config);
            this.filter = filter;
            this.sink = sinks.apply(out);
            this.taps = sink instanceof ZStats z ? z : null;
            this.analysis = verdicts == null ? null : verdicts.frameFields();
        }

        @Override
        public Chunk process(FrameBatch batch) {
            out.flush();
            buffer.reset();
            long base = out.position();
            sink.batch(batch);
            List<CaptureCopy.Frame> copied = copying ? new ArrayList<>() : null;
            int k = 0;
            for (int i = 0; i < batch.size(); i++) {
                batch.dissect(i, dissector, d);
                if (analysis != null) analysis.attach(d);
                if (filter != null && !filter.matches(ff.of(d))) {
                    if (taps != null) taps.hidden(d, ff);
                    continue;
                }
                d.previousDisplayedNanos(lastShownNanos);
                lastShownNanos = d.timeNanos();
                sink.frame(d, ff.of(d));
                if (copied != null) copied.add(CaptureCopy.Frame.of(d));
                if (k == ends.length) ends = java.util.Arrays.copyOf(ends, k * 2);
                ends[k++] = (int) (out.position() - base);
            }
            out.flush();
            return new Chunk(buffer.take(), java.util.Arrays.copyOf(ends, k), copied);
        }
    }

    /**
     * An in-memory byte sink for one batch at a time. Its array is handed over as it is ({@link #take}, no copy:
     * dissect -T jsonl renders about 1 KB a frame, and copying each batch into an array of its own allocated as much
     * as the output, 99 MB on 100 k frames, and two young collections) and replaced by a spare one given back by
     * the writer.
     */
    static final class GrowBuffer extends java.io.OutputStream {
        private final Queue<byte[]> spare;
        private byte[] buf;
        private int size;

        GrowBuffer(Queue<byte[]> spare) {
            this.spare = spare;
            this.buf = fresh();
        }

        private byte[] fresh() {
            byte[] b = spare.poll();
            return b != null ? b : new byte[1 << 16];
        }

        @Override
        public void write(int b) {
            ensure(1);
            buf[size++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, size, len);
            size += len;
        }

        private void ensure(int n) {
            if (size + n > buf.length) buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
        }

        void reset() { size = 0; }

        /** The array holding what was written (and maybe more after it); writing goes on in a spare one. */
        byte[] take() {
            byte[] b = buf;
            buf = fresh();
            size = 0;
            return b;
        }
    }

    /**
     * -G [fields|protocols]: tshark's glossary layout. fields: for each protocol (header) a P line, then its fields as
     * F lines (label, name, tshark's type, protocol, base, mask, description); protocols: name, short name, filter
     * name. Every name is one -e and -Y take.
     */
    private int glossary() {
        boolean fieldsReport = glossary.equals("fields");
        if (!GLOSSARIES.containsKey(glossary)) {
            err.println("metaroce dissect: Invalid \"" + glossary + "\" option for -G flag (one of "
                    + String.join(", ", GLOSSARIES.keySet()) + ")");
            return 2;
        }
        if (!fieldsReport && !glossary.equals("protocols")) return otherGlossary();
        try (ByteOut out = new ByteOut(System.out)) {
            List<List<FieldDef>> byHeader = new ArrayList<>();
            for (int i = 0; i < io.metaroce.protocol.Spec.HEADERS.size(); i++) byHeader.add(new ArrayList<>());
            for (FieldDef f : FieldCatalog.get().fields()) byHeader.get(f.header()).add(f);
            for (io.metaroce.protocol.HeaderDef h : io.metaroce.protocol.Spec.HEADERS) {
                if (!fieldsReport) {
                    out.str(h.title()).ch('\t').str(h.id()).ch('\t').str(h.id()).ch('\n');
                    continue;
                }
                out.ascii("P\t").str(h.title()).ch('\t').str(h.id()).ch('\n');
                for (FieldDef f : byHeader.get(h.index())) {
                    // tshark's bitmask: a field that is not whole bytes is shown as a mask over the bytes that hold it.
                    long mask = f.mask();
                    int bits = f.bitWidth();
                    if (mask == 0 && f.bitWidth() > 0 && f.bitWidth() < 64 && (f.bitOffset() % 8 != 0 || f.bitWidth() % 8 != 0)) {
                        int first = f.bitOffset() / 8, end = (f.bitOffset() + f.bitWidth() + 7) / 8;
                        bits = (end - first) * 8;
                        mask = ((1L << f.bitWidth()) - 1) << (bits - (f.bitOffset() - first * 8) - f.bitWidth());
                    }
                    int width = ftypeWidth(bits);
                    String type = ftype(f, bits);
                    String base = f.type() == io.metaroce.protocol.ValueType.BOOL ? (mask == 0 ? "" : Integer.toString(width))
                            : f.type() != io.metaroce.protocol.ValueType.UINT ? ""
                            : f.display() == io.metaroce.protocol.Display.HEX ? "BASE_HEX" : "BASE_DEC";
                    String doc = f.doc() == null ? "" : f.doc().replaceAll("\\s+", " ").strip();
                    out.ascii("F\t").str(f.label()).ch('\t').str(f.name()).ch('\t').ascii(type).ch('\t').str(h.id()).ch('\t')
                            .ascii(base).ascii("\t0x").ascii(Long.toHexString(mask)).ch('\t').str(doc).ch('\n');
                }
            }
        }
        return 0;
    }

    /** -G's reports, each with what it prints (-G help lists them, as tshark's). */
    static final Map<String, String> GLOSSARIES = glossaries();

    private static Map<String, String> glossaries() {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        m.put("fields", "dump fields glossary and exit");
        m.put("protocols", "dump protocols in registration database and exit");
        m.put("fieldcount", "dump count of header fields and exit");
        m.put("values", "dump value strings and exit");
        m.put("ftypes", "dump field type basic and descriptive names");
        m.put("column-formats", "dump column format codes and exit");
        m.put("currentprefs", "dump current preferences and exit");
        m.put("defaultprefs", "dump default preferences and exit");
        m.put("help", "this list");
        return m;
    }

    /** tshark's field types that ours map onto, in tshark's order, with its descriptions (-G ftypes). */
    private static final String[][] FTYPES = {{"FT_PROTOCOL", "Protocol"}, {"FT_BOOLEAN", "Boolean"},
            {"FT_UINT8", "Unsigned integer (1 byte)"}, {"FT_UINT16", "Unsigned integer (2 bytes)"},
            {"FT_UINT24", "Unsigned integer (3 bytes)"}, {"FT_UINT32", "Unsigned integer (4 bytes)"},
            {"FT_UINT64", "Unsigned integer (8 bytes)"}, {"FT_RELATIVE_TIME", "Time offset"},
            {"FT_STRING", "Character string"}, {"FT_ETHER", "Ethernet or other MAC address"},
            {"FT_BYTES", "Byte sequence"}, {"FT_IPv4", "IPv4 address"}, {"FT_IPv6", "IPv6 address"}};

    /** The integer width tshark would give a field of that many bits: a computed field (frame.len, analysis.*) has no
     * width on the wire, 0 bits: a 64-bit number. */
    private static int ftypeWidth(int bits) {
        return bits == 0 ? 64 : bits <= 8 ? 8 : bits <= 16 ? 16 : bits <= 24 ? 24 : bits <= 32 ? 32 : 64;
    }

    /** A field's tshark type (FT_UINT24, ...), bits being the width of its bytes for a field that is not whole bytes. */
    private static String ftype(FieldDef f, int bits) {
        return switch (f.type()) {
            case UINT -> "FT_UINT" + ftypeWidth(bits);
            case BOOL -> "FT_BOOLEAN";
            case IPV4 -> "FT_IPv4";
            case IPV6 -> "FT_IPv6";
            case ETHER -> "FT_ETHER";
            case BYTES -> "FT_BYTES";
            case STRING -> "FT_STRING";
            case TIME -> "FT_RELATIVE_TIME"; // seconds, as tshark's frame.time_epoch and time_relative
        };
    }

    /**
     * -G fieldcount, values, ftypes, help in tshark's layouts: the count of fields and protocols; a V line per named
     * value of a field (field, value, name: our opcodes, enums, ...); the field types our fields use; the reports.
     */
    private int otherGlossary() {
        try (ByteOut out = new ByteOut(System.out)) {
            switch (glossary) {
                case "fieldcount" -> {
                    int protocols = io.metaroce.protocol.Spec.HEADERS.size();
                    out.ascii("There are ").num(FieldCatalog.get().fields().size() + protocols)
                            .ascii(" header fields registered, of which:\n\t0 are deregistered\n\t").num(protocols)
                            .ascii(" are protocols\n\t0 have the same name as another field\n\n");
                }
                case "values" -> {
                    for (FieldDef f : FieldCatalog.get().fields()) {
                        if (f.enumDef() == null) continue;
                        for (io.metaroce.protocol.EnumValueDef v : f.enumDef().values()) {
                            out.ascii("V\t").str(f.name()).ch('\t').num(v.value()).ch('\t').str(v.label()).ch('\n');
                        }
                    }
                }
                case "ftypes" -> {
                    for (String[] t : FTYPES) out.ascii(t[0]).ch('\t').ascii(t[1]).ch('\n');
                }
                case "column-formats" -> DissectPreferences.columnFormats(out);
                case "defaultprefs", "currentprefs" -> preferences.write(out, glossary.equals("currentprefs"));
                default -> {
                    out.ascii("Usage: metaroce dissect -G [report]\n\nGlossary table reports:\n");
                    for (var e : GLOSSARIES.entrySet()) {
                        out.ascii(String.format(java.util.Locale.ROOT, "  -G %-22s", e.getKey())).ascii(e.getValue()).ch('\n');
                    }
                }
            }
        }
        return 0;
    }

    private void listFields() {
        try (ByteOut out = new ByteOut(System.out)) {
            for (FieldDef f : FieldCatalog.get().fields()) {
                out.str(f.name()).ch('\t').ascii(f.type().name().toLowerCase()).ch('\t').str(f.label());
                List<String> aliases = f.aliases().stream().filter(a -> !a.equals(f.name())).toList();
                if (!aliases.isEmpty()) out.ascii("\t(alias: ").str(String.join(", ", aliases)).ch(')');
                out.ch('\n');
            }
            // -e's names beyond the catalogue (not for -Y): the summary's columns and frame.time, as tshark's.
            for (String[] p : TsharkOutputs.PSEUDO_FIELDS) out.str(p[0]).ch('\t').ascii(p[1]).ch('\t').str(p[2]).ch('\n');
        }
    }

    /** Receives the frames that pass the filter. */
    interface FrameSink {
        /** Called before each batch of frames. */
        default void batch(FrameBatch batch) {}
        void frame(Dissection d, FrameFields ff);
    }

    record FieldsOptions(boolean header, String separator, String aggregator, char quote) {
        static FieldsOptions parse(List<String> opts) {
            boolean header = false;
            String sep = "\t", agg = ",";
            char quote = 0;
            for (String o : opts) {
                int eq = o.indexOf('=');
                if (eq < 0) throw new IllegalArgumentException("-E expects KEY=VALUE, got '" + o + "'");
                String k = o.substring(0, eq), v = o.substring(eq + 1);
                // A value outside the documented ones is an error, as in tshark (which refuses header=maybe, quote=z
                // and an empty separator); before, header=maybe was taken as n, quote=z as n, separator=xx as "xx".
                switch (k) {
                    case "header" -> header = switch (v) {
                        case "y" -> true;
                        case "n" -> false;
                        default -> throw badValue(o, "y or n");
                    };
                    case "separator" -> sep = character(o, v);
                    case "aggregator" -> agg = character(o, v);
                    case "quote" -> quote = switch (v) {
                        case "d" -> '"';
                        case "s" -> '\'';
                        case "n" -> 0;
                        default -> throw badValue(o, "d, s or n");
                    };
                    default -> throw new IllegalArgumentException("unknown -E option '" + k + "'");
                }
            }
            return new FieldsOptions(header, sep, agg, quote);
        }

        /** A separator or aggregator: /t (tab), /s (space) or one character. */
        private static String character(String option, String v) {
            if (v.equals("/t")) return "\t";
            if (v.equals("/s")) return " ";
            if (v.codePointCount(0, v.length()) != 1) throw badValue(option, "/t, /s or one character");
            return v;
        }

        private static IllegalArgumentException badValue(String option, String expected) {
            return new IllegalArgumentException("bad -E value '" + option + "': expected " + expected);
        }
    }

    /** -T fields. */
    static final class FieldsText implements FrameSink {
        private final ByteOut out;
        /** Per column: a catalogue field or a {@link TsharkOutputs.Pseudo} (_ws.col.Info, frame.time, ...). */
        private final Object[] fields;
        /** Per column: tshark's print format when the field was named by a Wireshark name, else null. */
        private final String[] tshark;
        private final FieldsOptions o;
        private final TsharkOutputs.Columns columns;

        FieldsText(ByteOut out, List<FieldDef> fields, List<String> names, FieldsOptions o) {
            this(out, fields.toArray(), names, o, null);
        }

        /** @param time -t/-u's format for _ws.col.Time (null: the default) */
        FieldsText(ByteOut out, Object[] fields, List<String> names, FieldsOptions o, int[] time) {
            this.out = out;
            this.fields = fields;
            this.tshark = names.stream().map(FieldCatalog::tsharkDisplay).toArray(String[]::new);
            this.o = o;
            this.columns = new TsharkOutputs.Columns(out, time);
        }

        @Override
        public void batch(FrameBatch batch) { columns.batch(batch); }

        FieldsText names(NameResolver r) {
            columns.names(r, o.aggregator());
            return this;
        }

        /** The header row names the columns as they were asked for, as tshark does. */
        static void header(ByteOut out, List<String> names, FieldsOptions o) {
            for (int i = 0; i < names.size(); i++) {
                if (i > 0) out.str(o.separator());
                out.str(names.get(i));
            }
            out.ch('\n');
        }

        @Override
        public void frame(Dissection d, FrameFields ff) {
            for (int i = 0; i < fields.length; i++) {
                if (i > 0) out.str(o.separator());
                if (!(fields[i] instanceof FieldDef f)) {
                    if (o.quote() != 0) out.ch(o.quote());
                    columns.write(out, (TsharkOutputs.Pseudo) fields[i], d);
                    if (o.quote() != 0) out.ch(o.quote());
                    continue;
                }
                int n = ff.count(f);
                if (n > 0 && o.quote() != 0) out.ch(o.quote());
                FieldFormat.occurrences(out, ff, f, tshark[i], o.aggregator());
                if (n > 0 && o.quote() != 0) out.ch(o.quote());
            }
            out.ch('\n');
        }
    }
}

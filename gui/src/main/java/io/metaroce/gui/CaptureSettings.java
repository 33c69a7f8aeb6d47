package io.metaroce.gui;

import io.metaroce.capture.live.CaptureLimits;
import io.metaroce.capture.live.LiveFileWriter;
import io.metaroce.capture.live.LiveSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * What the next capture does, shared by the capture toolbar and Capture > Options... (Wireshark keeps it in its
 * {@code recent} and preferences files; here a {@code capture} file of {@code name: value} lines beside
 * {@code colorfilters}, written when a capture starts). The numbers are kept as the user typed them and turned into
 * {@code metaroce capture}'s {@code -b}/{@code -a}/{@code -c} specs by {@link #plan()}, so that the GUI refuses
 * what the CLI refuses, with the same words ({@link CaptureLimits}).
 */
final class CaptureSettings {
    /** The interfaces, as typed in the toolbar: one name, or several separated by commas (several -i). */
    final StringProperty interfaces = new SimpleStringProperty("");
    final StringProperty filter = new SimpleStringProperty(LiveSettings.DEFAULT_FILTER);
    String snapLength = Integer.toString(LiveSettings.DEFAULT_SNAPLEN);
    String bufferMiB = Integer.toString(LiveSettings.DEFAULT_BUFFER_MIB);
    boolean promiscuous = true;
    /** The output file (-w), or empty for a temporary file. */
    String output = "";
    /** Output format: pcapng (Wireshark's capture.pcap_ng), else classic pcap (dumpcap -P). */
    boolean pcapng = true;
    /** Ring buffer (-b): a new file after kB / seconds, keep N files; empty: not set. */
    String ringKB = "", ringSeconds = "", ringFiles = "";
    /** Stop conditions: -c packets, -a duration / filesize / files; empty: not set. */
    String stopPackets = "", stopSeconds = "", stopKB = "", stopFiles = "";
    /** Wireshark's "Update list of packets in real time" (a ring buffer turns it off: the file under the list changes). */
    boolean realTime = true;

    /**
     * A capture ready to start: the interfaces' settings (the -c count in its packet limit), the file to write
     * (null: a temporary one), the ring and the stop conditions.
     */
    record Plan(LiveSettings live, Path output, LiveFileWriter.Ring ring, CaptureLimits.Autostop stop, boolean realTime, boolean pcap) {
        String interfaceNames() { return String.join(", ", live.interfaces()); }
    }

    /** The settings as a capture, or IllegalArgumentException with the message for the user (the CLI's words). */
    Plan plan() {
        List<String> names = names(interfaces.get());
        if (names.isEmpty()) throw new IllegalArgumentException("Choose the interface to capture on.");
        List<String> ringSpecs = new ArrayList<>(), stopSpecs = new ArrayList<>();
        spec(ringSpecs, "filesize", ringKB);
        spec(ringSpecs, "duration", ringSeconds);
        spec(ringSpecs, "files", ringFiles);
        spec(stopSpecs, "duration", stopSeconds);
        spec(stopSpecs, "filesize", stopKB);
        spec(stopSpecs, "files", stopFiles);
        LiveFileWriter.Ring ring = CaptureLimits.ring(ringSpecs);
        CaptureLimits.Autostop stop = CaptureLimits.autostop(stopSpecs);
        long count = 0;
        if (!stopPackets.isBlank()) {
            try {
                count = Long.parseLong(stopPackets.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-c " + stopPackets.strip() + ": not a number");
            }
            String why = CaptureLimits.countProblem(count);
            if (why != null) throw new IllegalArgumentException(why);
        }
        String out = output.strip();
        if (out.isEmpty() && (ring.rotates() || stop.files() > 0)) {
            throw new IllegalArgumentException("a ring buffer (-b) needs a file: choose one under Output");
        }
        String conflict = CaptureLimits.outputProblem(ring, stop, out.isEmpty() ? null : out);
        if (conflict != null) throw new IllegalArgumentException(conflict);
        String f = filter.get() == null || filter.get().isBlank() ? null : filter.get().strip();
        LiveSettings live = new LiveSettings(names, f, integer("-s", snapLength), integer("-B", bufferMiB), promiscuous,
                false, LiveSettings.DEFAULT_QUEUE, count);
        return new Plan(live, out.isEmpty() ? null : Path.of(out), ring, stop, realTime && !ring.rotates(), !pcapng);
    }

    /** "a, b c" -> [a, b, c]: the toolbar's field takes several interfaces. */
    static List<String> names(String typed) {
        List<String> out = new ArrayList<>();
        if (typed == null) return out;
        for (String n : typed.split("[,\\s]+")) if (!n.isBlank() && !out.contains(n)) out.add(n);
        return out;
    }

    private static void spec(List<String> specs, String key, String value) {
        if (value != null && !value.isBlank()) specs.add(key + ":" + value.strip());
    }

    private static int integer(String option, String value) {
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " " + value.strip() + ": not a number");
        }
    }

    /** Takes every value of from (a profile switch: the toolbar's fields stay bound to these properties). */
    void setAll(CaptureSettings from) {
        interfaces.set(from.interfaces.get());
        filter.set(from.filter.get());
        snapLength = from.snapLength;
        bufferMiB = from.bufferMiB;
        promiscuous = from.promiscuous;
        output = from.output;
        pcapng = from.pcapng;
        ringKB = from.ringKB;
        ringSeconds = from.ringSeconds;
        ringFiles = from.ringFiles;
        stopPackets = from.stopPackets;
        stopSeconds = from.stopSeconds;
        stopKB = from.stopKB;
        stopFiles = from.stopFiles;
        realTime = from.realTime;
    }

    // ------------------------------------------------------------------ the capture file beside colorfilters

    /** The settings file beside the coloring rules (Wireshark's profile folder). */
    static Path fileBeside(Path coloringFile) {
        return coloringFile.resolveSibling("capture");
    }

    /** The settings of file; the defaults for a missing or unreadable file or an unknown line. */
    static CaptureSettings load(Path file) {
        CaptureSettings s = new CaptureSettings();
        if (file == null || !Files.isRegularFile(file)) return s;
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | java.io.UncheckedIOException e) {
            return s;
        }
        for (String line : lines) {
            int c = line.indexOf(':');
            if (line.startsWith("#") || c < 0) continue;
            String v = line.substring(c + 1).strip();
            switch (line.substring(0, c).strip()) {
                case "capture.interfaces" -> s.interfaces.set(v);
                case "capture.filter" -> s.filter.set(v);
                case "capture.snaplen" -> s.snapLength = v;
                case "capture.buffer_mib" -> s.bufferMiB = v;
                case "capture.promiscuous" -> s.promiscuous = !v.equalsIgnoreCase("FALSE");
                case "capture.output" -> s.output = v;
                case "capture.pcap_ng" -> s.pcapng = !v.equalsIgnoreCase("FALSE");
                case "capture.ring.filesize_kb" -> s.ringKB = v;
                case "capture.ring.duration_s" -> s.ringSeconds = v;
                case "capture.ring.files" -> s.ringFiles = v;
                case "capture.stop.packets" -> s.stopPackets = v;
                case "capture.stop.duration_s" -> s.stopSeconds = v;
                case "capture.stop.filesize_kb" -> s.stopKB = v;
                case "capture.stop.files" -> s.stopFiles = v;
                case "capture.real_time" -> s.realTime = !v.equalsIgnoreCase("FALSE");
                default -> { }     // a newer version's key: ignored
            }
        }
        return s;
    }

    /** Writes the settings (Wireshark's preference style: {@code name: value}, TRUE/FALSE). */
    void save(Path file) throws IOException {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("capture.interfaces", interfaces.get());
        m.put("capture.filter", filter.get());
        m.put("capture.snaplen", snapLength);
        m.put("capture.buffer_mib", bufferMiB);
        m.put("capture.promiscuous", promiscuous ? "TRUE" : "FALSE");
        m.put("capture.output", output);
        m.put("capture.pcap_ng", pcapng ? "TRUE" : "FALSE");
        m.put("capture.ring.filesize_kb", ringKB);
        m.put("capture.ring.duration_s", ringSeconds);
        m.put("capture.ring.files", ringFiles);
        m.put("capture.stop.packets", stopPackets);
        m.put("capture.stop.duration_s", stopSeconds);
        m.put("capture.stop.filesize_kb", stopKB);
        m.put("capture.stop.files", stopFiles);
        m.put("capture.real_time", realTime ? "TRUE" : "FALSE");
        StringBuilder b = new StringBuilder("# Capture settings of the MetaRoCE Analyzer (Capture > Options...)\n");
        for (var e : m.entrySet()) b.append(e.getKey()).append(": ").append(e.getValue() == null ? "" : e.getValue().replace('\n', ' ')).append('\n');
        if (file.getParent() != null) Files.createDirectories(file.getParent());
        Files.writeString(file, b, StandardCharsets.UTF_8);
    }
}

package io.metaroce.cli;

import io.metaroce.capture.CaptureStats;
import io.metaroce.capture.PacketSource;
import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.ExpertItem;
import io.metaroce.dissector.FrameFields;
import io.metaroce.protocol.OpcodeDef;
import io.metaroce.protocol.Spec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** -q: frames, bytes, protocol and opcode counts, ICRC verdicts and expert items, in one report. */
final class Summary implements DissectCommand.FrameSink {
    private final Path file;
    private long frames, bytes, first = Long.MAX_VALUE, last = Long.MIN_VALUE, truncated;
    private final long[] protocolCounts = new long[Spec.HEADERS.size()];
    private final long[] opcodeCounts = new long[1024]; // RoCEv2, MetaRoCE, RoCEv1 (EtherType 0x8915), native InfiniBand
    private final long[] icrc = new long[4];
    /** Expert items grouped by severity, group and message with its numbers blanked; the first message is kept as the example. */
    private final Map<String, ExpertGroup> expert = new LinkedHashMap<>();

    private static final class ExpertGroup {
        final ExpertItem example;
        final long firstFrame;
        long count;

        ExpertGroup(ExpertItem example, long firstFrame) {
            this.example = example;
            this.firstFrame = firstFrame;
        }
    }
    private long expertTotal;

    Summary(Path file) {
        this.file = file;
    }

    /** Adds another worker's counts (workers see disjoint frames). */
    void merge(Summary o) {
        frames += o.frames;
        bytes += o.bytes;
        first = Math.min(first, o.first);
        last = Math.max(last, o.last);
        truncated += o.truncated;
        expertTotal += o.expertTotal;
        for (int i = 0; i < protocolCounts.length; i++) protocolCounts[i] += o.protocolCounts[i];
        for (int i = 0; i < opcodeCounts.length; i++) opcodeCounts[i] += o.opcodeCounts[i];
        for (int i = 0; i < icrc.length; i++) icrc[i] += o.icrc[i];
        for (var e : o.expert.entrySet()) {
            ExpertGroup mine = expert.get(e.getKey());
            ExpertGroup theirs = e.getValue();
            if (mine == null) {
                if (expert.size() < 1000) expert.put(e.getKey(), theirs);
            } else if (theirs.firstFrame < mine.firstFrame) {
                ExpertGroup g = new ExpertGroup(theirs.example, theirs.firstFrame);
                g.count = mine.count + theirs.count;
                expert.put(e.getKey(), g);
            } else {
                mine.count += theirs.count;
            }
        }
    }

    @Override
    public void frame(Dissection d, FrameFields ff) {
        frames++;
        bytes += d.originalLength();
        first = Math.min(first, d.timeNanos());
        last = Math.max(last, d.timeNanos());
        if (d.truncated()) truncated++;
        for (int i = 0; i < d.layerCount(); i++) protocolCounts[d.layerHeader(i)]++;
        if (d.isRoce() && d.tver() >= 0 && d.tver() <= 1) opcodeCounts[(d.hasLayer(io.metaroce.protocol.Lrh.HEADER) ? 768
                : d.isRoceV1() ? 512 : d.tver() * 256) + d.opcodeValue()]++;
        icrc[d.icrcStatus().ordinal()]++;
        for (ExpertItem e : d.expert()) {
            expertTotal++;
            // Group messages that differ only in numbers, so 10,000 bad ICRCs are one line.
            String key = e.severity() + "/" + e.group() + "/" + e.message().replaceAll("0x[0-9a-f]+|\\d+", "N");
            ExpertGroup g = expert.get(key);
            if (g == null) {
                if (expert.size() >= 1000) continue;
                expert.put(key, g = new ExpertGroup(e, d.number()));
            }
            g.count++;
        }
    }

    void print(ByteOut out, PacketSource src) {
        out.ascii("Capture: ").str(file.toString()).ascii(" (").ascii(src.format().name().toLowerCase()).ascii(")\n");
        out.ascii("Frames: ").num(frames).ascii(", bytes: ").num(bytes);
        if (frames > 0) {
            double secs = (last - first) / 1e9;
            out.ascii(", duration: ").ascii(String.format("%.6f s", secs));
        }
        out.ch('\n');
        CaptureStats st = src.stats();
        if (st.totalIfDropped() > 0) out.ascii("Capture drops reported by the file: ").num(st.totalIfDropped()).ch('\n');
        if (truncated > 0) out.ascii("Frames cut by the snap length: ").num(truncated).ch('\n');
        out.ascii("\nProtocols:\n");
        for (int i = 0; i < protocolCounts.length; i++) {
            if (protocolCounts[i] == 0) continue;
            String id = Spec.HEADERS.get(i).id();
            out.ascii("  ").ascii(id);
            for (int k = id.length(); k < 14; k++) out.ch(' ');
            out.num(protocolCounts[i]).ch('\n');
        }
        Map<String, Long> ops = new TreeMap<>();
        for (int i = 0; i < opcodeCounts.length; i++) {
            if (opcodeCounts[i] == 0) continue;
            OpcodeDef def = (i < 256 || i >= 512 ? Spec.OPCODES_TVER0 : Spec.OPCODES_TVER1).get(i & 0xFF);
            String name = (i < 256 ? "RoCEv2   " : i < 512 ? "MetaRoCE " : i < 768 ? "RoCEv1   " : "IB       ")
                    + (def == null ? "unknown 0x" + Integer.toHexString(i & 0xFF) : def.label());
            ops.merge(name, opcodeCounts[i], Long::sum);
        }
        if (!ops.isEmpty()) {
            out.ascii("\nOpcodes:\n");
            // Counts in one right-aligned column after the longest name.
            int name = ops.keySet().stream().mapToInt(String::length).max().orElse(0);
            int digits = ops.values().stream().mapToInt(v -> Long.toString(v).length()).max().orElse(1);
            for (var e : ops.entrySet()) {
                out.ascii("  ").str(e.getKey());
                int pad = name - e.getKey().length() + 2 + digits - Long.toString(e.getValue()).length();
                for (int k = 0; k < pad; k++) out.ch(' ');
                out.num(e.getValue()).ch('\n');
            }
        }
        out.ascii("\nICRC: good ").num(icrc[0]).ascii(", bad ").num(icrc[1]).ascii(", unchecked ").num(icrc[2]).ch('\n');
        out.ascii("\nExpert items: ").num(expertTotal).ch('\n');
        List<ExpertGroup> groups = new ArrayList<>(expert.values());
        groups.sort(java.util.Comparator.comparingLong(g -> g.firstFrame));
        for (ExpertGroup g : groups) {
            out.ascii("  ").ascii(g.example.severity().label()).ascii(" (").ascii(g.example.group().name().toLowerCase())
                    .ascii(") x").num(g.count).ascii(", first in frame ").num(g.firstFrame).ascii(": ").str(g.example.message()).ch('\n');
        }
    }
}

package io.metaroce.cli;

import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.LinkTypes;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.PacketSource;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What merge, edit, reorder and info share: the output file types (Wireshark's -F names), problems, same-file checks. */
final class CaptureTools {
    private CaptureTools() {}

    /** The file types merge and edit write, by the names mergecap's and editcap's {@code -F} take. */
    enum FileType {
        pcap(CaptureFormat.PCAP_US), nsecpcap(CaptureFormat.PCAP_NS), pcapng(CaptureFormat.PCAPNG);

        final CaptureFormat format;

        FileType(CaptureFormat format) {
            this.format = format;
        }

        /** The name of a file's type, as capinfos' table says it. */
        static FileType of(CaptureFormat f) {
            return f == CaptureFormat.PCAP_US ? pcap : f == CaptureFormat.PCAP_NS ? nsecpcap : pcapng;
        }
    }

    /** The link types edit -T takes, by Wireshark's short names (InfoCommand's). */
    private static final int[] LINK_TYPES = {LinkTypes.ETHERNET, LinkTypes.RAW, LinkTypes.IPV4, LinkTypes.IPV6, LinkTypes.LINUX_SLL,
            LinkTypes.LINUX_SLL2, LinkTypes.NULL, LinkTypes.USER0, LinkTypes.INFINIBAND};

    /** The LINKTYPE_* of an encapsulation's short name (editcap -T's), -2 when it is none of ours. */
    static int linkType(String name) {
        for (int t : LINK_TYPES) {
            if (InfoCommand.encapsulationShort(t).equals(name.strip())) return t;
        }
        return -2;
    }

    /** The names {@link #linkType} knows, for its message. */
    static String encapsulationNames() {
        List<String> names = new java.util.ArrayList<>();
        for (int t : LINK_TYPES) names.add(InfoCommand.encapsulationShort(t));
        return String.join(", ", names);
    }

    /** The current frame's comments; the common frame without one costs a null check. */
    static List<String> comments(PacketSource s) {
        return s.comment() == null ? List.of() : s.comments();
    }

    /**
     * Prints what was found damaged in a source (the frames before the damage were used) and says whether there
     * was any: each a line "metaroce CMD: FILE: problem", the problem naming its byte offset.
     */
    static boolean reportProblems(PrintStream err, String command, Path file, PacketSource s) {
        List<CaptureProblem> problems = s.problems();
        for (CaptureProblem p : problems) {
            err.println(FrontDoor.printable("metaroce " + command + ": " + file + ": " + p.message()));
        }
        return !problems.isEmpty();
    }

    /**
     * The input of a command that copies frames from input to output (edit, reorder), opened after the checks they
     * share: output is not the input and can be written, the input is a capture. Null after one line on err (exit 2).
     */
    static PacketSource openCopy(PrintStream err, String command, Path input, Path output) {
        if (sameFile(input, output)) {
            err.println(FrontDoor.printable("metaroce " + command + ": " + output + " is the input (it would be overwritten while read)"));
            return null;
        }
        String why = OutputFiles.unwritable(output);
        if (why != null) {
            err.println(FrontDoor.printable("metaroce " + command + ": cannot write " + output + ": " + why));
            return null;
        }
        try {
            return io.metaroce.capture.CaptureFiles.open(input);
        } catch (io.metaroce.capture.CaptureException e) {
            err.println(FrontDoor.printable("metaroce " + command + ": " + e.getMessage()));
            return null;
        }
    }

    /** Whether two paths are the same file (an output that would overwrite an input), false when either cannot be told. */
    static boolean sameFile(Path a, Path b) {
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }
}

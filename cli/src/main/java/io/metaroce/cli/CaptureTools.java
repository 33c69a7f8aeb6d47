package io.metaroce.cli;

import io.metaroce.capture.CaptureFormat;
import io.metaroce.capture.CaptureOutput;
import io.metaroce.capture.CaptureProblem;
import io.metaroce.capture.PacketSource;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What merge, edit and info share: the output file types (Wireshark's -F names) and copying a source's current frame. */
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

    /**
     * Writes the source's current frame, cut to {@code snapLength} (0: as it is), with its packet comments.
     * No copy: from the file mapping when the source has one.
     */
    static void copy(PacketSource s, CaptureOutput.Input in, CaptureOutput out, long timestampNanos, int snapLength) throws IOException {
        int length = s.capturedLength();
        if (snapLength > 0 && length > snapLength) length = snapLength;
        MemorySegment data = s.mapping();
        long offset = s.dataOffset();
        if (data == null) {
            data = s.data();
            offset = 0;
        }
        out.write(in.outputInterface(), timestampNanos, data, offset, length, s.originalLength(), comments(s));
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

    /** Whether two paths are the same file (an output that would overwrite an input), false when either cannot be told. */
    static boolean sameFile(Path a, Path b) {
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }
}

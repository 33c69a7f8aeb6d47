package io.metaroce.cli;

import io.metaroce.capture.CaptureException;
import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.CaptureOutput;
import io.metaroce.capture.PacketSource;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce edit IN OUT [RANGE...]}: editcap. Frames are selected by number (deleted by default, kept with
 * {@code -r}) and by time ({@code -A}/{@code -B}), then cut ({@code -s}, {@code -C}), shifted ({@code -t}), checked
 * for duplicates ({@code -d}/{@code -D}), and written to OUT, or to numbered files ({@code -c}/{@code -i}) named as
 * editcap names them: {@code OUT_00000_YYYYmmddHHMMSS.ext}. One pass, memory bounded (the duplicate window holds at
 * most {@value #MAX_DUP_WINDOW} hashes).
 */
@Command(name = "edit", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = "Select, cut, shift, de-duplicate or split the frames of a capture (as editcap).",
        footer = {"", "RANGE: N, A-B or A- (frame numbers from 1); deleted, or with -r the ones kept.",
                "Times: 'YYYY-MM-DD HH:MM:SS[.nnnnnnnnn]' (local time) or seconds since 1970.", "",
                "Examples:", "  metaroce edit -r big.pcapng first.pcapng 1-1000",
                "  metaroce edit -A '2026-01-01 00:00:00' -B '2026-01-01 00:01:00' \\",
                "      big.pcapng minute.pcapng",
                "  metaroce edit -c 100000 big.pcapng part.pcapng",
                "  metaroce edit -s 128 -D 5 big.pcapng headers.pcapng"})
public final class EditCommand implements Callable<Integer> {
    /** editcap's largest -D. */
    static final int MAX_DUP_WINDOW = 1_000_000;

    @Spec(Spec.Target.SELF)
    CommandSpec spec;

    @Mixin
    StandardOptions standard;

    @Mixin
    StandardOptions.NoVerbose noVerbose;

    @Parameters(index = "0", paramLabel = "IN", description = "the capture to read")
    Path input;

    @Parameters(index = "1", paramLabel = "OUT", description = "the capture to write (with -c or -i: the first part of the names)")
    Path output;

    @Parameters(index = "2..*", paramLabel = "RANGE", description = "frames to delete (with -r: to keep)")
    List<String> ranges = new ArrayList<>();

    @Option(names = "-r", description = "keep the frames of the ranges, delete the others")
    boolean keep;

    @Option(names = "-A", paramLabel = "START", description = "only frames at or after START")
    String start;

    @Option(names = "-B", paramLabel = "STOP", description = "only frames before STOP")
    String stop;

    @Option(names = "-c", paramLabel = "N", description = "split: N frames per output file")
    Integer perFile;

    @Option(names = "-i", paramLabel = "SECONDS", description = "split: one output file per SECONDS of capture time")
    String interval;

    @Option(names = "-s", paramLabel = "SNAPLEN", description = "cut frames to SNAPLEN bytes")
    Integer snapLength;

    @Option(names = "-C", paramLabel = "[OFFSET:]CHOP",
            description = "chop CHOP bytes from the start of each frame (from OFFSET on), or -CHOP bytes from its end")
    String chop;

    @Option(names = "-t", paramLabel = "DELTA", description = "add DELTA seconds (may be negative) to every timestamp")
    String shift;

    @Option(names = "-d", description = "remove duplicates of the 4 frames before (as -D 5)")
    boolean dedup;

    @Option(names = "-D", paramLabel = "N", description = "remove a frame whose bytes (MD5) equal one of the N-1 frames before")
    Integer dupWindow;

    @Option(names = "-F", paramLabel = "TYPE", description = "the file type to write: pcapng (default, as editcap's, whatever the input), pcap or nsecpcap")
    CaptureTools.FileType type = CaptureTools.FileType.pcapng;

    private final List<long[]> selected = new ArrayList<>();
    private int chopOffset, chopLength;

    @Override
    public Integer call() {
        PrintStream err = System.err;
        long startNanos = start == null ? Long.MIN_VALUE : time("-A", start);
        long stopNanos = stop == null ? Long.MAX_VALUE : time("-B", stop);
        long shiftNanos = shift == null ? 0 : seconds("-t", shift, true);
        long intervalNanos = interval == null ? 0 : seconds("-i", interval, false);
        if (interval != null && intervalNanos <= 0) throw bad("-i must be more than 0 seconds, not '" + interval + "'");
        if (perFile != null && perFile < 1) throw bad("-c must be at least 1, not " + perFile);
        if (perFile != null && interval != null) throw bad("-c and -i both split: give one");
        if (snapLength != null && snapLength < 1) throw bad("-s must be at least 1, not " + snapLength);
        if (dupWindow != null && (dupWindow < 0 || dupWindow > MAX_DUP_WINDOW)) {
            throw bad("-D must be from 0 to " + MAX_DUP_WINDOW + ", not " + dupWindow);
        }
        if (dedup && dupWindow != null) throw bad("-d and -D both remove duplicates: give one");
        if (chop != null) parseChop(chop);
        for (String r : ranges) parseRange(r);
        int window = dedup ? 5 : dupWindow == null ? 0 : dupWindow;
        if (CaptureTools.sameFile(input, output)) {
            err.println(FrontDoor.printable("metaroce edit: " + output + " is the input (it would be overwritten while read)"));
            return 2;
        }
        String why = OutputFiles.unwritable(output);
        if (why != null) {
            err.println(FrontDoor.printable("metaroce edit: cannot write " + output + ": " + why));
            return 2;
        }
        PacketSource s;
        try {
            s = CaptureFiles.open(input);
        } catch (CaptureException e) {
            err.println(FrontDoor.printable("metaroce edit: " + e.getMessage()));
            return 2;
        }
        try (s) {
            Run run = new Run(s, type, window, intervalNanos);
            try {
                while (s.next()) {
                    long t = s.timestampNanos();
                    // editcap: a frame inside -A/-B, and whose number is in a range with -r (outside one without).
                    if (t < startNanos || t >= stopNanos || isSelected(s.frameNumber()) != keep) continue;
                    run.frame(t + shiftNanos);
                }
            } finally {
                run.close();
            }
            boolean damaged = CaptureTools.reportProblems(err, "edit", input, s);
            err.println(FrontDoor.printable("metaroce edit: " + run.written + " of " + s.stats().framesRead() + " frames written to "
                    + (run.files == 1 ? run.name.toString() : run.files + " files, " + run.first + " to " + run.name)
                    + (run.duplicates > 0 ? " (" + run.duplicates + " duplicates removed)" : "")));
            return damaged ? 2 : 0;
        } catch (CaptureOutput.MixedLinkTypes e) {
            err.println(FrontDoor.printable("metaroce edit: cannot write " + output + ": " + e.getMessage()));
            return 2;
        } catch (IOException e) {
            err.println(FrontDoor.printable("metaroce edit: " + OutputFiles.failure(e)));
            return 2;
        } catch (IllegalArgumentException e) {
            // A shifted timestamp the output type cannot hold (before 1970, past pcap's 32-bit seconds).
            err.println(FrontDoor.printable("metaroce edit: cannot write " + output + ": " + e.getMessage()));
            return 2;
        }
    }

    /** One pass's output: the current file, the split, the chop buffer and the duplicate window. */
    private final class Run {
        final PacketSource s;
        final CaptureTools.FileType fileType;
        final long intervalNanos;
        final MessageDigest md5;
        final byte[][] recent;
        final int[] recentLength;
        final byte[] digest = new byte[16];
        int recentNext;
        byte[] buffer = new byte[0];
        CaptureOutput out;
        CaptureOutput.Input in;
        Path name, first;
        long written, inFile, duplicates, blockEnd;
        int files;

        Run(PacketSource s, CaptureTools.FileType written, int window, long intervalNanos) {
            this.s = s;
            this.fileType = written;
            this.intervalNanos = intervalNanos;
            try {
                md5 = window > 1 ? MessageDigest.getInstance("MD5") : null;
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("MD5 is part of every Java runtime", e);
            }
            // -D 1 (or 0): the window holds the current frame only, so nothing is a duplicate (editcap's -D 0 and 1 too).
            recent = window > 1 ? new byte[window - 1][] : null;
            recentLength = window > 1 ? new int[window - 1] : null;
        }

        void frame(long t) throws IOException {
            int length = s.capturedLength();
            long original = s.originalLength();
            if (snapLength != null && length > snapLength) length = snapLength;
            MemorySegment data = s.mapping();
            long offset = s.dataOffset();
            if (data == null) {
                data = s.data();
                offset = 0;
            }
            if (chopLength != 0) {
                // editcap's chop: CHOP > 0 takes bytes from OFFSET on (a negative OFFSET counts from the end), CHOP < 0
                // the bytes that end at OFFSET (0 or negative: counted from the end). The wire length stays.
                int from, to;
                if (chopLength > 0) {
                    from = clamp(chopOffset >= 0 ? chopOffset : length + chopOffset, length);
                    to = clamp((long) from + chopLength, length);
                } else {
                    to = clamp(chopOffset > 0 ? chopOffset : length + chopOffset, length);
                    from = clamp((long) to + chopLength, length);
                }
                if (to > from) {
                    if (buffer.length < length) buffer = new byte[Math.max(length, 2 * buffer.length)];
                    MemorySegment.copy(data, ValueLayout.JAVA_BYTE, offset, buffer, 0, from);
                    MemorySegment.copy(data, ValueLayout.JAVA_BYTE, offset + to, buffer, from, length - to);
                    data = MemorySegment.ofArray(buffer);
                    offset = 0;
                    length -= to - from;
                }
            }
            if (recent != null && duplicate(data, offset, length)) {
                duplicates++;
                return;
            }
            if (out == null || split(t)) next(t);
            out.write(in.outputInterface(), t, data, offset, length, original, CaptureTools.comments(s));
            written++;
            inFile++;
        }

        private static int clamp(long at, int length) {
            return (int) Math.max(0, Math.min(length, at));
        }

        /** Whether the frame goes to a new file: -c's count reached, or past -i's interval. */
        private boolean split(long t) throws IOException {
            if (perFile != null) return inFile >= perFile;
            if (intervalNanos <= 0 || t < blockEnd) return false;
            // editcap: an interval without frames still gets its (empty) file, named after the frame that ended it.
            while (t >= blockEnd) {
                blockEnd += intervalNanos;
                if (t >= blockEnd) {
                    next(t);
                }
            }
            return true;
        }

        private void next(long t) throws IOException {
            if (out != null) out.close();
            if (out == null && intervalNanos > 0) blockEnd = t + intervalNanos;
            name = perFile != null || intervalNanos > 0 ? partName(output, files, t) : output;
            if (first == null) first = name;
            out = new CaptureOutput(name, fileType.format, null);
            in = out.input(s);
            files++;
            inFile = 0;
        }

        private boolean duplicate(MemorySegment data, long offset, int length) throws IOException {
            if (buffer.length < length) buffer = new byte[Math.max(length, 2 * buffer.length)];
            if (data.heapBase().orElse(null) != buffer) MemorySegment.copy(data, ValueLayout.JAVA_BYTE, offset, buffer, 0, length);
            md5.update(buffer, 0, length);
            try {
                md5.digest(digest, 0, 16);
            } catch (java.security.DigestException e) {
                throw new IllegalStateException(e);
            }
            boolean seen = false;
            for (int i = 0; i < recent.length && !seen; i++) {
                seen = recent[i] != null && recentLength[i] == length && Arrays.equals(recent[i], digest);
            }
            // Every frame that gets here joins the window, a duplicate too (editcap keeps its hash as well).
            if (recent[recentNext] == null) recent[recentNext] = new byte[16];
            System.arraycopy(digest, 0, recent[recentNext], 0, 16);
            recentLength[recentNext] = length;
            recentNext = (recentNext + 1) % recent.length;
            return seen;
        }

        void close() throws IOException {
            if (out == null) next(0);   // nothing selected: an empty capture all the same, as editcap writes
            out.close();
        }
    }

    /** editcap's part names: {@code prefix_NNNNN_YYYYmmddHHMMSS.ext}, the time the part's first frame's, local. */
    static Path partName(Path output, int index, long timestampNanos) {
        String file = output.getFileName().toString();
        int dot = file.lastIndexOf('.');
        String prefix = dot > 0 ? file.substring(0, dot) : file, suffix = dot > 0 ? file.substring(dot) : "";
        String time = DateTimeFormatter.ofPattern("yyyyMMddHHmmss")
                .format(LocalDateTime.ofInstant(Instant.ofEpochSecond(Math.floorDiv(timestampNanos, 1_000_000_000L)), ZoneId.systemDefault()));
        return output.resolveSibling(String.format("%s_%05d_%s%s", prefix, index, time, suffix));
    }

    private boolean isSelected(long frame) {
        for (long[] r : selected) {
            if (frame >= r[0] && frame <= r[1]) return true;
        }
        return false;
    }

    private void parseRange(String r) {
        String[] parts = r.split("-", -1);
        try {
            if (parts.length == 1) {
                long n = Long.parseLong(parts[0].strip());
                if (n >= 1) {
                    selected.add(new long[] {n, n});
                    return;
                }
            } else if (parts.length == 2) {
                long a = Long.parseLong(parts[0].strip());
                long b = parts[1].isBlank() ? Long.MAX_VALUE : Long.parseLong(parts[1].strip());
                if (a >= 1 && b >= a) {
                    selected.add(new long[] {a, b});
                    return;
                }
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw bad("'" + r + "' is not a frame range (N, A-B or A-, frames counted from 1)");
    }

    private void parseChop(String c) {
        String[] parts = c.split(":", -1);
        try {
            if (parts.length == 1) {
                chopLength = Integer.parseInt(parts[0].strip());
            } else if (parts.length == 2) {
                chopOffset = Integer.parseInt(parts[0].strip());
                chopLength = Integer.parseInt(parts[1].strip());
            }
            if (parts.length <= 2) return;
        } catch (NumberFormatException e) {
            // said below
        }
        throw bad("-C must be [OFFSET:]CHOP in bytes (CHOP negative: from the end), not '" + c + "'");
    }

    /** editcap's -A/-B: 'YYYY-MM-DD HH:MM:SS[.fraction]' in local time (also with a T), or seconds since 1970. */
    private long time(String option, String value) {
        String v = value.strip();
        if (v.matches("\\d+(\\.\\d{0,9})?")) return seconds(option, v, false);
        try {
            String[] parts = v.replace('T', ' ').split("\\.", 2);
            LocalDateTime t = LocalDateTime.parse(parts[0], DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
            long fraction = 0;
            if (parts.length == 2) {
                if (!parts[1].matches("\\d{1,9}")) throw bad(option + " must be 'YYYY-MM-DD HH:MM:SS[.nnnnnnnnn]' or seconds since 1970, not '" + value + "'");
                fraction = Long.parseLong((parts[1] + "000000000").substring(0, 9));
            }
            return Math.addExact(Math.multiplyExact(t.atZone(ZoneId.systemDefault()).toEpochSecond(), 1_000_000_000L), fraction);
        } catch (DateTimeParseException | ArithmeticException e) {
            throw bad(option + " must be 'YYYY-MM-DD HH:MM:SS[.nnnnnnnnn]' or seconds since 1970, not '" + value + "'");
        }
    }

    /** A number of seconds (with up to 9 decimals) in nanoseconds. */
    private long seconds(String option, String value, boolean signed) {
        try {
            BigDecimal s = new BigDecimal(value.strip());
            if (!signed && s.signum() < 0) throw new NumberFormatException();
            return s.movePointRight(9).setScale(0, java.math.RoundingMode.DOWN).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw bad(option + " must be a number of seconds" + (signed ? " (negative: earlier)" : "") + ", not '" + value + "'");
        }
    }

    private ParameterException bad(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}

package io.metaroce.cli;

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

    @Option(names = "-w", paramLabel = "SECONDS", description = "remove a frame whose bytes equal a frame's at most SECONDS before")
    String dupTime;

    @Option(names = "-I", paramLabel = "BYTES", description = "with -d, -D or -w: leave the first BYTES of a frame out of the comparison")
    Integer ignoredBytes;

    @Option(names = "-L", description = "with -s or -C: the original (wire) length loses what was cut too")
    boolean adjustLength;

    @Option(names = "-S", paramLabel = "SECONDS", description = "a frame earlier than the one before gets its time plus SECONDS"
            + " (negative: every frame the one before's plus |SECONDS|)")
    String strict;

    @Option(names = "-T", paramLabel = "ENCAP", description = "write the frames as this link type, their bytes unchanged: ether, rawip,"
            + " rawip4, rawip6, linux-sll, linux-sll2, null, user0, infiniband")
    String encapsulation;

    @Option(names = "-a", paramLabel = "FRAME:COMMENT", description = "add a comment to a frame (repeatable; the last for a frame wins)")
    List<String> frameComments = new ArrayList<>();

    @Option(names = "--capture-comment", paramLabel = "COMMENT", description = "add a capture (section) comment (repeatable)")
    List<String> captureComments = new ArrayList<>();

    @Option(names = "--discard-capture-comment", description = "leave the input's capture comments out")
    boolean discardCaptureComments;

    @Option(names = "--discard-packet-comments", description = "leave the input's packet comments out (the ones -a adds stay)")
    boolean discardPacketComments;

    @Option(names = "-E", paramLabel = "PROBABILITY", description = "change each byte with this probability (fuzzing; editcap's errors)")
    Double errorProbability;

    @Option(names = "-o", paramLabel = "OFFSET", description = "with -E: leave the first OFFSET bytes of each frame unchanged")
    int errorOffset;

    @Option(names = "--seed", paramLabel = "N", description = "with -E: the random seed (editcap's: the same N, the same changes)")
    Long seed;

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
        long dupNanos = dupTime == null ? -1 : seconds("-w", dupTime, false);
        if (dupTime != null && (dedup || dupWindow != null)) throw bad("-w and -" + (dedup ? "d" : "D") + " both remove duplicates: give one");
        if (ignoredBytes != null && ignoredBytes < 0) throw bad("-I must be 0 or more bytes, not " + ignoredBytes);
        long strictNanos = strict == null ? 0 : seconds("-S", strict, true);
        boolean strictNegative = strict != null && strict.strip().startsWith("-");
        int linkType = encapsulation == null ? -1 : CaptureTools.linkType(encapsulation);
        if (linkType == -2) throw bad("-T must be one of " + CaptureTools.encapsulationNames() + ", not '" + encapsulation + "'");
        java.util.Map<Long, String> added = new java.util.HashMap<>();
        for (String a : frameComments) {
            int colon = a.indexOf(':');
            long frame = -1;
            try {
                if (colon > 0) frame = Long.parseLong(a.substring(0, colon).strip());
            } catch (NumberFormatException e) {
                // said below
            }
            if (frame < 1) throw bad("-a must be FRAME:COMMENT (a frame number from 1, a colon, the comment), not '" + a + "'");
            added.put(frame, a.substring(colon + 1));
        }
        if (errorProbability != null && !(errorProbability >= 0 && errorProbability <= 1)) {
            throw bad("-E must be a probability from 0 to 1, not " + errorProbability);
        }
        if (seed != null && (seed < 0 || seed > 0xFFFF_FFFFL)) throw bad("--seed must be from 0 to 4294967295, not " + seed);
        if (errorOffset < 0) throw bad("-o must be 0 or more bytes, not " + errorOffset);
        for (String r : ranges) parseRange(r);
        int window = dedup ? 5 : dupWindow == null ? 0 : dupWindow;
        PacketSource s = CaptureTools.openCopy(err, "edit", input, output);
        if (s == null) return 2;
        try (s) {
            Run run = new Run(s, type, dupNanos >= 0 ? MAX_DUP_WINDOW : window, intervalNanos);
            run.dupNanos = dupNanos;
            run.strictNanos = strict == null ? Long.MIN_VALUE : strictNanos;
            run.strictNegative = strictNegative;
            run.linkType = linkType;
            run.added = added;
            run.sectionComment = sectionComment(s);
            if (errorProbability != null && errorProbability > 0) {
                long seedValue = seed != null ? seed : (System.nanoTime() ^ System.currentTimeMillis()) & 0xFFFF_FFFFL;
                // editcap says the seed it picked, so that a run's errors can be made again.
                if (seed == null) err.println("metaroce edit: using seed " + seedValue);
                run.errors = new GlibcRandom((int) seedValue);
            }
            try {
                while (s.next()) {
                    long t = s.timestampNanos();
                    // editcap: a frame inside -A/-B, and whose number is in a range with -r (outside one without).
                    if (t < startNanos || t >= stopNanos || isSelected(s.frameNumber()) != keep) continue;
                    run.frame(t + shiftNanos, s.frameNumber());
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
        /** -w: the window's frames' times (nanoseconds), beside their digests; -1 when -w is not given. */
        long dupNanos = -1;
        long[] recentTime;
        long strictNanos = Long.MIN_VALUE, previous = Long.MIN_VALUE;
        boolean strictNegative;
        int linkType = -1;
        java.util.Map<Long, String> added = java.util.Map.of();
        List<String> sectionComment = List.of();
        GlibcRandom errors;
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

        void frame(long t, long number) throws IOException {
            int length = s.capturedLength();
            long original = s.originalLength();
            if (snapLength != null && length > snapLength) length = snapLength;
            if (snapLength != null && adjustLength && original > snapLength) original = snapLength;
            MemorySegment data = s.mapping();
            long offset = s.dataOffset();
            if (data == null) {
                data = s.data();
                offset = 0;
            }
            if (chopLength != 0) {
                // editcap's chop: CHOP > 0 takes bytes from OFFSET on (a negative OFFSET counts from the end), CHOP < 0
                // the bytes that end at OFFSET (0 or negative: counted from the end). The wire length stays (but -L).
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
                    if (adjustLength) original = Math.max(0, original - (to - from));
                }
            }
            if (strictNanos != Long.MIN_VALUE) t = strict(t);
            if (recent != null && duplicate(data, offset, length, t)) {
                duplicates++;
                return;
            }
            List<String> comments = discardPacketComments ? List.of() : CaptureTools.comments(s);
            String comment = added.isEmpty() ? null : added.get(number);
            if (comment != null) {
                comments = new ArrayList<>(comments);
                comments.add(comment);
            }
            if (errors != null) {
                if (data.heapBase().orElse(null) != buffer) {
                    if (buffer.length < length) buffer = new byte[Math.max(length, 2 * buffer.length)];
                    MemorySegment.copy(data, ValueLayout.JAVA_BYTE, offset, buffer, 0, length);
                    data = MemorySegment.ofArray(buffer);
                    offset = 0;
                }
                errors.mutate(buffer, errorOffset, length, errorProbability);
            }
            if (out == null || split(t)) next(t);
            out.write(in.outputInterface(), t, data, offset, length, original, comments);
            written++;
            inFile++;
        }

        /**
         * editcap -S: with a positive (or +0) adjustment a frame earlier than the one written before gets that one's
         * time plus the adjustment (one of the same time stays); with a negative one (-0 too) every frame after the
         * first gets the previous frame's time plus |adjustment|.
         */
        private long strict(long t) {
            if (previous != Long.MIN_VALUE && (strictNegative || t < previous)) t = previous + Math.abs(strictNanos);
            previous = t;
            return t;
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
            out = new CaptureOutput(name, fileType.format, sectionComment);
            if (linkType >= 0) out.linkType(linkType);
            in = out.input(s);
            files++;
            inFile = 0;
        }

        private boolean duplicate(MemorySegment data, long offset, int length, long t) throws IOException {
            if (buffer.length < length) buffer = new byte[Math.max(length, 2 * buffer.length)];
            if (data.heapBase().orElse(null) != buffer) MemorySegment.copy(data, ValueLayout.JAVA_BYTE, offset, buffer, 0, length);
            // -I: the first bytes (addresses that differ between taps) out of the hash, unless the frame is no longer.
            int skip = ignoredBytes != null && length > ignoredBytes ? ignoredBytes : 0;
            md5.update(buffer, skip, length - skip);
            try {
                md5.digest(digest, 0, 16);
            } catch (java.security.DigestException e) {
                throw new IllegalStateException(e);
            }
            int hashed = length - skip;
            boolean seen = false;
            if (dupNanos >= 0) {
                seen = duplicateInTime(hashed, t);
            } else {
                for (int i = 0; i < recent.length && !seen; i++) {
                    seen = recent[i] != null && recentLength[i] == hashed && Arrays.equals(recent[i], digest);
                }
            }
            // Every frame that gets here joins the window, a duplicate too (editcap keeps its hash as well).
            if (recent[recentNext] == null) recent[recentNext] = new byte[16];
            System.arraycopy(digest, 0, recent[recentNext], 0, 16);
            recentLength[recentNext] = hashed;
            if (recentTime != null) recentTime[recentNext] = t;
            recentNext = (recentNext + 1) % recent.length;
            return seen;
        }

        /**
         * editcap -w: back from the newest, frames up to the window's time before this one (a later one, out of
         * order, is passed over), until one older than the window or the window's start.
         */
        private boolean duplicateInTime(int hashed, long t) {
            if (recentTime == null) recentTime = new long[recent.length];
            for (int k = 1; k < recent.length; k++) {
                int i = Math.floorMod(recentNext - k, recent.length);
                if (recent[i] == null) break;
                long delta = t - recentTime[i];
                if (delta < 0) continue;
                if (delta > dupNanos) break;
                if (recentLength[i] == hashed && Arrays.equals(recent[i], digest)) return true;
            }
            return false;
        }

        void close() throws IOException {
            if (out == null) next(0);   // nothing selected: an empty capture all the same, as editcap writes
            out.close();
        }
    }

    /** The input's section comments (but --discard-capture-comment), then --capture-comment's, as editcap writes them. */
    private List<String> sectionComment(PacketSource s) {
        List<String> all = new ArrayList<>();
        if (!discardCaptureComments) all.addAll(s.stats().fileComments());
        all.addAll(captureComments);
        return all;
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

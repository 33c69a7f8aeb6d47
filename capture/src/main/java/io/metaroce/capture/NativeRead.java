package io.metaroce.capture;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * pread(2) of a capture file straight into a Java array, through the foreign-function linker with heap access
 * ({@link Linker.Option#critical(boolean)}): one copy, the kernel's out of the page cache. {@link java.io.RandomAccessFile}
 * reads more than 8 KiB into a malloc'd buffer and copies that into the array (JNI's SetByteArrayRegion): on 10 M
 * frames (7.3 GB) that second copy was 0.14 s of the decoding thread, the critical path of analyze (perf, 999 Hz,
 * {@code __memmove_avx512_unaligned_erms}; docs/benchmarks.md, helper tenm, eighteenth session).
 *
 * <p>Linking the three calls costs about 0.1 s of CPU (a probe: 0.11-0.12 s on this project's benchmark VM), more
 * than the copy costs below a few GB, and it must not delay the pass: {@link #prepare} links on a thread of its own,
 * started when a big capture is opened, and a reader switches from {@link java.io.RandomAccessFile} to this once
 * {@link #ready}. Linux only (the flags of open(2)), and only when native access is enabled for this code (the
 * launcher's {@code --enable-native-access=ALL-UNNAMED}; without it a restricted call would print a warning).
 */
final class NativeRead {
    /** O_RDONLY | O_CLOEXEC on Linux (x86-64 and aarch64). */
    private static final int OPEN_FLAGS = 0x80000;

    private record Calls(MethodHandle open, MethodHandle pread, MethodHandle close) {
    }

    private static volatile Calls calls;
    private static final AtomicBoolean started = new AtomicBoolean();

    private NativeRead() {
    }

    /** Whether this JVM can read this way at all (then {@link #prepare} links). */
    static boolean possible() {
        return System.getProperty("os.name", "").startsWith("Linux")
                && NativeRead.class.getModule().isNativeAccessEnabled();
    }

    /** Links the calls on a daemon thread, once per JVM; nothing when not {@link #possible}. */
    static void prepare() {
        if (calls != null || !possible() || !started.compareAndSet(false, true)) return;
        Thread t = new Thread(NativeRead::link, "metaroce-native-read");
        t.setDaemon(true);
        t.start();
    }

    /** Links the calls on this thread (tests, and {@link #prepare}'s thread); false when they cannot be. */
    static boolean link() {
        if (calls != null) return true;
        if (!possible()) return false;
        try {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            MethodHandle open = linker.downcallHandle(libc.find("open").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                            ValueLayout.JAVA_INT), Linker.Option.firstVariadicArg(2));
            MethodHandle pread = linker.downcallHandle(libc.find("pread").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), Linker.Option.critical(true));
            MethodHandle close = linker.downcallHandle(libc.find("close").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
            calls = new Calls(open, pread, close);
            return true;
        } catch (Throwable e) {
            // No such symbol, no native access after all, an unsupported platform: the reader keeps its RandomAccessFile.
            return false;
        }
    }

    /** Whether {@link #open} can be called now without linking on the caller's thread. */
    static boolean ready() {
        return calls != null;
    }

    /** The file open for {@link #read}, or null when it cannot be (not {@link #ready}, gone, unreadable). */
    static NativeRead.File open(Path path) {
        Calls c = calls;
        if (c == null) return null;
        try (Arena a = Arena.ofConfined()) {
            int fd = (int) c.open.invokeExact(a.allocateFrom(path.toString()), OPEN_FLAGS, 0);
            return fd < 0 ? null : new File(c, fd);
        } catch (Throwable e) {
            return null;
        }
    }

    /** One open file descriptor. Not thread-safe. */
    static final class File {
        private final Calls calls;
        private int fd;

        private File(Calls calls, int fd) {
            this.calls = calls;
            this.fd = fd;
        }

        /**
         * Reads up to n bytes of the file at {@code position} into {@code into[at, at + n)}; returns how many (0 at the
         * end of the file), or -1 when the read failed or this file is closed.
         */
        long read(byte[] into, int at, int n, long position) {
            if (fd < 0) return -1;
            try {
                return (long) calls.pread.invokeExact(fd, MemorySegment.ofArray(into).asSlice(at, n), (long) n, position);
            } catch (Throwable e) {
                return -1;
            }
        }

        void close() {
            int f = fd;
            fd = -1;
            if (f < 0) return;
            try {
                int ignored = (int) calls.close.invokeExact(f);
            } catch (Throwable e) {
                // Read-only: nothing was lost.
            }
        }
    }
}

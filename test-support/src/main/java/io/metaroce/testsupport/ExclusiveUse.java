package io.metaroce.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A lock held across the build's test JVMs (surefire's forks), for test classes that must not run at the same time
 * as each other in two forks: GuiMenusIT (the shipped GUI driven by xdotool on the X display) and CaptureToolbarTest
 * (Shortcut+E into a live capture on a veth pair) each lost their key presses whenever they overlapped, and passed
 * alone. An operating-system file lock (fcntl): released when its holder closes it or its JVM ends.
 */
public final class ExclusiveUse implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private ExclusiveUse(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Waits until no other test JVM of this build holds the lock named name, then holds it. */
    public static ExclusiveUse acquire(String name) {
        try {
            Path file = Launcher.ROOT.resolve("target").resolve(name + ".lock");
            Files.createDirectories(file.getParent());
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            return new ExclusiveUse(ch, ch.lock());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

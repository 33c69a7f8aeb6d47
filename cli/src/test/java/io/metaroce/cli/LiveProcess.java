package io.metaroce.cli;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A metaroce (or sender) JVM started for a live test: stderr collected line by line (so that the test can wait
 * for dumpcap's "Capturing on" line), stdout collected now or, for a consumer the test wants paused, only
 * when {@link #readStdout()} is called.
 */
final class LiveProcess implements AutoCloseable {
    private final Process process;
    private final StringBuffer err = new StringBuffer();
    private final CountDownLatch capturing = new CountDownLatch(1);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private Thread outReader;
    private final Thread errReader;

    private LiveProcess(Process process) {
        this.process = process;
        errReader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    err.append(line).append('\n');
                    if (line.startsWith("Capturing on")) capturing.countDown();
                }
            } catch (IOException e) {
                // process gone
            }
        });
    }

    static LiveProcess start(List<String> cmd, boolean readStdoutNow) throws IOException {
        LiveProcess p = new LiveProcess(new ProcessBuilder(cmd).start());
        if (readStdoutNow) p.readStdout();
        return p;
    }

    /** Starts draining stdout (a paused consumer resumes). */
    synchronized void readStdout() {
        if (outReader != null) return;
        outReader = Thread.ofPlatform().daemon().start(() -> {
            try (InputStream in = process.getInputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // process gone
            }
        });
    }

    /** Waits for "Capturing on ..." (the capture is active); false on timeout or exit. */
    boolean awaitCapturing() throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            if (capturing.await(100, TimeUnit.MILLISECONDS)) return true;
            if (!process.isAlive()) return false;
        }
        return false;
    }

    /**
     * SIGTERM, as a service manager or kill(1) would send. Through the process handle: Process.destroy()
     * would also close our ends of the pipes, which the capture would see as a broken pipe.
     */
    void terminate() {
        process.toHandle().destroy();
    }

    /** Waits for the exit (killing the process after the timeout) and returns the exit code. */
    int await(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
            throw new AssertionError("process did not end within " + seconds + " s; stderr:\n" + err);
        }
        readStdout();
        outReader.join(10_000);
        errReader.join(10_000);
        return process.exitValue();
    }

    byte[] stdout() {
        return out.toByteArray();
    }

    String stderr() {
        return err.toString();
    }

    @Override
    public void close() {
        if (process.isAlive()) process.destroyForcibly();
    }
}

package io.metaroce.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Two network namespaces joined by a veth pair, for live-capture tests: names unique per run, removed by
 * {@link #close()} (deleting a namespace deletes its end of the pair). Frames go only between the two.
 */
final class NetnsPair implements AutoCloseable {
    final String nsA, nsB, ifA, ifB;

    private NetnsPair(String tag) {
        nsA = "mrlive" + tag + "a";
        nsB = "mrlive" + tag + "b";
        ifA = "mr" + tag + "a";
        ifB = "mr" + tag + "b";
    }

    /** Why live tests cannot run here, or null when they can (root, iproute2 with netns support). */
    static String unavailable() {
        try {
            String status = Files.readString(Path.of("/proc/self/status"));
            if (!status.lines().filter(l -> l.startsWith("Uid:")).findFirst().orElse("Uid: 1").split("\\s+")[1].equals("0")) {
                return "live capture tests need root (network namespaces, veth pairs, raw sockets); CI runs them as root";
            }
        } catch (IOException e) {
            return "cannot read /proc/self/status: " + e.getMessage();
        }
        try {
            if (run(List.of("ip", "netns", "list")) != 0) return "'ip netns' is not available (iproute2)";
        } catch (IOException e) {
            return "'ip' is not installed (iproute2): " + e.getMessage();
        }
        return null;
    }

    static NetnsPair create() throws IOException {
        String tag = Long.toHexString(ProcessHandle.current().pid() & 0xFFF) + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x100, 0x1000));
        NetnsPair p = new NetnsPair(tag);
        try {
            p.must("ip", "netns", "add", p.nsA);
            p.must("ip", "netns", "add", p.nsB);
            p.must("ip", "link", "add", p.ifA, "netns", p.nsA, "type", "veth", "peer", "name", p.ifB, "netns", p.nsB);
            p.must("ip", "-n", p.nsA, "link", "set", p.ifA, "mtu", "9000", "up");
            p.must("ip", "-n", p.nsB, "link", "set", p.ifB, "mtu", "9000", "up");
        } catch (IOException | RuntimeException e) {
            p.close();
            throw e;
        }
        return p;
    }

    private void must(String... cmd) throws IOException {
        if (run(List.of(cmd)) != 0) throw new IOException("failed: " + String.join(" ", cmd));
    }

    private static int run(List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            return -1;
        }
    }

    /** A java command line with the test class path, run inside namespace {@code ns}. */
    static List<String> javaIn(String ns, String mainClass, String... args) {
        String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns, java, "--enable-native-access=ALL-UNNAMED",
                "-XX:+UseSerialGC", "-Xshare:auto", "-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(List.of(args));
        return cmd;
    }

    @Override
    public void close() {
        for (String ns : new String[] {nsA, nsB}) {
            try {
                run(List.of("ip", "netns", "del", ns));
            } catch (IOException e) {
                // best effort: nothing else to do in a finally
            }
        }
    }
}

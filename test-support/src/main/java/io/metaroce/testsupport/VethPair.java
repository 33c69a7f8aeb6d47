package io.metaroce.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A veth pair for live-capture tests on a real interface, with names unique per run, removed by {@link #close()}.
 * The sending end {@link #ifA} is always in a network namespace of its own ({@link #nsA}), so the test's frames
 * reach only the other end. The receiving end {@link #ifB} is either in a second namespace ({@link #nsB}: the
 * CLI's tests capture from a separate process started there) or in the test's own namespace ({@code nsB == null}:
 * the GUI captures inside the test's JVM).
 */
public final class VethPair implements AutoCloseable {
    public final String nsA, nsB, ifA, ifB;

    private VethPair(String prefix, String tag, boolean receiverHere) {
        nsA = "mr" + prefix + tag + "a";
        nsB = receiverHere ? null : "mr" + prefix + tag + "b";
        ifA = "m" + prefix.charAt(0) + tag + "a";
        ifB = "m" + prefix.charAt(0) + tag + "b";
    }

    /** Why live tests cannot run here, or null when they can (root, iproute2 with netns support). */
    public static String unavailable() {
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

    /** Both ends in namespaces of their own; a jumbo MTU so that MetaRoCE's largest frames pass. */
    public static VethPair betweenNamespaces(String prefix) throws IOException {
        VethPair p = new VethPair(prefix, tag(), false);
        try {
            p.must("ip", "netns", "add", p.nsA);
            p.must("ip", "netns", "add", p.nsB);
            p.must("ip", "link", "add", p.ifA, "netns", p.nsA, "type", "veth", "peer", "name", p.ifB, "netns", p.nsB);
            // No IPv6 link-local address on either end: the kernel would send router solicitations (and DAD) a few
            // seconds after the link comes up, and a capture starting late on a loaded machine would count them.
            p.must("ip", "-n", p.nsA, "link", "set", p.ifA, "addrgenmode", "none");
            p.must("ip", "-n", p.nsA, "link", "set", p.ifA, "mtu", "9000", "up");
            p.must("ip", "-n", p.nsB, "link", "set", p.ifB, "addrgenmode", "none");
            p.must("ip", "-n", p.nsB, "link", "set", p.ifB, "mtu", "9000", "up");
        } catch (IOException | RuntimeException e) {
            p.close();
            throw e;
        }
        return p;
    }

    /** The sending end in a namespace of its own, the receiving end {@link #ifB} here, in the test's namespace. */
    public static VethPair receiverHere(String prefix) throws IOException {
        VethPair p = new VethPair(prefix, tag(), true);
        try {
            p.must("ip", "netns", "add", p.nsA);
            p.must("ip", "link", "add", p.ifB, "type", "veth", "peer", "name", p.ifA, "netns", p.nsA);
            // No IPv6 link-local address on either end (see betweenNamespaces).
            p.must("ip", "link", "set", p.ifB, "addrgenmode", "none");
            p.must("ip", "link", "set", p.ifB, "mtu", "9000", "up");
            p.must("ip", "-n", p.nsA, "link", "set", p.ifA, "addrgenmode", "none");
            p.must("ip", "-n", p.nsA, "link", "set", p.ifA, "mtu", "9000", "up");
        } catch (IOException | RuntimeException e) {
            p.close();
            throw e;
        }
        return p;
    }

    /** A java command line with the test class path, run inside namespace {@code ns}. */
    public static List<String> javaIn(String ns, String mainClass, String... args) {
        String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns, java, "--enable-native-access=ALL-UNNAMED",
                "-XX:+UseSerialGC", "-Xshare:auto", "-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(List.of(args));
        return cmd;
    }

    @Override
    public void close() {
        List<List<String>> cleanup = new ArrayList<>();
        if (nsB == null) cleanup.add(List.of("ip", "link", "del", ifB));   // removes both ends
        cleanup.add(List.of("ip", "netns", "del", nsA));                   // deleting a namespace deletes its end
        if (nsB != null) cleanup.add(List.of("ip", "netns", "del", nsB));
        for (List<String> cmd : cleanup) {
            try {
                run(cmd);
            } catch (IOException e) {
                // best effort: nothing else to do in a finally
            }
        }
    }

    private static String tag() {
        return Long.toHexString(ProcessHandle.current().pid() & 0xFFF) + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x100, 0x1000));
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
}

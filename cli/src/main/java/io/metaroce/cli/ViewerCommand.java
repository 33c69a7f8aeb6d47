package io.metaroce.cli;

import io.metaroce.index.FlowIndex;
import io.metaroce.index.IndexFormatException;
import io.metaroce.index.web.FlowViewer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce viewer --index DIR}: the flow index in a browser, as Arkime's viewer shows sessions (Sessions, SPI
 * View, Connections, Files, a flow's document and its packets), served until Ctrl+C. The backend is chosen as for
 * search ({@link IndexBackend}); the page and its API are {@link FlowViewer}'s.
 */
@Command(name = "viewer", sortOptions = false, versionProvider = StandardOptions.Version.class,
        description = "Browse the flow index in a web browser: sessions with the search query language, SPI View (top "
                + "values), Connections (who talked to whom), Files, a flow's counters and its packets as pcapng.",
        // Each example fits the help's 80 columns, continued with a backslash (picocli cut a longer one anywhere).
        footer = {"", "Examples:", "  metaroce viewer --index flows.idx",
                "      # on the jump host; from your desk: ssh -L 8005:127.0.0.1:8005 JUMPHOST",
                "      # and open http://127.0.0.1:8005/",
                "  metaroce viewer --index flows.idx --bind 0.0.0.0 --port 8080"})
public final class ViewerCommand implements Callable<Integer> {
    /**
     * The loopback by default: the index names every host, QP and capture path of the fabric, and the viewer has no
     * login; sharing it on the network is a choice ({@code --bind 0.0.0.0}), an ssh tunnel the quiet way.
     */
    static final String DEFAULT_BIND = "127.0.0.1";

    @Spec(Spec.Target.SELF)
    CommandSpec spec;

    @Mixin
    StandardOptions standard;

    @Mixin
    StandardOptions.NoVerbose noVerbose;

    @Mixin
    IndexBackend backend;

    @Option(names = "--port", paramLabel = "N", description = "the port to listen on (default ${DEFAULT-VALUE}, Arkime's; 0: any free one)")
    int port = FlowViewer.DEFAULT_PORT;

    @Option(names = "--bind", paramLabel = "ADDR", description = "the address to listen on (default " + DEFAULT_BIND
            + ": this host only, the index has no login; 0.0.0.0 to share it)")
    String bind = DEFAULT_BIND;

    @Override
    public Integer call() throws IOException {
        PrintStream err = System.err;
        if (port < 0 || port > 65535) throw new ParameterException(spec.commandLine(), "--port must be 0 to 65535, not " + port);
        InetAddress address;
        try {
            // A name is looked up once, here; an empty one is no address (InetAddress takes it for the loopback).
            if (bind.isBlank()) throw new UnknownHostException(bind);
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new ParameterException(spec.commandLine(), "--bind must be an address of this host (127.0.0.1, 0.0.0.0, ...), not '" + bind + "'");
        }
        FlowIndex index;
        try {
            index = backend.open(false);
        } catch (IndexFormatException e) {
            err.println("metaroce viewer: " + e.getMessage());
            return 2;
        }
        try (index) {
            FlowViewer viewer;
            try {
                viewer = FlowViewer.start(index, new InetSocketAddress(address, port));
            } catch (BindException e) {
                err.println("metaroce viewer: cannot listen on " + bind + ":" + port + ": "
                        + (address.isAnyLocalAddress() || address.isLoopbackAddress() || isLocal(address)
                        ? "the port is in use (--port N for another, 0 for any free one)" : "not an address of this host"));
                return 2;
            }
            CountDownLatch stop = new CountDownLatch(1);
            // Ctrl+C and SIGTERM end the wait: the server and the index are closed in order, exit 0.
            Signals.onStop(stop::countDown);
            String host = address.isAnyLocalAddress() ? hostName() : hostText(viewer.address());
            System.out.println("viewer: http://" + host + ":" + viewer.port() + "/ (Ctrl+C to stop)");
            System.out.flush();
            try {
                stop.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                viewer.close();
                Signals.reset();
            }
        }
        return 0;
    }

    /** This host's name, for the URL of a viewer on every interface (the others reach it by that name). */
    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "0.0.0.0";   // a host whose own name does not resolve: the user knows its address
        }
    }

    /** An address as a URL's host: IPv6 in brackets. */
    private static String hostText(InetAddress a) {
        String s = a.getHostAddress();
        return s.indexOf(':') >= 0 ? "[" + s + "]" : s;
    }

    private static boolean isLocal(InetAddress a) {
        try {
            return java.net.NetworkInterface.getByInetAddress(a) != null;
        } catch (java.net.SocketException e) {
            return false;
        }
    }
}

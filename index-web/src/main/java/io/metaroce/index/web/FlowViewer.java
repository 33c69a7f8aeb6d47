package io.metaroce.index.web;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.metaroce.index.FlowIndex;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code metaroce viewer}: an Arkime-like web page over a flow index (Sessions, SPI View, Connections, Files, a flow's
 * document and its packets as a pcapng), served by the JDK's own HTTP server from the page's three files in this jar
 * and the JSON API of {@link ViewerApi}. The one entry point: {@link #start}; {@link #close} stops it.
 *
 * <p>Read-only: GET and HEAD only, every answer computed from the index's last commit (an {@code index} run adding
 * captures meanwhile is seen at the next request). The page builds its DOM with {@code textContent} only, and the
 * Content-Security-Policy allows no inline script and nothing from another origin: a capture path or a rule text in a
 * shared index is data, never markup.
 */
public final class FlowViewer implements AutoCloseable {
    /** Arkime's viewer port. */
    public static final int DEFAULT_PORT = 8005;
    /** Requests answered at once: each holds an index searcher (and a pcap download a file); more wait their turn. */
    private static final int WORKERS = 4;

    /** The page's files, by URL path: the only files served (no path reaches the file system or another resource). */
    private static final Map<String, String[]> STATIC = Map.of(
            "/", new String[] {"index.html", "text/html; charset=utf-8"},
            "/index.html", new String[] {"index.html", "text/html; charset=utf-8"},
            "/viewer.js", new String[] {"viewer.js", "text/javascript; charset=utf-8"},
            "/viewer.css", new String[] {"viewer.css", "text/css; charset=utf-8"});

    private final HttpServer server;
    private final ExecutorService workers;
    private final ViewerApi api;
    private final boolean loopbackOnly;

    private FlowViewer(HttpServer server, ExecutorService workers, ViewerApi api, boolean loopbackOnly) {
        this.server = server;
        this.workers = workers;
        this.api = api;
        this.loopbackOnly = loopbackOnly;
    }

    /**
     * Serves the index at that address (port 0: any free port, see {@link #port}) until {@link #close}; the index stays
     * the caller's to close.
     *
     * @throws java.net.BindException when the port is in use (or the address is not this host's)
     */
    public static FlowViewer start(FlowIndex index, InetSocketAddress at) throws IOException {
        HttpServer server = HttpServer.create(at, 0);
        AtomicInteger n = new AtomicInteger();
        // Daemon threads: a viewer embedded in another program never keeps it alive.
        ExecutorService workers = Executors.newFixedThreadPool(WORKERS, r -> {
            Thread t = new Thread(r, "metaroce-viewer-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        FlowViewer v = new FlowViewer(server, workers, new ViewerApi(index), at.getAddress() != null && at.getAddress().isLoopbackAddress());
        server.createContext("/", v::handle);
        server.setExecutor(workers);
        server.start();
        return v;
    }

    /** The port it listens on (the one chosen for port 0). */
    public int port() { return server.getAddress().getPort(); }

    /** The address it listens on. */
    public InetAddress address() { return server.getAddress().getAddress(); }

    /** Stops listening, ends the requests in progress and the worker threads. */
    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
        try {
            workers.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void handle(HttpExchange x) {
        try (x) {
            try {
                serve(x);
            } catch (RuntimeException e) {
                // A bug, not the request's fault: said to the page in one line, and the viewer serves on.
                send(x, ViewerApi.Reply.error(500, "internal error: " + e));
            }
        } catch (IOException | RuntimeException e) {
            // The browser went away mid-answer (a cancelled download), or the answer had begun: nothing more to say.
        }
    }

    private void serve(HttpExchange x) throws IOException {
        String method = x.getRequestMethod();
        Headers h = x.getResponseHeaders();
        h.set("X-Content-Type-Options", "nosniff");
        h.set("Referrer-Policy", "no-referrer");
        h.set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'");
        if (!method.equals("GET") && !method.equals("HEAD")) {
            h.set("Allow", "GET, HEAD");
            send(x, ViewerApi.Reply.error(405, method + " is not allowed: the viewer only reads (GET, HEAD)"));
            return;
        }
        if (loopbackOnly && !loopbackHost(x.getRequestHeaders().getFirst("Host"))) {
            // A page of another site whose name was made to resolve to 127.0.0.1 (DNS rebinding) would read the index.
            send(x, ViewerApi.Reply.error(403, "this viewer listens on the loopback only: open it as http://127.0.0.1:" + port() + "/"));
            return;
        }
        String raw = x.getRequestURI().getRawPath();
        if (raw == null || raw.contains("..") || raw.toLowerCase(Locale.ROOT).contains("%2e") || raw.contains("\\")
                || raw.toLowerCase(Locale.ROOT).contains("%5c")) {
            send(x, ViewerApi.Reply.error(400, "bad path: the viewer serves its own page and /api/ only"));
            return;
        }
        String[] file = STATIC.get(raw);
        ViewerApi.Reply reply;
        if (file != null) reply = resource(file[0], file[1]);
        else if (raw.startsWith("/api/")) reply = api.answer(raw, x.getRequestURI().getRawQuery());
        else reply = ViewerApi.Reply.error(404, "no such page: " + raw);
        send(x, reply);
    }

    /** Whether a Host header names the loopback: 127.x.y.z, [::1] or localhost, with any port. */
    static boolean loopbackHost(String host) {
        if (host == null) return true;   // HTTP/1.0 without Host: not a browser of another site
        String name = host.toLowerCase(Locale.ROOT);
        if (name.startsWith("[")) return name.startsWith("[::1]");
        int colon = name.indexOf(':');
        if (colon >= 0) name = name.substring(0, colon);
        return name.equals("localhost") || name.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }

    private static ViewerApi.Reply resource(String name, String type) throws IOException {
        try (InputStream in = FlowViewer.class.getResourceAsStream(name)) {
            if (in == null) return ViewerApi.Reply.error(500, "the page's file " + name + " is missing from the jar");
            return new ViewerApi.Reply(200, type, in.readAllBytes(), null, null);
        }
    }

    private static void send(HttpExchange x, ViewerApi.Reply r) throws IOException {
        Headers h = x.getResponseHeaders();
        h.set("Content-Type", r.type());
        h.set("Cache-Control", "no-store");   // the index grows while the viewer runs
        if (r.filename() != null) h.set("Content-Disposition", "attachment; filename=\"" + r.filename() + "\"");
        boolean head = x.getRequestMethod().equals("HEAD");
        try {
            long length = r.file() != null ? Files.size(r.file()) : r.body().length;
            x.sendResponseHeaders(r.status(), head ? -1 : length == 0 ? -1 : length);
            if (head || length == 0) return;
            try (OutputStream out = x.getResponseBody()) {
                if (r.file() != null) Files.copy(r.file(), out);
                else out.write(r.body());
            }
        } finally {
            if (r.file() != null) Files.deleteIfExists(r.file());
        }
    }

    /** A message as UTF-8 bytes. */
    static byte[] utf8(String s) { return s.getBytes(StandardCharsets.UTF_8); }
}

package io.metaroce.index.solr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SolrCloud backend end to end, as a user runs it: the shipped launcher indexes the bundled sample captures
 * into a 2-shard, 2-replica collection of a real 2-node SolrCloud (created by --create-collection, which uploads
 * the configset) and into an embedded Lucene index; every search of a fixed list, every facet and the extracted
 * packets must be the same from both. Then one Solr node stops: the answers stay the same; it restarts and
 * recovers.
 */
@ExtendWith(SolrCloudExtension.class)
class SolrCloudCliTest {
  static final Path SAMPLES = Launcher.CAPTURES;
  static final ObjectMapper JSON = new ObjectMapper();

  /** Searches as an operator types them, over the kinds of traffic the samples hold. */
  static final List<List<String>> SEARCHES = List.of(
      List.of("*:*"),
      List.of("retransmitted_packets:[1 TO *]"),
      List.of("naks:>0 OR rnr_naks:>0"),
      List.of("transport:metaroce AND NOT lossy_paths:*"),
      List.of("ce_marks:[1 TO *] AND cnps:*"),
      List.of("capture_gaps:>0 OR network_losses:>0"),
      List.of("capture:*rnr* OR capture:*gbn*"),
      List.of("events:retransmission AND first:>2000-01-01"),
      List.of("NOT service:rc"),
      List.of("*:*", "--sort", "packets", "-n", "7"),
      List.of("*:*", "--sort", "latency.ack_rtt_ns.p99:asc", "-n", "9"),
      List.of("*:*", "--top", "dest_qp", "--by", "retransmitted_packets"),
      List.of("*:*", "--top", "src", "--by", "packets", "-n", "50"),
      List.of("naks:>0", "--top", "capture_path", "--by", "naks"),
      List.of("transport:metaroce", "--top", "path_ids", "--by", "retransmitted_packets"),
      List.of("*:*", "--top", "events", "--by", "ce_marks"));

  @Test
  void solrCloudAnswersAsTheEmbeddedIndexEvenWithANodeDown(MiniSolrCloud cloud, @TempDir Path tmp) throws Exception {
    Launcher.requireJar();
    String lucene = tmp.resolve("flows.idx").toString();
    List<String> solr = List.of("--solr", cloud.allNodeUrls(), "--collection", "flows");

    // index the samples into both, through the CLI
    List<String> toSolr = new ArrayList<>(List.of("index", SAMPLES.toString()));
    toSolr.addAll(solr);
    toSolr.addAll(List.of("--create-collection", "--shards", "2", "--replicas", "2"));
    var indexed = Launcher.runAll(List.of(call(List.of("index", SAMPLES.toString(), "--index", lucene)), call(toSolr)));
    for (var r : indexed) assertEquals(0, r.exit(), r.show());
    assertEquals(lines(indexed.get(0).out()), lines(indexed.get(1).out()), "both report the same captures");
    cloud.waitActive("flows", 2, 2);
    // the viewer over the collection, started now: its JVM and SolrJ start while the runs below go on
    startViewer(solr, tmp);

    // a second run finds every capture's hash in the collection and skips it
    List<String> again = new ArrayList<>(List.of("index", SAMPLES.toString()));
    again.addAll(solr);
    var second = Launcher.run(call(again));
    assertEquals(0, second.exit(), second.show());
    assertEquals(indexed.get(1).out().lines().count(), second.out().lines().count(), second.show());
    assertTrue(second.out().lines().allMatch(l -> l.startsWith("unchanged ") && l.endsWith(" (indexed already)")), second.show());

    List<JsonNode> embedded = search(List.of("--index", lucene));
    int nonEmpty = 0;
    for (JsonNode j : embedded) nonEmpty += (j.has("total") ? j.get("total").asLong() : j.get("values").size()) > 0 ? 1 : 0;
    assertTrue(nonEmpty >= SEARCHES.size() - 2, "the fixed searches exercise the samples: " + embedded);
    assertArrayEquals(extract(List.of("--index", lucene), tmp.resolve("lucene.pcapng")), extract(solr, tmp.resolve("solr.pcapng")),
        "extract writes the same packets from either index");
    assertEquals(embedded, search(solr), "SolrCloud and the embedded index answer alike");
    viewerAnswersAsSearch(embedded.getFirst(), tmp);

    var stopped = cloud.stop(1);
    try {
      // a subset (each search is a JVM start): flows, a sort and two facets
      List<Integer> some = List.of(1, 3, 9, 11, 13);
      assertEquals(some.stream().map(embedded::get).toList(), search(solr, some), "the same answers with one of two nodes down");
    } finally {
      cloud.restart(stopped);
    }
    cloud.waitActive("flows", 2, 2);
    assertEquals(List.of(embedded.getFirst()), search(solr, List.of(0)), "after the node rejoined");

    // what a killed index leaves (flow and part documents without their capture document) is read by no run
    long copied = leaveOrphans(SolrTarget.parse(cloud.allNodeUrls(), "flows"));
    assertTrue(copied > 200, "every flow and part document copied under another hash: " + copied);
    // a subset again (each search is a JVM start): every flow, a query, a sort and three facets, all of which would
    // count each orphan
    List<Integer> subset = List.of(0, 1, 9, 11, 13, 15);
    assertEquals(subset.stream().map(embedded::get).toList(), search(solr, subset),
        "the same answers beside documents of captures not indexed");
    assertArrayEquals(extract(List.of("--index", lucene), tmp.resolve("lucene.pcapng")), extract(solr, tmp.resolve("solr2.pcapng")),
        "extract reads no document of a capture not indexed");
  }

  /**
   * Copies every flow and part document of the collection under another capture hash (the hash reversed: same path,
   * another content), without a capture document, and commits: what a changed capture's send killed before its capture
   * document leaves, for every capture at once. Without the backend's filter, search shows each flow twice and extract
   * fails on them ("its capture is no longer indexed", exit 2). Returns how many documents were copied.
   */
  static long leaveOrphans(SolrTarget target) throws Exception {
    try (var client = SolrCollections.connect(target)) {
      var q = new org.apache.solr.client.solrj.SolrQuery("*:*").addFilterQuery("-kind:capture").setFields("*").setRows(100_000);
      List<org.apache.solr.common.SolrInputDocument> orphans = new ArrayList<>();
      for (var d : client.query(q).getResults()) {
        io.metaroce.index.FlowDocument f = SolrDocuments.fromSolr(d);
        String hash = f.getString(io.metaroce.index.FlowSchema.CAPTURE_HASH), other = new StringBuilder(hash).reverse().toString();
        var b = io.metaroce.index.FlowDocument.builder();
        for (var e : f.fields().entrySet()) {
          var field = io.metaroce.index.FlowSchema.field(e.getKey());
          Object v = e.getValue() instanceof String t && t.contains(hash) ? t.replace(hash, other) : e.getValue();
          if (field != null && field.multi()) for (Object x : f.values(e.getKey())) b.add(e.getKey(), x);
          else b.put(e.getKey(), v);
        }
        orphans.add(SolrDocuments.toSolr(b.build()));
      }
      client.add(orphans);
      client.commit(true, true);
      return orphans.size();
    }
  }

  /**
   * {@code metaroce viewer --solr}: its sessions are the embedded index's {@code search *:*} (same flows, same order),
   * its sessions.csv holds those flows, and a time range finds what the same range as a query finds.
   */
  static void viewerAnswersAsSearch(JsonNode all, Path tmp) throws Exception {
    Process p = viewer;
    try {
      var out = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
      String line = out.readLine();
      assertTrue(line != null && line.startsWith("viewer: http://127.0.0.1:"), line + " " + Files.readString(tmp.resolve("viewer.err")));
      String base = line.substring("viewer: ".length(), line.indexOf(' ', "viewer: ".length()));
      int n = all.get("flows").size();
      JsonNode sessions = JSON.readTree(get(base + "api/sessions?q=*:*&length=" + n));
      for (JsonNode f : sessions.get("flows")) ((ObjectNode) f).remove("indexed_at_ns");
      for (String k : List.of("query", "total", "flows")) assertEquals(all.get(k), sessions.get(k), k);
      List<String> csv = get(base + "api/sessions.csv?q=*:*&fields=flow,packets&length=" + n).lines().toList();
      assertEquals("flow,packets", csv.getFirst());
      for (int i = 0; i < n; i++)
        assertEquals(all.get("flows").get(i).get("flow").asText() + "," + all.get("flows").get(i).get("packets").asText(), csv.get(i + 1));
      // the samples all begin at one instant: a range of microseconds splits their flows
      String range = "startTime=2026-01-01T00:00:00.000100&stopTime=2026-01-01T00:00:00.000400";
      long ranged = JSON.readTree(get(base + "api/sessions?length=0&" + range)).get("total").asLong();
      long queried = JSON.readTree(get(base + "api/sessions?length=0&q=" + java.net.URLEncoder.encode(
          "last:>=2026-01-01T00:00:00.000100 AND first:<2026-01-01T00:00:00.000400", java.nio.charset.StandardCharsets.UTF_8))).get("total").asLong();
      assertEquals(queried, ranged);
      assertTrue(ranged > 0 && ranged < all.get("total").asLong(), "the range narrows: " + ranged);
    } finally {
      p.destroy();
      assertTrue(p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS), "the viewer ends on SIGTERM");
    }
  }

  /** {@code metaroce viewer --solr ...} on a free port, running until {@link #stopViewer}. */
  static void startViewer(List<String> solr, Path tmp) throws Exception {
    List<String> command = new ArrayList<>(List.of(Launcher.SCRIPT.toString(), "viewer", "--port", "0"));
    command.addAll(solr);
    ProcessBuilder pb = new ProcessBuilder(command).redirectError(tmp.resolve("viewer.err").toFile());
    pb.environment().put("METAROCE_NO_BUILD", "1");
    viewer = pb.start();
  }

  /** The viewer of {@link #startViewer}, if the test ended before it was asked (a failed assertion). */
  static Process viewer;

  @AfterEach
  void stopViewer() {
    if (viewer != null) viewer.destroyForcibly();
  }

  static String get(String url) throws Exception {
    var r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), url + ": " + r.body());
    return r.body();
  }

  /** Every search of the list, as parsed JSON without the indexing time (which differs between two runs). */
  static List<JsonNode> search(List<String> backend) throws Exception {
    return search(backend, java.util.stream.IntStream.range(0, SEARCHES.size()).boxed().toList());
  }

  static List<JsonNode> search(List<String> backend, List<Integer> which) throws Exception {
    List<Call> calls = new ArrayList<>();
    for (int i : which) {
      List<String> s = SEARCHES.get(i);
      List<String> c = new ArrayList<>(List.of("search"));
      c.addAll(backend);
      c.addAll(s);
      c.addAll(List.of("-T", "json"));
      calls.add(call(c));
    }
    List<JsonNode> out = new ArrayList<>();
    for (var r : Launcher.runAll(calls)) {
      assertEquals(0, r.exit(), r.show());
      JsonNode j = JSON.readTree(r.out());
      if (j.has("flows")) for (JsonNode f : j.get("flows")) ((ObjectNode) f).remove("indexed_at_ns");
      out.add(j);
    }
    return out;
  }

  /** The packets extract writes for the flows with retransmissions. */
  static byte[] extract(List<String> backend, Path to) throws Exception {
    List<String> c = new ArrayList<>(List.of("extract"));
    c.addAll(backend);
    c.addAll(List.of("retransmitted_packets:>0", "-w", to.toString()));
    var r = Launcher.run(call(c));
    assertEquals(0, r.exit(), r.show());
    return Files.readAllBytes(to);
  }

  /** A run of the shipped launcher (a separate JVM: the tool's Lucene 10 never meets Solr's Lucene 9 in this one). */
  static Call call(List<String> args) {
    return Call.of(args).timeout(300);
  }

  static List<String> lines(String out) {
    return out.lines().sorted().toList();
  }
}

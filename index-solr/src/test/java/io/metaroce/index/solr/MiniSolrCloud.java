package io.metaroce.index.solr;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.embedded.JettySolrRunner;

/**
 * A real SolrCloud inside the test JVM: ZooKeeper plus N Solr nodes (Jetty) on random loopback ports, with no
 * configset preloaded: the tool under test uploads its own, over HTTP, as it would to a production cluster.
 */
final class MiniSolrCloud implements AutoCloseable {

  private final MiniSolrCloudCluster cluster;
  private final Path dir;

  private MiniSolrCloud(MiniSolrCloudCluster cluster, Path dir) {
    this.cluster = cluster;
    this.dir = dir;
  }

  static MiniSolrCloud start(int nodes) throws Exception {
    Path dir = Files.createTempDirectory("metaroce-solrcloud");
    System.setProperty("solr.log.dir", dir.resolve("logs").toString());
    return new MiniSolrCloud(new MiniSolrCloudCluster.Builder(nodes, dir).build(), dir);
  }

  /** The base URLs of the running nodes, as a user would pass them to --solr. */
  List<String> nodeUrls() {
    return cluster.getJettySolrRunners().stream().filter(JettySolrRunner::isRunning)
        .map(j -> j.getBaseUrl().toString()).toList();
  }

  /** The --solr argument naming every node, also those stopped (the client must skip a dead one). */
  String allNodeUrls() {
    return String.join(",", cluster.getJettySolrRunners().stream().map(j -> j.getBaseUrl().toString()).toList());
  }

  void waitActive(String collection, int shards, int replicas) {
    cluster.waitForActiveCollection(collection, 60, TimeUnit.SECONDS, shards, shards * replicas);
  }

  /** Stops node i gracefully; returns its runner for {@link #restart}. */
  JettySolrRunner stop(int i) throws Exception {
    JettySolrRunner jetty = cluster.stopJettySolrRunner(i);
    cluster.waitForJettyToStop(jetty);
    return jetty;
  }

  /** Starts a stopped node again on its old port, so its replicas recover from the shard leaders. */
  void restart(JettySolrRunner jetty) throws Exception {
    cluster.startJettySolrRunner(jetty, true);
    cluster.waitForNode(jetty, 60);
  }

  @Override
  public void close() throws Exception {
    try {
      cluster.shutdown();
    } finally {
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}

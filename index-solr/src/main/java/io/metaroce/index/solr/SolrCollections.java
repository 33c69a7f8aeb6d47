package io.metaroce.index.solr;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.client.solrj.response.CollectionAdminResponse;
import io.metaroce.index.IndexFormatException;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.util.ContentStreamBase;

/**
 * Connects to a SolrCloud and creates the flow collection with the shipped configset. Talks HTTP only: the
 * cluster state comes from the Solr nodes themselves, the tool has no ZooKeeper client.
 */
public final class SolrCollections {

  private SolrCollections() {}

  /** A cloud client over the node URLs: it routes updates to shard leaders and spreads queries over replicas. */
  public static CloudHttp2SolrClient connect(SolrTarget target) {
    var http = new Http2SolrClient.Builder()
        .withConnectionTimeout(10, TimeUnit.SECONDS)
        .withIdleTimeout(120, TimeUnit.SECONDS);
    return new CloudHttp2SolrClient.Builder(target.nodeUrls())
        .withInternalClientBuilder(http)
        .withDefaultCollection(target.collection())
        .build();
  }

  /** The collections of the cluster. */
  public static List<String> list(SolrClient client) throws IOException {
    try {
      return CollectionAdminRequest.listCollections(client);
    } catch (SolrServerException e) {
      throw unreachable(e);
    }
  }

  /**
   * Creates the collection with N shards of M replicas each, uploading the configset first when the cluster does
   * not have it yet. Returns once every replica is active. Returns false, doing nothing, when the collection
   * already exists (many writers of a fleet may all pass --create-collection).
   */
  public static boolean createIfAbsent(CloudHttp2SolrClient client, String collection, int shards, int replicas) throws IOException {
    if (shards < 1 || replicas < 1) throw new IllegalArgumentException("--shards and --replicas must be at least 1");
    if (list(client).contains(collection)) return false;
    try {
      var configsets = new ConfigSetAdminRequest.List().process(client).getConfigSets();
      if (!configsets.contains(FlowConfigset.NAME)) {
        var stream = new ContentStreamBase.ByteArrayStream(FlowConfigset.zip(), FlowConfigset.NAME + ".zip", "application/zip");
        new ConfigSetAdminRequest.Upload().setConfigSetName(FlowConfigset.NAME).setUploadStream(stream).process(client);
      }
      var create = CollectionAdminRequest.createCollection(collection, FlowConfigset.NAME, shards, replicas);
      create.setWaitForFinalState(true);
      CollectionAdminResponse response = create.process(client);
      if (!response.isSuccess()) {
        throw new IOException("Solr could not create collection '" + collection + "': " + response.getErrorMessages());
      }
      return true;
    } catch (SolrServerException e) {
      throw unreachable(e);
    } catch (SolrException e) {
      throw new IOException("SolrCloud could not create collection '" + collection + "': " + e.getMessage(), e);
    }
  }

  /**
   * Fails with one clear line when the collection is missing (naming the option that creates it) or was made
   * from another configset (another schema version, or not a flow index at all).
   */
  public static void require(CloudHttp2SolrClient client, SolrTarget target) throws IOException {
    if (!list(client).contains(target.collection())) {
      throw new IndexFormatException("SolrCloud at " + String.join(",", target.nodeUrls()) + " has no collection '"
          + target.collection() + "' (create it with --create-collection --shards N --replicas M)");
    }
    String config;
    try {
      config = client.getClusterStateProvider().getCollection(target.collection()).getConfigName();
    } catch (SolrException | IOException e) {
      throw new IndexFormatException("SolrCloud collection '" + target.collection() + "': cannot read its state: " + e.getMessage());
    }
    // The older version differs by the hidden attempt field only: same documents, same queries (SolrFlowIndex asks
    // the schema itself whether the field is there before its first add).
    if (!FlowConfigset.NAME.equals(config) && !FlowConfigset.OLDER.equals(config)) {
      throw new IndexFormatException("SolrCloud collection '" + target.collection() + "' uses configset '" + config
          + "', not " + FlowConfigset.NAME + ": it is not a flow index of this schema version");
    }
  }

  /** One line naming the cluster and the innermost cause, for a failure to reach or open the collection. */
  static String oneLine(SolrTarget target, Exception e) {
    if (e instanceof IndexFormatException) return e.getMessage();
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    String why = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    // SolrJ's words when no node of the list answered (refused, no route, not Solr) name its own classes ("try
    // re-creating a new CloudSolrClient using working solr URLs") and give no reason: say it in the user's terms.
    if (why.startsWith("Failed fetching live_nodes")) {
      return "SolrCloud at " + String.join(",", target.nodeUrls())
          + ": no Solr node answered (is Solr running there, in SolrCloud mode? check --solr)";
    }
    String head = e.getMessage() == null ? "" : e.getMessage();
    String msg = head.startsWith("SolrCloud") ? head : "SolrCloud at " + String.join(",", target.nodeUrls()) + ": " + head;
    return msg.contains(why) ? msg : msg + " (" + why + ")";
  }

  static IOException unreachable(SolrServerException e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    return new IOException("SolrCloud unreachable or failing: " + root.getMessage(), e);
  }
}

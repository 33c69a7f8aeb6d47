package io.metaroce.index.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.solr.client.solrj.SolrQuery;
import io.metaroce.index.IndexFormatException;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.common.util.ContentStreamBase;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The collection set-up a user gets from --create-collection, on a real 2-node SolrCloud. */
@ExtendWith(SolrCloudExtension.class)
class SolrCollectionsTest {

  static MiniSolrCloud cloud;

  @BeforeAll
  static void cluster(MiniSolrCloud shared) {
    cloud = shared;
  }

  @Test
  void createsA2x2CollectionFromTheShippedConfigsetOnceAndSurvivesANodeStop() throws Exception {
    var target = SolrTarget.parse(cloud.allNodeUrls(), "setup");
    try (var client = SolrCollections.connect(target)) {
      assertThrows(java.io.IOException.class, () -> SolrCollections.require(client, target));
      assertTrue(SolrCollections.createIfAbsent(client, "setup", 2, 2));
      assertFalse(SolrCollections.createIfAbsent(client, "setup", 2, 2), "second create is a no-op");
      SolrCollections.require(client, target);
      assertTrue(new ConfigSetAdminRequest.List().process(client).getConfigSets().contains(FlowConfigset.NAME));
      cloud.waitActive("setup", 2, 2);

      List<SolrInputDocument> docs = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        var d = new SolrInputDocument();
        d.addField("id", "doc-" + i);
        docs.add(d);
      }
      client.add(docs);
      client.commit();
      assertEquals(100, client.query(new SolrQuery("*:*")).getResults().getNumFound());

      var stopped = cloud.stop(1);
      assertEquals(100, client.query(new SolrQuery("*:*")).getResults().getNumFound(), "one node down");
      cloud.restart(stopped);
      cloud.waitActive("setup", 2, 2);
      assertEquals(100, client.query(new SolrQuery("id:doc-7")).getResults().getNumFound() * 100);
    }
  }

  @Test
  void openingSaysInOneLineWhatIsWrong() throws Exception {
    // nothing listens on port 1 of the loopback address
    var down = assertThrows(IndexFormatException.class, () -> SolrFlowIndex.open(SolrTarget.parse("http://127.0.0.1:1/solr", "flows"), 0, 0));
    assertTrue(down.getMessage().startsWith("SolrCloud at http://127.0.0.1:1/solr"), down.getMessage());
    assertFalse(down.getMessage().contains("\n"), down.getMessage());

    var missing = assertThrows(IndexFormatException.class, () -> SolrFlowIndex.open(SolrTarget.parse(cloud.allNodeUrls(), "nosuch"), 0, 0));
    assertTrue(missing.getMessage().endsWith("has no collection 'nosuch' (create it with --create-collection --shards N --replicas M)"), missing.getMessage());

    // a collection of another configset (here: ours under another name, as an older schema version would be)
    var target = SolrTarget.parse(cloud.allNodeUrls(), "foreign");
    try (var client = SolrCollections.connect(target)) {
      var stream = new ContentStreamBase.ByteArrayStream(FlowConfigset.zip(), "other.zip", "application/zip");
      new ConfigSetAdminRequest.Upload().setConfigSetName("other").setUploadStream(stream).process(client);
      CollectionAdminRequest.createCollection("foreign", "other", 1, 1).process(client);
    }
    var foreign = assertThrows(IndexFormatException.class, () -> SolrFlowIndex.open(target, 0, 0));
    assertEquals("SolrCloud collection 'foreign' uses configset 'other', not " + FlowConfigset.NAME
        + ": it is not a flow index of this schema version", foreign.getMessage());
  }
}

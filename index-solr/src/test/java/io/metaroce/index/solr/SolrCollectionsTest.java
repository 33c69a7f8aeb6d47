package io.metaroce.index.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
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
}

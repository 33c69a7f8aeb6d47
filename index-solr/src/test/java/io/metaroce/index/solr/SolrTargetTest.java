package io.metaroce.index.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SolrTargetTest {

  @Test
  void parsesAListOfNodeUrlsAndAddsSolrsDefaultPath() {
    var t = SolrTarget.parse("http://a:8983, http://b:8983/solr/,https://c:1/x", "flows");
    assertEquals(List.of("http://a:8983/solr", "http://b:8983/solr", "https://c:1/x"), t.nodeUrls());
    assertEquals("flows", t.collection());
  }

  @Test
  void rejectsWhatIsNotAnHttpUrlOrACollectionName() {
    var e = assertThrows(IllegalArgumentException.class, () -> SolrTarget.parse("localhost:8983", "flows"));
    assertTrue(e.getMessage().startsWith("--solr: 'localhost:8983' is not an http(s) URL"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SolrTarget.parse(" , ", "flows"));
    assertThrows(IllegalArgumentException.class, () -> SolrTarget.parse("http://a:1", "no/slash"));
    assertThrows(IllegalArgumentException.class, () -> SolrTarget.parse("http://a:1", null));
  }
}

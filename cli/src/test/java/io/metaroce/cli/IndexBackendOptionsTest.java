package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The backend options of index/search/extract: a wrong combination is one usage line and exit 2. */
class IndexBackendOptionsTest {

  private static void usage(String expected, String... args) {
    CliRun r = CliRun.of(args);
    assertEquals(2, r.exit(), r.err());
    assertTrue(r.err().contains(expected), r.err());
  }

  @Test
  void solrOptionsGoTogether() {
    usage("--solr needs --collection NAME", "search", "--solr", "http://127.0.0.1:1/solr", "*:*");
    usage("--index and --solr name two indexes", "search", "--index", "x.idx", "--solr", "http://127.0.0.1:1/solr", "--collection", "f", "*:*");
    usage("--collection and --create-collection go with --solr URL", "search", "--index", "x.idx", "--collection", "f", "*:*");
    usage("is not an http(s) URL", "search", "--solr", "localhost:8983", "--collection", "f", "*:*");
    usage("--shards and --replicas must be at least 1", "index", "--solr", "http://127.0.0.1:1/solr", "--collection", "f",
        "--create-collection", "--shards", "0", "../samples/captures/rocev2-clean.pcapng");
  }

  @Test
  void anUnreachableClusterIsOneLine() {
    CliRun r = CliRun.of("search", "--solr", "http://127.0.0.1:1/solr", "--collection", "flows", "*:*");
    assertEquals(2, r.exit(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().startsWith("metaroce search: SolrCloud at http://127.0.0.1:1/solr"), r.err());
  }
}

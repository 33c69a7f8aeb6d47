package io.metaroce.index.solr;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a SolrCloud flow index lives: the base URLs of one or more Solr nodes (any of them answers the cluster
 * state, so a list survives a node that is down) and the collection name.
 */
public record SolrTarget(List<String> nodeUrls, String collection) {

  public SolrTarget {
    if (nodeUrls.isEmpty()) throw new IllegalArgumentException("--solr needs at least one node URL");
    if (collection == null || !collection.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
      throw new IllegalArgumentException("--collection: '" + collection
          + "' is not a Solr collection name (letters, digits, '.', '_', '-'; not starting with '.', '_' or '-')");
    }
    nodeUrls = List.copyOf(nodeUrls);
  }

  /**
   * Parses {@code --solr URL[,URL...]}. A URL without a path gets Solr's default {@code /solr}, as users often
   * paste {@code http://host:8983} from the admin UI's address bar.
   */
  public static SolrTarget parse(String urls, String collection) {
    List<String> nodes = new ArrayList<>();
    for (String raw : urls.split(",")) {
      String u = raw.strip();
      if (u.isEmpty()) continue;
      URI uri;
      try {
        uri = URI.create(u);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--solr: '" + u + "' is not a URL (" + e.getMessage() + ")");
      }
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
        throw new IllegalArgumentException("--solr: '" + u + "' is not an http(s) URL of a Solr node, e.g. http://localhost:8983/solr");
      }
      String path = uri.getPath() == null ? "" : uri.getPath().replaceAll("/+$", "");
      if (path.isEmpty()) path = "/solr";
      nodes.add(uri.getScheme() + "://" + uri.getRawAuthority() + path);
    }
    return new SolrTarget(nodes, collection);
  }
}

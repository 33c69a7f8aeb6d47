package io.metaroce.index.solr;

import io.metaroce.index.FacetBucket;
import io.metaroce.index.FieldDef;
import io.metaroce.index.FieldType;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowIndex;
import io.metaroce.index.FlowIndexQueries;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.IndexFormatException;
import io.metaroce.index.IndexedCapture;
import io.metaroce.index.SearchResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.request.json.JsonQueryRequest;
import org.apache.solr.client.solrj.request.json.TermsFacetMap;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.client.solrj.response.json.BucketBasedJsonFacet;
import org.apache.solr.client.solrj.response.json.BucketJsonFacet;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.CursorMarkParams;

/**
 * The flow index on a SolrCloud collection: the same documents, query tree and answers as the embedded index.
 * Queries go to Solr as filter queries translated from the tree ({@link SolrQueries}); facets are JSON terms
 * facets that return every bucket of every shard, so sums are exact, then ordered here as every backend orders
 * them ({@link FacetBucket#ORDER}).
 *
 * <p>A capture's documents become visible together: they are sent, then committed once (the configset never
 * opens a searcher on its own). SolrCloud has no transaction across shards, so a writer killed between sending
 * and committing leaves documents that a later commit exposes without their capture document; indexing that
 * capture again replaces them (its hash and path are deleted first). What Solr can give, then: a capture whose
 * documents fail to be made (the iteration throws) leaves the collection as it was, since nothing is sent before the
 * iteration ends; a capture whose sending fails or is killed midway leaves, at the next commit of any writer, its
 * earlier documents deleted and part of the new ones without their capture document (a capture not indexed, which
 * the next run indexes again); a capture counts as indexed once its commit returns.
 */
public final class SolrFlowIndex implements FlowIndex {

  private static final int BATCH = 1000;
  private static final int PAGE = 1000;

  private final CloudHttp2SolrClient client;
  private final SolrTarget target;

  private SolrFlowIndex(CloudHttp2SolrClient client, SolrTarget target) {
    this.client = client;
    this.target = target;
  }

  /**
   * Opens the collection, creating it first (N shards of M replicas, configset uploaded) when
   * {@code createShards} is positive and it does not exist yet.
   *
   * @throws IOException one line: unreachable cluster, missing collection, or one of another schema version
   */
  public static SolrFlowIndex open(SolrTarget target, int createShards, int createReplicas) throws IOException {
    CloudHttp2SolrClient client = null;
    try {
      client = SolrCollections.connect(target);
      if (createShards > 0) SolrCollections.createIfAbsent(client, target.collection(), createShards, createReplicas);
      SolrCollections.require(client, target);
      return new SolrFlowIndex(client, target);
    } catch (IndexFormatException e) {
      closeQuietly(client);
      throw e;
    } catch (IOException | RuntimeException e) {
      closeQuietly(client);
      // Opening is where an unreachable cluster shows: one line for the user, as for an unusable index directory.
      throw new IndexFormatException(SolrCollections.oneLine(target, e));
    }
  }

  private static void closeQuietly(CloudHttp2SolrClient client) {
    if (client == null) return;
    try {
      client.close();
    } catch (IOException | RuntimeException ignored) {
      // already failing: the first error is the one the user needs
    }
  }

  public SolrTarget target() {
    return target;
  }

  @Override
  public void addCapture(IndexedCapture capture, List<FlowDocument> documents) throws IOException {
    addCapture(capture, (Iterable<FlowDocument>) documents);
  }

  /**
   * Streamed: the documents are converted as the iteration gives them and kept in batches of {@link #BATCH}; a capture
   * of more than one batch keeps them in a scratch file ({@link SolrBatchSpool}), not in a list, and nothing is sent
   * before the iteration has ended, so an iteration that fails leaves the collection as it was (SolrCloud could not take
   * back what was sent). Then, as before: the delete of the capture's earlier documents (its path or content), the
   * batches, the capture document last, one commit.
   */
  @Override
  public void addCapture(IndexedCapture capture, Iterable<FlowDocument> documents) throws IOException {
    String replaced = SolrQueries.toSolr(new FlowQuery.Or(List.of(FlowIndexQueries.captureHash(capture.hash()),
        FlowIndexQueries.capturePath(capture.path()))));
    List<SolrInputDocument> flows = new ArrayList<>(), captureDocs = new ArrayList<>(1);
    SolrBatchSpool spool = null;
    try {
      for (FlowDocument d : documents) {
        if (!capture.hash().equals(d.getString(FlowSchema.CAPTURE_HASH))) {
          throw new IllegalArgumentException("document " + d.id() + " is not of capture " + capture.hash());
        }
        // The capture document is sent last: a writer that dies midway leaves no capture document, so the
        // capture counts as not indexed and the next run indexes it again (replacing what was sent).
        if (FlowSchema.KIND_CAPTURE.equals(d.kind())) {
          captureDocs.add(SolrDocuments.toSolr(d));
          continue;
        }
        flows.add(SolrDocuments.toSolr(d));
        if (flows.size() == BATCH) {
          // An ordinary capture (one batch or less) never opens the file.
          if (spool == null) spool = SolrBatchSpool.open(spoolDir);
          spool.write(flows);
          spooled.incrementAndGet();
          flows.clear();
        }
      }
      SolrBatchSpool toSend = spool;
      run(() -> {
        client.deleteByQuery(replaced);
        if (toSend != null) {
          for (var batches = toSend.read(); batches.hasNext(); ) client.add(batches.next());
        }
        if (!flows.isEmpty()) client.add(flows);
        if (!captureDocs.isEmpty()) client.add(captureDocs);
        client.commit(true, true);
        return null;
      });
    } finally {
      if (spool != null) spool.close();
    }
  }

  /** Batches written to a {@link SolrBatchSpool} so far (tests: a capture of many batches is not held in a list). */
  static final java.util.concurrent.atomic.AtomicLong spooled = new java.util.concurrent.atomic.AtomicLong();

  /** Where {@link SolrBatchSpool} keeps a capture's batches (tests: a directory of their own). */
  static volatile java.nio.file.Path spoolDir = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"));

  @Override
  public IndexedCapture capture(String hash) throws IOException {
    var q = new FlowQuery.And(List.of(FlowIndexQueries.captures(), FlowIndexQueries.captureHash(hash)));
    List<IndexedCapture> found = new ArrayList<>();
    each(q, FlowSchema.ID, false, 1, d -> found.add(identity(d)));
    return found.isEmpty() ? null : found.getFirst();
  }

  @Override
  public List<IndexedCapture> captures() throws IOException {
    List<IndexedCapture> out = new ArrayList<>();
    each(FlowIndexQueries.captures(), FlowSchema.CAPTURE_PATH, false, Integer.MAX_VALUE, d -> out.add(identity(d)));
    return out;
  }

  @Override
  public boolean deleteCapture(String hash) throws IOException {
    if (capture(hash) == null) return false;
    run(() -> {
      client.deleteByQuery(SolrQueries.toSolr(FlowIndexQueries.captureHash(hash)));
      client.commit(true, true);
      return null;
    });
    return true;
  }

  @Override
  public List<IndexedCapture> expireBefore(long epochNs) throws IOException {
    List<IndexedCapture> expired = new ArrayList<>();
    var q = new FlowQuery.And(List.of(FlowIndexQueries.captures(), FlowIndexQueries.expiredBefore(epochNs)));
    each(q, FlowSchema.CAPTURE_PATH, false, Integer.MAX_VALUE, d -> expired.add(identity(d)));
    if (expired.isEmpty()) return expired;
    List<FlowQuery> hashes = expired.stream().map(c -> FlowIndexQueries.captureHash(c.hash())).toList();
    run(() -> {
      for (int i = 0; i < hashes.size(); i += 256) {   // stays under Solr's boolean clause limit
        client.deleteByQuery(SolrQueries.toSolr(new FlowQuery.Or(hashes.subList(i, Math.min(hashes.size(), i + 256)))));
      }
      client.commit(true, true);
      return null;
    });
    return expired;
  }

  @Override
  public SearchResult search(FlowQuery query, FlowSort sort, int limit) throws IOException {
    List<FlowDocument> flows = new ArrayList<>(Math.min(limit, PAGE));
    long total = each(FlowIndexQueries.flows(query), sort.field().name(), sort.descending(), limit,
        d -> flows.add(SolrDocuments.fromSolr(d)));
    return new SearchResult(total, flows);
  }

  @Override
  public List<FlowDocument> parts(String rootId) throws IOException {
    List<FlowDocument> out = new ArrayList<>();
    each(FlowIndexQueries.root(rootId), FlowSchema.PART, false, Integer.MAX_VALUE, d -> out.add(SolrDocuments.fromSolr(d)));
    return out;
  }

  @Override
  public List<FacetBucket> top(FieldDef groupField, FieldDef counter, int n, FlowQuery filter) throws IOException {
    if (!groupField.groupable()) throw new IllegalArgumentException("'" + groupField.name() + "' cannot group a facet: use a keyword, integer or IP field");
    if (!counter.summable()) throw new IllegalArgumentException("'" + counter.name() + "' cannot be summed: use a counter");
    // limit -1: every shard returns every bucket, so no sum misses a shard's share (exact, not approximate).
    var terms = new TermsFacetMap(groupField.name()).setLimit(-1).setSort("index asc")
        .withStatSubFacet("s", "sum(" + counter.name() + ")");
    var request = new JsonQueryRequest().setQuery("*:*").withFilter(SolrQueries.toSolr(FlowIndexQueries.flows(filter)))
        .setLimit(0).withFacet("g", terms);
    QueryResponse response = run(() -> request.process(client));
    // Keyed by value; IP text merged by address: ::ffff:10.0.0.2 (an IPv6 header carrying an IPv4-mapped address) is
    // the address 10.0.0.2, as the embedded index's InetAddressPoint groups it, so both backends give one bucket.
    java.util.Map<Object, long[]> byKey = new java.util.LinkedHashMap<>();
    BucketBasedJsonFacet g = response.getJsonFacetingResponse().getBucketBasedFacets("g");
    if (g != null) {
      for (BucketJsonFacet b : g.getBuckets()) {
        Object s = b.getStatValue("s");
        long sum = s == null ? 0 : Math.round(((Number) s).doubleValue());
        Object key = groupField.type() == FieldType.LONG ? (Object) ((Number) b.getVal()).longValue() : b.getVal().toString();
        if (groupField.type() == FieldType.IP) {
          var address = io.metaroce.index.IpAddresses.parse((String) key);
          if (address != null) key = io.metaroce.index.IpAddresses.text(address);
        }
        long[] acc = byKey.computeIfAbsent(key, k -> new long[2]);
        acc[0] += sum;
        acc[1] += b.getCount();
      }
    }
    List<FacetBucket> buckets = new ArrayList<>();
    byKey.forEach((key, acc) -> buckets.add(new FacetBucket(key, acc[0], acc[1])));
    buckets.sort(FacetBucket.ORDER);
    return List.copyOf(buckets.subList(0, Math.min(n, buckets.size())));
  }

  /**
   * Streams the documents matching a query in order (ties by id), at most {@code limit}, paging with a cursor so
   * that a large answer never makes a shard collect it in one queue. Returns how many match in all.
   */
  private long each(FlowQuery query, String sortField, boolean descending, int limit, Consumer<SolrDocument> sink) throws IOException {
    var q = new SolrQuery("*:*").addFilterQuery(SolrQueries.toSolr(query)).setFields("*");
    q.addSort(sortField, descending ? SolrQuery.ORDER.desc : SolrQuery.ORDER.asc);
    if (!sortField.equals(FlowSchema.ID)) q.addSort(FlowSchema.ID, SolrQuery.ORDER.asc);
    q.setRows(Math.min(limit, PAGE));
    String cursor = CursorMarkParams.CURSOR_MARK_START;
    long total = -1;
    int seen = 0;
    while (true) {
      q.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor);
      QueryResponse r = run(() -> client.query(q));
      if (total < 0) total = r.getResults().getNumFound();
      for (SolrDocument d : r.getResults()) {
        if (seen++ == limit) return total;
        sink.accept(d);
      }
      String next = r.getNextCursorMark();
      if (seen >= limit || r.getResults().isEmpty() || next.equals(cursor)) return total;
      cursor = next;
    }
  }

  private static IndexedCapture identity(SolrDocument s) {
    FlowDocument d = SolrDocuments.fromSolr(s);
    return new IndexedCapture(d.getString(FlowSchema.CAPTURE_PATH), d.getLong(FlowSchema.CAPTURE_SIZE),
        d.getString(FlowSchema.CAPTURE_HASH), d.getString(FlowSchema.CAPTURE_FORMAT), d.getString(FlowSchema.TAP),
        d.getLong(FlowSchema.CAPTURE_FIRST), d.getLong(FlowSchema.CAPTURE_LAST), d.getLong(FlowSchema.INDEXED_AT));
  }

  private interface SolrCall<T> {
    T call() throws SolrServerException, IOException;
  }

  /** One Solr round trip, its failures as one-line IOExceptions. */
  private <T> T run(SolrCall<T> call) throws IOException {
    try {
      return call.call();
    } catch (SolrServerException e) {
      throw SolrCollections.unreachable(e);
    } catch (SolrException e) {
      throw new IOException("SolrCloud collection '" + target.collection() + "': " + e.getMessage(), e);
    }
  }

  @Override
  public void close() throws IOException {
    client.close();
  }
}

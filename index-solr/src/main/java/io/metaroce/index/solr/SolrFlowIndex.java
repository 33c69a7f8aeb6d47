package io.metaroce.index.solr;

import io.metaroce.index.Connection;
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
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.request.json.JsonQueryRequest;
import org.apache.solr.client.solrj.request.json.DomainMap;
import org.apache.solr.client.solrj.request.schema.SchemaRequest;
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
 * opens a searcher on its own). SolrCloud has no transaction across shards or requests and no rollback in cloud mode,
 * and any writer's commit (or a node's autoCommit with a new searcher) exposes whatever was sent. What Solr can give,
 * then, and what this does: a capture whose documents fail to be made (the iteration throws) leaves the collection as
 * it was, since nothing is sent before the iteration ends; then its documents are sent tagged with an id of this add
 * ({@link #ATTEMPT}), and only after the last of them the earlier documents of its path or content are deleted, by a
 * query that spares this add's tag, then the capture document is sent and the commit made. So a send that fails or
 * is killed before that delete leaves, at the next commit of any writer, <b>the earlier capture whole</b>, plus the
 * flow documents of this add sent so far, without a capture document (a capture not indexed: the next run indexes it
 * again and its delete, by path, removes them; a send that fails with Solr still reachable removes them itself); one
 * killed between the delete and the capture document leaves the new flows whole without their capture document (the
 * next run indexes the capture again). A capture counts as indexed once its commit returns. This is the order of the
 * embedded index (LuceneFlowIndex's {@code _attempt}), without its atomic commit. A collection made with the configset
 * of schema version 1 has no such field: there a capture is replaced in the order of version 1 (the earlier documents
 * deleted first), so a killed send leaves neither capture until the next run.
 *
 * <p>What a killed send leaves is never read: {@link #search} (its count too), {@link #parts} and {@link #top} see only
 * the documents of captures whose capture document is in the collection ({@link #hidden}). So every read shows whole
 * captures, those whose commit was reported, also while another writer's capture is being sent; the documents without
 * a capture document stay in the collection until the next index of their path or the expiry deletes them.
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
   * back what was sent). Then the batches, tagged with this add's {@link #ATTEMPT} id; the delete of the capture's
   * earlier documents (its path or content) that this add did not send; the capture document last; one commit.
   */
  @Override
  public void addCapture(IndexedCapture capture, Iterable<FlowDocument> documents) throws IOException {
    String replaced = SolrQueries.toSolr(new FlowQuery.Or(List.of(FlowIndexQueries.captureHash(capture.hash()),
        FlowIndexQueries.capturePath(capture.path()))));
    String attempt = tagged() ? attemptPrefix + attempts.incrementAndGet() : null;
    List<SolrInputDocument> flows = new ArrayList<>(), captureDocs = new ArrayList<>(1);
    SolrBatchSpool spool = null;
    try {
      for (FlowDocument d : documents) {
        if (!capture.hash().equals(d.getString(FlowSchema.CAPTURE_HASH))) {
          throw new IllegalArgumentException("document " + d.id() + " is not of capture " + capture.hash());
        }
        SolrInputDocument s = SolrDocuments.toSolr(d);
        if (attempt != null) s.addField(ATTEMPT, attempt);
        // The capture document is sent last: a writer that dies midway leaves no capture document, so the
        // capture counts as not indexed and the next run indexes it again (replacing what was sent).
        if (FlowSchema.KIND_CAPTURE.equals(d.kind())) {
          captureDocs.add(s);
          continue;
        }
        flows.add(s);
        if (flows.size() == BATCH) {
          // An ordinary capture (one batch or less) never opens the file.
          if (spool == null) spool = SolrBatchSpool.open(spoolDir);
          spool.write(flows);
          spooled.incrementAndGet();
          flows.clear();
        }
      }
      SolrBatchSpool toSend = spool;
      if (attempt == null) {
        // Schema version 1 (no attempt field): the earlier documents deleted first, as that version did.
        run(() -> {
          client.deleteByQuery(replaced);
          send(toSend, flows);
          if (!captureDocs.isEmpty()) client.add(captureDocs);
          client.commit(true, true);
          return null;
        });
      } else {
        run(() -> {
          sendTagged(capture, replaced, attempt, toSend, flows, captureDocs);
          return null;
        });
      }
    } finally {
      hidden = null;   // what this add sent or left changes which hashes are orphans
      if (spool != null) spool.close();
    }
  }

  /** Sends the spooled batches, then the last one (held in memory); before each, {@link #sending} (tests). */
  private void send(SolrBatchSpool spooled, List<SolrInputDocument> last) throws SolrServerException, IOException {
    int n = 0;
    if (spooled != null) {
      for (var batches = spooled.read(); batches.hasNext(); ) {
        List<SolrInputDocument> batch = batches.next();
        sending.accept(n++);
        client.add(batch);
      }
    }
    if (!last.isEmpty()) {
      sending.accept(n);
      client.add(last);
    }
  }

  /**
   * The order of schema version 2: this add's documents, then the delete of the earlier ones that spares them, then the
   * capture document and the commit. A failure before the delete was sent takes this add's documents back out (best
   * effort: with Solr unreachable that fails too, and the next run of the path deletes them), unless a capture of the
   * same content is indexed: its documents have the same ids as these, so Solr replaced them with these (equal but
   * for the indexing time and the tag), and deleting these would leave that capture with holes.
   */
  private void sendTagged(IndexedCapture capture, String replaced, String attempt, SolrBatchSpool spooled,
      List<SolrInputDocument> last, List<SolrInputDocument> captureDocs) throws SolrServerException, IOException {
    boolean deleting = false;
    try {
      send(spooled, last);
      // Set before the call: a delete whose answer is lost may have been applied all the same.
      deleting = true;
      client.deleteByQuery("(" + replaced + ") AND NOT " + ATTEMPT + ":" + SolrQueries.escape(attempt));
      sendingCapture.run();
      if (!captureDocs.isEmpty()) client.add(captureDocs);
      client.commit(true, true);
    } catch (SolrServerException | IOException | RuntimeException | Error e) {
      if (!deleting) {
        try {
          if (capture(capture.hash()) == null) {
            client.deleteByQuery(ATTEMPT + ":" + SolrQueries.escape(attempt));
            client.commit(true, true);
          }
        } catch (SolrServerException | IOException | RuntimeException x) {
          e.addSuppressed(x);
        }
      }
      throw e;
    }
  }

  /**
   * The hidden field that tags every document an add sends with the add's id: declared by the configset of schema
   * version 2 as indexed, not stored, no doc values, and not a name of {@link FlowSchema}, so no query of the tool,
   * listing or document shows it ({@link SolrDocuments#fromSolr} reads the schema's names only, and Solr returns stored
   * fields only). The id stays in the collection: the next replacement of the capture tells its own documents from
   * these by it (they may have the same path and hash: the same file indexed again), so it differs from every earlier
   * add's, of any process (a random prefix per writer plus a counter).
   */
  static final String ATTEMPT = "_attempt";
  private final String attemptPrefix = java.util.UUID.randomUUID() + ":";
  private final java.util.concurrent.atomic.AtomicLong attempts = new java.util.concurrent.atomic.AtomicLong();
  /** Whether the collection's schema has {@link #ATTEMPT}; asked once, at the first add (a search never needs it). */
  private volatile Boolean tagged;

  /**
   * Whether this collection's schema declares {@link #ATTEMPT}: a collection made from the configset of schema version
   * 1 does not (Solr would refuse the documents: unknown field), nor does one whose operator kept that configset. Asked
   * of the schema itself, not told by the configset's name, so that an operator who added the field by hand (the
   * schema is mutable: {@code POST /schema} with the field line of the shipped managed-schema.xml) gets the order of
   * version 2.
   */
  boolean tagged() throws IOException {
    Boolean t = tagged;
    if (t == null) {
      var fields = run(() -> new SchemaRequest.Fields().process(client, target.collection())).getFields();
      tagged = t = fields.stream().anyMatch(f -> ATTEMPT.equals(f.get("name")));
    }
    return t;
  }

  /** Called with the batch number before each batch is sent (tests: a send that fails or is cut midway). */
  static volatile java.util.function.IntConsumer sending = n -> {};

  /** Called after the delete of the earlier documents, before the capture document is sent (tests: a send cut there). */
  static volatile Runnable sendingCapture = () -> {};

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
    try {
      run(() -> {
        client.deleteByQuery(SolrQueries.toSolr(FlowIndexQueries.captureHash(hash)));
        client.commit(true, true);
        return null;
      });
    } finally {
      hidden = null;
    }
    return true;
  }

  @Override
  public List<IndexedCapture> expireBefore(long epochNs) throws IOException {
    List<IndexedCapture> expired = new ArrayList<>();
    var q = new FlowQuery.And(List.of(FlowIndexQueries.captures(), FlowIndexQueries.expiredBefore(epochNs)));
    each(q, FlowSchema.CAPTURE_PATH, false, Integer.MAX_VALUE, d -> expired.add(identity(d)));
    // Documents of that age without a capture document: what a send killed midway left of a capture whose path is not
    // indexed again (the next index of the path would delete them). Every document carries its capture's times. Only
    // those indexed a day ago or more: an old capture being sent right now by another writer (its capture document
    // not there yet) must not lose part of its flows (it goes whole with the next expiry).
    FlowQuery staleQuery = new FlowQuery.And(List.of(FlowIndexQueries.expiredBefore(epochNs),
        new FlowQuery.LongRange(FlowSchema.field(FlowSchema.INDEXED_AT), Long.MIN_VALUE, IndexedCapture.nowNs() - STALE_AFTER_NS)));
    String stale = SolrQueries.toSolr(staleQuery);
    if (expired.isEmpty() && each(staleQuery, FlowSchema.ID, false, 0, d -> {}) == 0) return expired;
    List<FlowQuery> groups = anyOfHashes(expired.stream().map(IndexedCapture::hash).toList());
    try {
      run(() -> {
        for (FlowQuery group : groups) client.deleteByQuery(SolrQueries.toSolr(group));
        client.deleteByQuery(stale);
        client.commit(true, true);
        return null;
      });
    } finally {
      hidden = null;
    }
    return expired;
  }

  /** How long ago a document without a capture document must have been indexed for the expiry to take it: a day. */
  static final long STALE_AFTER_NS = 86_400_000_000_000L;

  @Override
  public SearchResult search(FlowQuery query, FlowSort sort, int limit) throws IOException {
    List<FlowDocument> flows = new ArrayList<>(Math.min(limit, PAGE));
    long total = each(FlowIndexQueries.flows(query), hidden(), sort.field().name(), sort.descending(), limit,
        d -> flows.add(SolrDocuments.fromSolr(d)));
    return new SearchResult(total, flows);
  }

  @Override
  public List<FlowDocument> parts(String rootId) throws IOException {
    List<FlowDocument> out = new ArrayList<>();
    each(FlowIndexQueries.root(rootId), hidden(), FlowSchema.PART, false, Integer.MAX_VALUE, d -> out.add(SolrDocuments.fromSolr(d)));
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
    for (String hide : hidden()) request.withFilter(hide);
    QueryResponse response = run(() -> request.process(client));
    // Keyed by value; IP text merged by address: ::ffff:10.0.0.2 (an IPv6 header carrying an IPv4-mapped address) is
    // the address 10.0.0.2, as the embedded index's InetAddressPoint groups it, so both backends give one bucket.
    java.util.Map<Object, long[]> byKey = new java.util.LinkedHashMap<>();
    BucketBasedJsonFacet g = response.getJsonFacetingResponse().getBucketBasedFacets("g");
    if (g != null) {
      for (BucketJsonFacet b : g.getBuckets()) {
        Object s = b.getStatValue("s");
        long sum = s == null ? 0 : Math.round(((Number) s).doubleValue());
        Object key = key(groupField, b);
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

  /** A bucket's value as the key every backend gives: a Long for an integer field, else text, an IP as its address. */
  private static Object key(FieldDef field, BucketJsonFacet b) {
    if (field.type() == FieldType.LONG) return ((Number) b.getVal()).longValue();
    String key = b.getVal().toString();
    if (field.type() == FieldType.IP) {
      var address = io.metaroce.index.IpAddresses.parse(key);
      if (address != null) key = io.metaroce.index.IpAddresses.text(address);
    }
    return key;
  }

  /**
   * Nested terms facets, as {@link #top}'s (every bucket of every shard, so exact): the first field's values, within
   * each the second's, within each a sum per counter; IP text merged by address as there.
   */
  @Override
  public List<Connection> connections(FieldDef from, FieldDef to, List<FieldDef> counters, int n, FlowQuery filter) throws IOException {
    Connection.check(from, to, counters);
    var inner = new TermsFacetMap(to.name()).setLimit(-1).setSort("index asc");
    for (int i = 0; i < counters.size(); i++) inner.withStatSubFacet("s" + i, "sum(" + counters.get(i).name() + ")");
    var outer = new TermsFacetMap(from.name()).setLimit(-1).setSort("index asc").withSubFacet("b", inner);
    var request = new JsonQueryRequest().setQuery("*:*").withFilter(SolrQueries.toSolr(FlowIndexQueries.flows(filter)))
        .setLimit(0).withFacet("a", outer);
    for (String hide : hidden()) request.withFilter(hide);
    QueryResponse response = run(() -> request.process(client));
    java.util.Map<List<Object>, long[]> byPair = new java.util.LinkedHashMap<>();
    for (BucketJsonFacet a : buckets(response.getJsonFacetingResponse().getBucketBasedFacets("a"))) {
      Object x = key(from, a);
      for (BucketJsonFacet b : buckets(a.getBucketBasedFacets("b"))) {
        long[] acc = byPair.computeIfAbsent(List.of(x, key(to, b)), k -> new long[1 + counters.size()]);
        acc[0] += b.getCount();
        for (int i = 0; i < counters.size(); i++) {
          Object s = b.getStatValue("s" + i);
          acc[1 + i] += s == null ? 0 : Math.round(((Number) s).doubleValue());
        }
      }
    }
    List<Connection> pairs = new ArrayList<>(byPair.size());
    byPair.forEach((k, v) -> {
      List<Long> sums = new ArrayList<>(counters.size());
      for (int i = 1; i < v.length; i++) sums.add(v[i]);
      pairs.add(new Connection(k.get(0), k.get(1), v[0], sums));
    });
    return Connection.top(pairs, n);
  }

  /**
   * Streams the documents matching a query in order (ties by id), at most {@code limit}, paging with a cursor so
   * that a large answer never makes a shard collect it in one queue. Returns how many match in all.
   */
  private long each(FlowQuery query, String sortField, boolean descending, int limit, Consumer<SolrDocument> sink) throws IOException {
    return each(query, List.of(), sortField, descending, limit, sink);
  }

  /** As {@link #each(FlowQuery, String, boolean, int, Consumer)}, with more filter queries (Solr's syntax). */
  private long each(FlowQuery query, List<String> filters, String sortField, boolean descending, int limit,
      Consumer<SolrDocument> sink) throws IOException {
    var q = new SolrQuery("*:*").addFilterQuery(SolrQueries.toSolr(query)).setFields("*");
    for (String f : filters) q.addFilterQuery(f);
    q.addSort(sortField, descending ? SolrQuery.ORDER.desc : SolrQuery.ORDER.asc);
    if (!sortField.equals(FlowSchema.ID)) q.addSort(FlowSchema.ID, SolrQuery.ORDER.asc);
    q.setRows(Math.min(limit, PAGE));
    String cursor = CursorMarkParams.CURSOR_MARK_START;
    long total = -1;
    int seen = 0;
    while (true) {
      q.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor);
      // With filters of hidden hashes, a POST: in the URL of a GET, 1,100 hashes overflow HTTP/2's header encoder (and
      // about a hundred would pass Jetty's default 8 KB request header, not tried); without any, the GET as before.
      QueryResponse r = run(() -> filters.isEmpty() ? client.query(q) : client.query(q, SolrRequest.METHOD.POST));
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

  /**
   * The filter queries that keep a read to the documents of indexed captures: none when every capture hash that
   * documents carry has its capture document (the usual case: no filter is added), else filters excluding the others'
   * hashes ("orphans": what a send killed or cut off midway left, or a capture being sent by another writer that a
   * commit exposed before its capture document). A flow cannot be filtered by its capture document inside Solr (the
   * capture document and the flows are on shards by id, and a join runs per shard), so this asks the collection, in one
   * request, for every capture hash that documents carry and every one that capture documents carry ({@link #orphans}):
   * the difference is the orphans. Asked once for the life of this object, at its first read (a search or extract run asks
   * once; extract reads the parts of every flow), and again after this object writes. So a reader that lives on keeps
   * hiding a capture that was without its capture document when asked, also once another writer has indexed it, and
   * shows the documents of a send cut after it asked; and a commit between the question and a read can expose a
   * capture being sent (milliseconds: the same as before this filter).
   */
  List<String> hidden() throws IOException {
    List<String> h = hidden;
    if (h == null) hidden = h = filtersExcluding(orphans());
    return h;
  }

  /** The filters of {@link #hidden()}; null when not asked yet, or after a write of this object. */
  private volatile List<String> hidden;

  /** Forgets the filters of {@link #hidden()}, so that the next read asks again (benchmark: each read as a run's first). */
  void forgetHidden() {
    hidden = null;
  }

  /**
   * The capture hashes of documents whose capture has no capture document, in index order: two terms facets on
   * {@code capture_hash} in one request, every bucket of every shard (limit -1, so exact), one over every document, one
   * over the capture documents; the hashes of the first that are not in the second. (A query facet on
   * {@code kind:capture} inside each bucket of one facet gave the same at 3.5 times the time: 20.5 against 5.9 ms at
   * 1,000 captures, docs/benchmarks.md.)
   */
  List<String> orphans() throws IOException {
    var all = new TermsFacetMap(FlowSchema.CAPTURE_HASH).setLimit(-1).setMinCount(1).setSort("index asc");
    var indexed = new TermsFacetMap(FlowSchema.CAPTURE_HASH).setLimit(-1).setMinCount(1).setSort("index asc")
        .withDomain(new DomainMap().withFilter(SolrQueries.toSolr(FlowIndexQueries.captures())));
    var request = new JsonQueryRequest().setQuery("*:*").setLimit(0).withFacet("all", all).withFacet("indexed", indexed);
    var facets = run(() -> request.process(client)).getJsonFacetingResponse();
    java.util.Set<String> withCapture = new java.util.HashSet<>();
    for (BucketJsonFacet b : buckets(facets.getBucketBasedFacets("indexed"))) withCapture.add(b.getVal().toString());
    List<String> orphans = new ArrayList<>();
    for (BucketJsonFacet b : buckets(facets.getBucketBasedFacets("all"))) {
      if (!withCapture.contains(b.getVal().toString())) orphans.add(b.getVal().toString());
    }
    return orphans;
  }

  private static List<BucketJsonFacet> buckets(BucketBasedJsonFacet facet) {
    return facet == null ? List.of() : facet.getBuckets();
  }

  /** Filter queries that no document of these capture hashes passes, 256 hashes a filter ({@link #anyOfHashes}). */
  static List<String> filtersExcluding(List<String> hashes) {
    return anyOfHashes(hashes).stream().map(group -> SolrQueries.toSolr(new FlowQuery.Not(group))).toList();
  }

  /** Queries for the documents of these capture hashes, 256 hashes a query: under Solr's boolean clause limit. */
  private static List<FlowQuery> anyOfHashes(List<String> hashes) {
    List<FlowQuery> groups = new ArrayList<>();
    for (int i = 0; i < hashes.size(); i += 256) {
      groups.add(new FlowQuery.Or(hashes.subList(i, Math.min(hashes.size(), i + 256)).stream()
          .map(FlowIndexQueries::captureHash).toList()));
    }
    return groups;
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

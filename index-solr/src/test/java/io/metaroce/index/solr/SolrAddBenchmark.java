package io.metaroce.index.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaroce.index.FieldDef;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.FlowSort;
import io.metaroce.index.IndexedCapture;
import io.metaroce.index.SyntheticFlows;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Iterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The time and heap of adding one capture of many documents to a 2-shard, 2-replica collection, then of replacing it
 * by a changed capture of the same path (docs/benchmarks.md, "helper solr, nineteenth session"). Off by default:
 * {@code ./mvnw -o -q -B -pl index-solr -am verify -Dtest=SolrAddBenchmark -Dsurefire.failIfNoSpecifiedTests=false
 * -Dmetaroce.bench.add=100000 -Dsurefire.argLine="--enable-native-access=ALL-UNNAMED -Xmx2g"}: the documents of
 * {@code SyntheticFlows.stream(5, N, 5)} (120,125 for N = 100,000: flows, parts and the capture document) as the plain
 * add, then those of capture 6 moved to capture 5's path as the replacing one. Per add: wall, CPU and bytes allocated
 * by the adding thread (the client's side: conversion, spool, javabin), the JVM's CPU (client and both nodes), and the JVM's peak heap (the two Solr nodes
 * run in this JVM too: their share is in it).
 */
@ExtendWith(SolrCloudExtension.class)
@EnabledIfSystemProperty(named = "metaroce.bench.add", matches = "\\d+")
class SolrAddBenchmark {

  @Test
  void addThenReplaceACaptureOfManyDocuments(MiniSolrCloud cloud) throws Exception {
    int flows = Integer.getInteger("metaroce.bench.add");
    IndexedCapture first = SyntheticFlows.identity(5), six = SyntheticFlows.identity(6);
    IndexedCapture changed = new IndexedCapture(first.path(), six.size(), six.hash(), six.format(), six.tap(), six.firstNs(),
        six.lastNs(), six.indexedAtNs());
    try (SolrFlowIndex index = SolrFlowIndex.open(SolrTarget.parse(cloud.allNodeUrls(), "addbench"), 2, 2)) {
      long docs = measure("plain add", () -> index.addCapture(first, moved(SyntheticFlows.stream(5, flows, 5), first.path())));
      long replacing = measure("replacing add", () -> index.addCapture(changed, moved(SyntheticFlows.stream(6, flows, 5), first.path())));
      long found = index.search(FlowQueryParser.parse("capture_path:\"" + first.path() + "\""), FlowSort.DEFAULT, 0).total();
      System.out.printf("solr add bench: %d and %d documents sent; %d flows of the path after the replace%n", docs, replacing, found);
      assertEquals(1, index.captures().size());
      assertEquals(changed.hash(), index.captures().getFirst().hash());
    }
  }

  interface Add {
    void run() throws Exception;
  }

  static long counted;

  static long measure(String what, Add add) throws Exception {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    for (int i = 0; i < 3; i++) System.gc();
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) p.resetPeakUsage();
    long heapBefore = heapUsed();
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long process = os.getProcessCpuTime();
    long cpu = threads.getCurrentThreadCpuTime(), alloc = threads.getCurrentThreadAllocatedBytes(), t = System.nanoTime();
    counted = 0;
    add.run();
    long wall = System.nanoTime() - t;
    cpu = threads.getCurrentThreadCpuTime() - cpu;
    process = os.getProcessCpuTime() - process;
    alloc = threads.getCurrentThreadAllocatedBytes() - alloc;
    long peak = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) peak += p.getPeakUsage().getUsed();
    }
    System.out.printf("solr add bench: %s: %.2f s wall, JVM %.2f s CPU (client and both nodes), adding thread %.2f s CPU and %.0f MB"
        + " allocated; JVM heap %.0f MB before, peak %.0f MB%n", what, wall / 1e9, process / 1e9, cpu / 1e9, alloc / 1e6, heapBefore / 1e6, peak / 1e6);
    return counted;
  }

  static long heapUsed() {
    long used = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) if (p.getType() == MemoryType.HEAP) used += p.getUsage().getUsed();
    return used;
  }

  /** The documents with this capture path (for the replacing add: a changed file at the first one's path), counted; both adds rebuild theirs. */
  static Iterable<FlowDocument> moved(Iterable<FlowDocument> in, String path) {
    return () -> new Iterator<>() {
      final Iterator<FlowDocument> it = in.iterator();

      public boolean hasNext() { return it.hasNext(); }

      public FlowDocument next() {
        FlowDocument d = it.next();
        FlowDocument.Builder b = FlowDocument.builder();
        for (String name : d.fields().keySet()) {
          FieldDef f = FlowSchema.field(name);
          if (name.equals(FlowSchema.CAPTURE_PATH)) b.put(name, path);
          else if (f != null && f.multi()) for (Object v : d.values(name)) b.add(name, v);
          else b.put(name, d.get(name));
        }
        counted++;
        return b.build();
      }
    };
  }
}

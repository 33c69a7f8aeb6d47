package io.metaroce.index.solr;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests one 2-node SolrCloud for the whole test run: starting ZooKeeper and two Solr nodes costs several
 * seconds, so test classes share it (each uses its own collection) and it stops when the run ends.
 */
final class SolrCloudExtension implements ParameterResolver {

  private record Shared(MiniSolrCloud cloud) implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() throws Throwable {
      cloud.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
    return p.getParameter().getType() == MiniSolrCloud.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext c) {
    return c.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(Shared.class, k -> {
          try {
            return new Shared(MiniSolrCloud.start(2));
          } catch (Exception e) {
            throw new IllegalStateException("could not start the in-JVM SolrCloud", e);
          }
        }, Shared.class).cloud();
  }
}

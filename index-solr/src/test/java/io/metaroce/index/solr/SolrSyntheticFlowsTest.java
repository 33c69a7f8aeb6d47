package io.metaroce.index.solr;

import io.metaroce.index.FlowIndex;
import io.metaroce.index.FlowIndexContract;
import java.io.IOException;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The backend contract ({@link FlowIndexContract}, from index-api's test-jar: the checks the embedded index
 * passes, on the same synthetic captures) on a 2-shard, 2-replica collection of the in-JVM SolrCloud.
 */
@ExtendWith(SolrCloudExtension.class)
class SolrSyntheticFlowsTest extends FlowIndexContract {
  private final MiniSolrCloud cloud;

  SolrSyntheticFlowsTest(MiniSolrCloud cloud) { this.cloud = cloud; }

  @Override
  protected FlowIndex newIndex() throws IOException {
    return SolrFlowIndex.open(SolrTarget.parse(cloud.allNodeUrls(), "synthetic"), 2, 2);
  }
}

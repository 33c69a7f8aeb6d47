package io.metaroce.index.solr;

import io.metaroce.index.FieldDef;
import io.metaroce.index.FieldType;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.IpAddresses;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Map;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/**
 * Flow documents to Solr documents and back. Values keep their names and types; the only addition is the
 * hidden sortable twin of each IP field (Solr has no IP type), which makes CIDR blocks and address ranges
 * string ranges and is never returned.
 */
final class SolrDocuments {

  /** Suffix of the indexed-only twin of an IP field: 32 hex digits of its 16-byte form. */
  static final String IP_TWIN = "__ip16";

  private SolrDocuments() {}

  static String ipTwin(String ipField) {
    return ipField + IP_TWIN;
  }

  static SolrInputDocument toSolr(FlowDocument d) {
    var out = new SolrInputDocument();
    for (Map.Entry<String, Object> e : d.fields().entrySet()) {
      FieldDef f = FlowSchema.field(e.getKey());
      for (Object v : d.values(e.getKey())) {
        out.addField(e.getKey(), v);
        if (f != null && f.type() == FieldType.IP) out.addField(ipTwin(f.name()), IpAddresses.sortableHex(IpAddresses.parse((String) v)));
      }
    }
    return out;
  }

  /** The flow document a stored Solr document holds, its fields in stored order (the order they were added). */
  static FlowDocument fromSolr(SolrDocument s) {
    FlowDocument.Builder b = FlowDocument.builder();
    for (String name : s.getFieldNames()) {
      FieldDef f = FlowSchema.field(name);
      if (f == null || !f.name().equals(name)) continue;   // _version_, IP twins: Solr's, not the document's
      if (f.multi()) {
        for (Object v : s.getFieldValues(name)) b.add(name, value(f, v));
      } else {
        Object raw = s.getFieldValue(name);
        b.put(name, value(f, raw instanceof Collection<?> c ? c.iterator().next() : raw));
      }
    }
    return b.build();
  }

  private static Object value(FieldDef f, Object v) {
    return switch (f.type()) {
      case LONG, TIME -> ((Number) v).longValue();
      case DOUBLE -> ((Number) v).doubleValue();
      case KEYWORD, IP -> v.toString();
      case STORED -> bytes(v);
    };
  }

  private static byte[] bytes(Object v) {
    if (v instanceof byte[] b) return b;
    if (v instanceof ByteBuffer buf) {
      byte[] b = new byte[buf.remaining()];
      buf.duplicate().get(b);
      return b;
    }
    if (v instanceof String base64) return java.util.Base64.getDecoder().decode(base64);
    throw new IllegalStateException("stored bytes came back as " + v.getClass().getName());
  }
}

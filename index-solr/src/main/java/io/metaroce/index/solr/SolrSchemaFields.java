package io.metaroce.index.solr;

import io.metaroce.index.FieldDef;
import io.metaroce.index.FieldType;
import io.metaroce.index.FlowSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The field declarations of the shipped managed schema, derived from {@link FlowSchema}: the schema file in the
 * configset holds exactly these lines (SolrSchemaFieldsTest checks it and rewrites it on request), so the Solr
 * collection and the embedded index always know the same fields with the same types.
 */
public final class SolrSchemaFields {

  private SolrSchemaFields() {}

  /** One {@code <field>} or {@code <dynamicField>} element per line. */
  public static List<String> lines() {
    List<String> out = new ArrayList<>();
    for (FieldDef f : FlowSchema.fields()) {
      if (f.name().equals(FlowSchema.ID)) continue;   // declared by hand as the uniqueKey
      out.add(element("field", f.name(), f.type(), f.multi()));
      if (f.type() == FieldType.IP) {
        out.add("<field name=\"" + SolrDocuments.ipTwin(f.name()) + "\" type=\"string\" indexed=\"true\" stored=\"false\""
            + " docValues=\"false\" multiValued=\"" + f.multi() + "\"/>");
      }
    }
    // Per-path fields paths.<id>.<key>: Solr's dynamic fields take one leading '*', so they match by key suffix.
    for (Map.Entry<String, FieldType> k : FlowSchema.pathKeys().entrySet()) {
      out.add(element("dynamicField", "*." + k.getKey(), k.getValue(), false));
    }
    return out;
  }

  private static String element(String tag, String name, FieldType type, boolean multi) {
    String solrType = switch (type) {
      case KEYWORD, IP -> "string";
      case LONG, TIME -> "plong";
      case DOUBLE -> "pdouble";
      case STORED -> "binary";
    };
    boolean indexed = type != FieldType.STORED;
    return "<" + tag + " name=\"" + name + "\" type=\"" + solrType + "\" indexed=\"" + indexed + "\" stored=\"true\""
        + (type == FieldType.STORED ? "" : " docValues=\"true\"") + " multiValued=\"" + multi + "\"/>";
  }
}

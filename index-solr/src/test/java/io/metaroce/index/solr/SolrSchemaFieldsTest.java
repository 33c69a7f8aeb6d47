package io.metaroce.index.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shipped managed schema declares exactly the fields of FlowSchema, with their types. */
class SolrSchemaFieldsTest {

  static final String BEGIN = "<!-- FLOW FIELDS BEGIN -->", END = "<!-- FLOW FIELDS END -->";
  static final Path SOURCE = Path.of("src/main/resources/io/metaroce/index/solr/configset/managed-schema.xml");

  @Test
  void shippedSchemaDeclaresEveryFlowSchemaField() throws Exception {
    String shipped = FlowConfigset.file("managed-schema.xml");
    List<String> expected = SolrSchemaFields.lines();
    if (Boolean.getBoolean("metaroce.regenerate")) {
      String src = Files.readString(SOURCE);
      String head = src.substring(0, src.indexOf(BEGIN) + BEGIN.length()), tail = src.substring(src.indexOf(END));
      StringBuilder b = new StringBuilder(head).append('\n');
      for (String l : expected) b.append("  ").append(l).append('\n');
      Files.writeString(SOURCE, b.append("  ").append(tail).toString());
      return;
    }
    List<String> actual = new ArrayList<>();
    boolean in = false;
    for (String line : shipped.split("\n")) {
      if (line.contains(END)) break;
      if (in) actual.add(line.strip());
      if (line.contains(BEGIN)) in = true;
    }
    assertEquals(expected, actual, "managed-schema.xml drifted from FlowSchema: run this test with -Dmetaroce.regenerate=true");
  }
}

package io.metaroce.index.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipInputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;

class FlowConfigsetTest {

  @Test
  void theUploadZipHoldsEveryShippedFileAsWellFormedXml() throws Exception {
    List<String> names = new ArrayList<>();
    try (var zip = new ZipInputStream(new ByteArrayInputStream(FlowConfigset.zip()))) {
      for (var e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
        names.add(e.getName());
        // Solr parses these only when a core loads; a syntax error would surface as "core creation failed".
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(zip.readAllBytes()));
      }
    }
    assertEquals(FlowConfigset.FILES, names);
  }
}

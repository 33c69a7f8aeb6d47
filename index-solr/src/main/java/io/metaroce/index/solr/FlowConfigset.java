package io.metaroce.index.solr;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The configset shipped in this jar ({@code io/metaroce/index/solr/configset/}): solrconfig.xml and the managed
 * schema of the flow documents. It is uploaded under a name that carries the schema version, so a newer tool
 * never rewrites the schema under an existing collection.
 */
public final class FlowConfigset {

  /**
   * Bumped with every change to the field list or types; part of the configset name. 2: the hidden field {@code
   * _attempt} (SolrFlowIndex.ATTEMPT). A collection of version 1 is still opened ({@link #OLDER}): its documents are the
   * same, and SolrFlowIndex replaces a capture in it in the order of version 1 (see SolrFlowIndex).
   */
  public static final int SCHEMA_VERSION = 2;
  public static final String NAME = "metaroce-flows-v" + SCHEMA_VERSION;
  /** The configset of the schema version before, whose collections this tool still reads and writes. */
  public static final String OLDER = "metaroce-flows-v" + (SCHEMA_VERSION - 1);
  static final String RESOURCE_DIR = "/io/metaroce/index/solr/configset/";
  static final List<String> FILES = List.of("solrconfig.xml", "managed-schema.xml");

  private FlowConfigset() {}

  /** The text of one configset file, as shipped. */
  public static String file(String name) {
    return new String(bytes(name), java.nio.charset.StandardCharsets.UTF_8);
  }

  /** The configset as the zip that Solr's configset upload API takes. */
  public static byte[] zip() {
    var out = new ByteArrayOutputStream();
    try (var zip = new ZipOutputStream(out)) {
      for (String f : FILES) {
        zip.putNextEntry(new ZipEntry(f));
        zip.write(bytes(f));
        zip.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static byte[] bytes(String name) {
    try (InputStream in = FlowConfigset.class.getResourceAsStream(RESOURCE_DIR + name)) {
      if (in == null) throw new IllegalStateException("configset file missing from the jar: " + name);
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

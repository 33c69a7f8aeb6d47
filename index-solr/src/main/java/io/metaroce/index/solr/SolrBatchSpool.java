package io.metaroce.index.solr;

import io.metaroce.index.ScratchFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.util.JavaBinCodec;

/**
 * A capture's Solr documents, batch by batch, in a scratch file until the capture's iteration has ended: then they are
 * read back one batch at a time and sent. WHY: {@code SolrFlowIndex} must not send a document before the iteration
 * ends (a failed iteration must leave the collection as it was, and SolrCloud cannot take back what was sent: no
 * rollback in cloud mode, and any writer's commit exposes it), and holding them all was a list of every document of the
 * capture: 6.0 KB of heap per SolrInputDocument of a synthetic flow with every counter (719 MB for the 120,125 documents
 * of 100,000 flows, so 10^6 flows would need some 6 GB); through this file 0.8 MB stay on the heap and the file takes
 * 750 bytes a document (docs/benchmarks.md, "helper guard, eighteenth session"). Each batch is written in SolrJ's own
 * wire form (javabin), so that what is read back is what SolrJ would have sent.
 *
 * <p>The file is unlinked as soon as it is open (POSIX keeps the open file; {@code DELETE_ON_CLOSE} elsewhere): a
 * process killed with -9 leaves nothing behind.
 */
final class SolrBatchSpool implements AutoCloseable {
    private final FileChannel file;
    private long written;
    private int batches;
    private boolean reading;

    private SolrBatchSpool(FileChannel file) {
        this.file = file;
    }

    /** A new, empty spool in {@code dir}. */
    static SolrBatchSpool open(Path dir) throws IOException {
        return new SolrBatchSpool(ScratchFiles.openUnlinked(dir, "metaroce-solr-"));
    }

    /** Appends one batch (the list may be reused by the caller afterwards). */
    void write(List<SolrInputDocument> batch) throws IOException {
        if (reading) throw new IllegalStateException("the spool is being read");
        ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
        out.write(new byte[4]);
        try (JavaBinCodec codec = new JavaBinCodec()) {
            codec.marshal(batch, out);
        }
        byte[] b = out.toByteArray();
        ByteBuffer.wrap(b).putInt(0, b.length - 4);
        ByteBuffer buf = ByteBuffer.wrap(b);
        while (buf.hasRemaining()) written += file.write(buf, written);
        batches++;
    }

    /** Batches written. */
    int batches() { return batches; }

    /** Bytes written. */
    long bytes() { return written; }

    /** The batches in the order written, each read as the iteration comes to it; once. */
    Iterator<List<SolrInputDocument>> read() {
        if (reading) throw new IllegalStateException("the spool is read once");
        reading = true;
        return new Iterator<>() {
            long at;
            int left = batches;

            @Override
            public boolean hasNext() { return left > 0; }

            @Override
            public List<SolrInputDocument> next() {
                if (left == 0) throw new NoSuchElementException();
                try {
                    ByteBuffer len = ByteBuffer.allocate(4);
                    readFully(len, at);
                    int n = len.getInt(0);
                    ByteBuffer body = ByteBuffer.allocate(n);
                    readFully(body, at + 4);
                    at += 4 + n;
                    left--;
                    List<?> l;
                    try (JavaBinCodec codec = new JavaBinCodec()) {
                        l = (List<?>) codec.unmarshal(body.array());
                    }
                    List<SolrInputDocument> docs = new ArrayList<>(l.size());
                    for (Object o : l) docs.add((SolrInputDocument) o);
                    return docs;
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException("the spool of Solr documents: " + e.getMessage(), e);
                }
            }
        };
    }

    private void readFully(ByteBuffer b, long position) throws IOException {
        while (b.hasRemaining()) {
            int n = file.read(b, position + b.position());
            if (n < 0) throw new java.io.EOFException("the spool ends early");
        }
    }

    @Override
    public void close() throws IOException { file.close(); }
}

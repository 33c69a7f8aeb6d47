package io.metaroce.index.lucene;

import io.metaroce.index.FlowSchema;
import java.io.IOException;
import java.util.Objects;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.DoubleValues;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LongValues;
import org.apache.lucene.search.LongValuesSource;

/**
 * The value of a sparse counter ({@link LuceneDocuments#SPARSE_COUNTERS}) as the flow document holds it: its doc
 * value, or 0 for a flow document that left its 0 out, or none for a document without the counter (not a flow
 * document, or a flow document marked {@link LuceneDocuments#ABSENT}). Sorting by it puts flows at 0 where 0
 * belongs and documents without the counter at the missing value, as for every other field.
 */
final class SparseCounter extends LongValuesSource {
    private final String field;

    SparseCounter(String field) { this.field = field; }

    /** Per segment: whether a document without the doc value holds the counter as 0 (docs asked in order). */
    static final class Zeros {
        private final DocIdSetIterator flows, absent;

        Zeros(LeafReader r, String field) throws IOException {
            flows = postings(r, new Term(FlowSchema.KIND, FlowSchema.KIND_FLOW));
            absent = postings(r, new Term(LuceneDocuments.ABSENT, field));
        }

        private static DocIdSetIterator postings(LeafReader r, Term t) throws IOException {
            DocIdSetIterator it = r.postings(t);
            return it == null ? DocIdSetIterator.empty() : it;
        }

        /** For a document without the doc value: is it a flow document whose counter is 0? */
        boolean zero(int doc) throws IOException {
            return at(flows, doc) && !at(absent, doc);
        }

        private static boolean at(DocIdSetIterator it, int doc) throws IOException {
            if (it.docID() < doc) it.advance(doc);
            return it.docID() == doc;
        }
    }

    @Override
    public LongValues getValues(LeafReaderContext ctx, DoubleValues scores) throws IOException {
        NumericDocValues dv = DocValues.getNumeric(ctx.reader(), field);
        Zeros zeros = new Zeros(ctx.reader(), field);
        return new LongValues() {
            private long value;

            @Override
            public long longValue() { return value; }

            @Override
            public boolean advanceExact(int doc) throws IOException {
                if (dv.advanceExact(doc)) {
                    value = dv.longValue();
                    return true;
                }
                value = 0;
                return zeros.zero(doc);
            }
        };
    }

    @Override
    public boolean needsScores() { return false; }

    @Override
    public int hashCode() { return Objects.hash(SparseCounter.class, field); }

    @Override
    public boolean equals(Object o) { return o instanceof SparseCounter s && s.field.equals(field); }

    @Override
    public String toString() { return "sparse(" + field + ")"; }

    @Override
    public LongValuesSource rewrite(IndexSearcher searcher) { return this; }

    @Override
    public boolean isCacheable(LeafReaderContext ctx) { return DocValues.isCacheable(ctx, field); }
}

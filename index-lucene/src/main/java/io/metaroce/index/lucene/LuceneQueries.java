package io.metaroce.index.lucene;

import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowSchema;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.InetAddressPoint;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.WildcardQuery;

/**
 * Translates a parsed {@link FlowQuery} into a Lucene query over the fields {@link LuceneDocuments} writes:
 * points for times, QPs and IPs, doc values for the other counters ({@link LuceneDocuments#pointed}), terms for
 * keywords, doc values for existence; a flow document without a sparse counter's doc value holds it at 0
 * ({@link LuceneDocuments#SPARSE_COUNTERS}). Scores are never used
 * (results are sorted by a field), so everything runs as a constant-score filter.
 */
final class LuceneQueries {
    private LuceneQueries() {}

    static Query of(FlowQuery q) { return new ConstantScoreQuery(translate(q)); }

    private static Query either(Query a, Query b) {
        return new BooleanQuery.Builder().setMinimumNumberShouldMatch(1).add(a, Occur.SHOULD).add(b, Occur.SHOULD).build();
    }

    /**
     * The flow documents that hold a sparse counter without its doc value, that is at 0
     * ({@link LuceneDocuments#SPARSE_COUNTERS}); {@code noValue}: only those without the doc value (for a range,
     * else the caller's either-or makes it redundant).
     */
    private static Query withoutDocValue(String field, boolean noValue) {
        BooleanQuery.Builder b = new BooleanQuery.Builder()
                .add(new TermQuery(new Term(FlowSchema.KIND, FlowSchema.KIND_FLOW)), Occur.FILTER)
                .add(new TermQuery(new Term(LuceneDocuments.ABSENT, field)), Occur.MUST_NOT);
        if (noValue) b.add(new FieldExistsQuery(field), Occur.MUST_NOT);
        return b.build();
    }

    private static Query translate(FlowQuery q) {
        return switch (q) {
            case FlowQuery.MatchAll m -> new MatchAllDocsQuery();
            case FlowQuery.And a -> {
                BooleanQuery.Builder b = new BooleanQuery.Builder();
                boolean positive = false;
                for (FlowQuery p : a.parts()) {
                    if (p instanceof FlowQuery.Not n) b.add(translate(n.query()), Occur.MUST_NOT);
                    else {
                        b.add(translate(p), Occur.FILTER);
                        positive = true;
                    }
                }
                if (!positive) b.add(new MatchAllDocsQuery(), Occur.FILTER);
                yield b.build();
            }
            case FlowQuery.Or o -> {
                BooleanQuery.Builder b = new BooleanQuery.Builder().setMinimumNumberShouldMatch(1);
                for (FlowQuery p : o.parts()) b.add(translate(p), Occur.SHOULD);
                yield b.build();
            }
            case FlowQuery.Not n -> new BooleanQuery.Builder().add(new MatchAllDocsQuery(), Occur.FILTER)
                    .add(translate(n.query()), Occur.MUST_NOT).build();
            case FlowQuery.Exists e -> LuceneDocuments.sparse(e.field())
                    ? either(new FieldExistsQuery(e.field().name()), withoutDocValue(e.field().name(), false))
                    : new FieldExistsQuery(e.field().name());
            case FlowQuery.Term t -> new TermQuery(new Term(t.field().name(), t.value()));
            case FlowQuery.Wildcard w -> new WildcardQuery(new Term(w.field().name(), w.pattern()));
            case FlowQuery.LongRange r -> {
                String n = r.field().name();
                if (LuceneDocuments.pointed(r.field())) yield LongPoint.newRangeQuery(n, r.lo(), r.hi());
                Query values = NumericDocValuesField.newSlowRangeQuery(n, r.lo(), r.hi());
                yield LuceneDocuments.sparse(r.field()) && r.lo() <= 0 && r.hi() >= 0 ? either(values, withoutDocValue(n, true)) : values;
            }
            case FlowQuery.DoubleRange r -> DoublePoint.newRangeQuery(r.field().name(), r.lo(), r.hi());
            case FlowQuery.IpRange r -> InetAddressPoint.newRangeQuery(r.field().name(), r.lo(), r.hi());
        };
    }
}

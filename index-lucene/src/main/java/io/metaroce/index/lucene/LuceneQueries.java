package io.metaroce.index.lucene;

import io.metaroce.index.FlowQuery;
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
 * keywords, doc values for existence. Scores are never used
 * (results are sorted by a field), so everything runs as a constant-score filter.
 */
final class LuceneQueries {
    private LuceneQueries() {}

    static Query of(FlowQuery q) { return new ConstantScoreQuery(translate(q)); }

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
            case FlowQuery.Exists e -> new FieldExistsQuery(e.field().name());
            case FlowQuery.Term t -> new TermQuery(new Term(t.field().name(), t.value()));
            case FlowQuery.Wildcard w -> new WildcardQuery(new Term(w.field().name(), w.pattern()));
            case FlowQuery.LongRange r -> LuceneDocuments.pointed(r.field()) ? LongPoint.newRangeQuery(r.field().name(), r.lo(), r.hi())
                    : NumericDocValuesField.newSlowRangeQuery(r.field().name(), r.lo(), r.hi());
            case FlowQuery.DoubleRange r -> DoublePoint.newRangeQuery(r.field().name(), r.lo(), r.hi());
            case FlowQuery.IpRange r -> InetAddressPoint.newRangeQuery(r.field().name(), r.lo(), r.hi());
        };
    }
}

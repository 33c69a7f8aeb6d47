package io.metaroce.index.lucene;

import io.metaroce.index.FieldDef;
import io.metaroce.index.FieldType;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowSchema;
import io.metaroce.index.IpAddresses;
import java.net.InetAddress;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoubleDocValuesField;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.InetAddressPoint;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.util.BytesRef;

/**
 * The Lucene form of a {@link FlowDocument}, one mapping per {@link FieldType}: every value is stored (so the
 * document comes back whole) and indexed as the type needs: KEYWORD as a term plus sorted-set doc values (facet
 * groups), LONG and TIME as a point plus numeric doc values (ranges, sort, sums; sorted-numeric when
 * multi-valued), DOUBLE as a point plus double doc values, IP as an InetAddressPoint plus its 16 bytes in
 * sorted-set doc values (CIDR ranges, facet groups). STORED is stored only.
 */
final class LuceneDocuments {
    private LuceneDocuments() {}

    static Document toLucene(FlowDocument d) {
        Document doc = new Document();
        for (var e : d.fields().entrySet()) {
            FieldDef f = FlowSchema.field(e.getKey());
            List<?> values = e.getValue() instanceof List<?> l ? l : List.of(e.getValue());
            for (Object v : values) add(doc, f, v);
        }
        return doc;
    }

    private static void add(Document doc, FieldDef f, Object v) {
        String n = f.name();
        switch (f.type()) {
            case KEYWORD -> {
                doc.add(new StringField(n, (String) v, Field.Store.YES));
                doc.add(new SortedSetDocValuesField(n, new BytesRef((String) v)));
            }
            case LONG, TIME -> {
                long x = (Long) v;
                doc.add(new LongPoint(n, x));
                doc.add(f.multi() ? new SortedNumericDocValuesField(n, x) : new NumericDocValuesField(n, x));
                doc.add(new StoredField(n, x));
            }
            case DOUBLE -> {
                double x = (Double) v;
                doc.add(new DoublePoint(n, x));
                doc.add(new DoubleDocValuesField(n, x));
                doc.add(new StoredField(n, x));
            }
            case IP -> {
                InetAddress a = IpAddresses.parse((String) v);
                doc.add(new InetAddressPoint(n, a));
                doc.add(new SortedSetDocValuesField(n, new BytesRef(IpAddresses.to16(a))));
                doc.add(new StoredField(n, (String) v));
            }
            case STORED -> doc.add(new StoredField(n, (byte[]) v));
        }
    }

    /** The flow document of stored fields read back (fields in stored order, multi values as lists). */
    static FlowDocument fromLucene(Document doc) {
        FlowDocument.Builder b = FlowDocument.builder();
        for (IndexableField x : doc.getFields()) {
            FieldDef f = FlowSchema.field(x.name());
            if (f == null) continue; // a field of a later schema would have been refused at open; skip defensively
            Object v = switch (f.type()) {
                case LONG, TIME -> x.numericValue().longValue();
                case DOUBLE -> x.numericValue().doubleValue();
                case KEYWORD, IP -> x.stringValue();
                case STORED -> {
                    BytesRef r = x.binaryValue();
                    yield java.util.Arrays.copyOfRange(r.bytes, r.offset, r.offset + r.length);
                }
            };
            if (f.multi()) b.add(f.name(), v);
            else b.put(f.name(), v);
        }
        return b.build();
    }
}

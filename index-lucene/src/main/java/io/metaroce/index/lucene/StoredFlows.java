package io.metaroce.index.lucene;

import io.metaroce.index.FieldDef;
import io.metaroce.index.FieldType;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowSchema;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;

/**
 * A whole {@link FlowDocument} as one stored value: each field as its code, then its value(s) typed by the schema
 * (longs as zig-zag varints, doubles as 8 bytes, strings and byte arrays with a varint length). One stored field
 * per document instead of one per value, because Lucene's per-field stored-field cost (field infos, per-value
 * headers, compression of ~100 small values) was the largest single part of indexing and of loading hits.
 *
 * <p>A field's code is a varint: a fixed field's position in {@link FlowSchema#fields()}, or for a per-path field
 * {@code paths.<id>.<key>} the count of fixed fields plus the key's position in {@link FlowSchema#pathKeys()},
 * followed by the path id. Names were written out before (layout 3): about 1.2 KB of names in every flow document,
 * which Lucene then compressed at every flush. The positions are pinned by {@link #SCHEMA_FINGERPRINT}, which the
 * index marker records, so a schema whose fields moved reads no index of the old order.
 */
final class StoredFlows {
    /** The Lucene field that holds the encoding (not a schema name: those never start with '_'). */
    static final String FIELD = "_flow";
    private static final FieldDef[] FIXED = FlowSchema.fields().toArray(FieldDef[]::new);
    private static final String[] PATH_KEYS = FlowSchema.pathKeys().keySet().toArray(String[]::new);
    /** Fixed field name to its code. */
    private static final Map<String, Integer> CODES = new HashMap<>();
    /** Per-path field name to {code, path id}, made the first time a name is seen (path ids are few). */
    private static final ConcurrentHashMap<String, long[]> PATH_CODES = new ConcurrentHashMap<>();
    /** The code of a field written by its name (then its UTF-8 length and bytes): a per-path field in another spelling. */
    private static final int NAMED = FIXED.length + PATH_KEYS.length;
    /** The field names and types in code order, hashed: what an index's stored values were written against. */
    static final String SCHEMA_FINGERPRINT;

    static {
        CRC32 crc = new CRC32();
        for (int i = 0; i < FIXED.length; i++) {
            CODES.put(FIXED[i].name(), i);
            crc.update((FIXED[i].name() + ':' + FIXED[i].type() + ':' + FIXED[i].multi() + ';').getBytes(StandardCharsets.UTF_8));
        }
        for (var e : FlowSchema.pathKeys().entrySet()) crc.update(("paths." + e.getKey() + ':' + e.getValue() + ';').getBytes(StandardCharsets.UTF_8));
        SCHEMA_FINGERPRINT = Long.toHexString(crc.getValue());
    }

    private StoredFlows() {}

    static byte[] encode(FlowDocument d) {
        Encoder out = new Encoder();
        for (var e : d.fields().entrySet()) out.field(FlowSchema.field(e.getKey()), e.getValue());
        return out.toArray();
    }

    /**
     * From this length on, a packed list is kept {@link #apart} from the encoding: 4 KiB, about 1,500 packets.
     * Lucene compresses stored values (LZ4, in chunks), and a long flow's frame numbers and offsets hardly
     * compress (2.78 MB against 3.13 MB on a 1 M-frame capture of 7 flows) while compressing them was half of what
     * indexing such a capture cost after its pass (docs/benchmarks.md, "helper ixa, ninth session"). The short
     * lists of the many small flows compress with the rest of their document, and a binary doc value for each of
     * them cost 7 % more CPU per flow document and 30 % more disk at 200,000 flows: they stay in the encoding.
     */
    static final int APART_BYTES = 4096;

    /** Whether a field's values may be kept {@link #apart}: the single-valued STORED fields (a flow's packed lists). */
    static boolean packed(FieldDef f) { return f.type() == FieldType.STORED && !f.multi(); }

    /**
     * Whether this value is kept apart from the encoding, in a binary doc value of the field's name (which Lucene
     * 10's doc-values format writes as it is); the encoding keeps the field's code, in its place.
     */
    static boolean apart(FieldDef f, Object value) { return packed(f) && ((byte[]) value).length >= APART_BYTES; }

    /** What {@link Encoder#field} writes before a field's values: its code (and path id, or name), as bytes. */
    static byte[] header(FieldDef f) {
        Encoder e = new Encoder();
        e.name(f);
        return e.toArray();
    }

    /** {code, path id} of a per-path field name ({@code paths.<id>.<key>}, as {@link FlowSchema#field} accepted it). */
    private static long[] pathCode(String name) {
        int dot = name.indexOf('.', "paths.".length());
        long id = Long.parseLong(name, "paths.".length(), dot, 10);
        String key = name.substring(dot + 1);
        // A path id written with leading zeros (possible through the API) is another field than the plain id's.
        if (!Long.toString(id).equals(name.substring("paths.".length(), dot))) return new long[] {NAMED, 0};
        for (int k = 0; k < PATH_KEYS.length; k++) if (PATH_KEYS[k].equals(key)) return new long[] {FIXED.length + k, id};
        throw new IllegalArgumentException("not a per-path field: " + name);
    }

    /** Writes one document's fields as they come (the caller looked each field up once for indexing too). */
    static final class Encoder {
        private final Out out = new Out();

        void field(FieldDef f, Object value) {
            name(f);
            if (f.multi()) {
                List<?> l = (List<?>) value;
                out.var(l.size());
                for (Object v : l) value(out, f, v);
            } else {
                value(out, f, value);
            }
        }

        /** Writes a field kept {@link #apart} from the encoding: its code, in its place, and length 0. */
        void placeholder(FieldDef f) {
            name(f);
            out.var(0);
        }

        /** Writes a {@link #packed} field's value in the encoding, its length + 1 first (0 says "apart"). */
        void inline(FieldDef f, byte[] v) {
            name(f);
            out.var(v.length + 1L);
            out.bytes(v, v.length);
        }

        /** Writes the field's code (a per-path field's with its path id; an unknown name's as the name itself). */
        void name(FieldDef f) {
            Integer code = CODES.get(f.name());
            if (code != null) {
                out.var(code);
            } else {
                long[] c = PATH_CODES.get(f.name());
                if (c == null) {
                    c = pathCode(f.name());
                    if (PATH_CODES.size() < 100_000) PATH_CODES.put(f.name(), c); // as FlowSchema bounds its own cache
                }
                out.var(c[0]);
                if (c[0] == NAMED) {
                    byte[] b = f.name().getBytes(StandardCharsets.UTF_8);
                    out.var(b.length);
                    out.bytes(b, b.length);
                } else {
                    out.var(c[1]);
                }
            }
        }

        byte[] toArray() { return out.toArray(); }

        /**
         * A single-valued field whose code {@link #header} made once: the same bytes as {@link #field} writes, without
         * looking the code up again (the converter does this for every value of every document).
         */
        void longField(byte[] header, long x) {
            out.bytes(header, header.length);
            out.var((x << 1) ^ (x >> 63));
        }

        /** As {@link #longField}, for a KEYWORD or IP field whose UTF-8 bytes the caller made (also for the index). */
        void utf8Field(byte[] header, byte[] utf8) {
            out.bytes(header, header.length);
            out.var(utf8.length);
            out.bytes(utf8, utf8.length);
        }

        /** Starts the next document in the same buffer. */
        void reset() { out.n = 0; }

        /** The encoding so far, in the buffer (valid until the next {@link #reset}). */
        org.apache.lucene.util.BytesRef bytes() { return new org.apache.lucene.util.BytesRef(out.buf, 0, out.n); }
    }

    private static void value(Out out, FieldDef f, Object v) {
        switch (f.type()) {
            case LONG, TIME -> {
                long x = (Long) v;
                out.var((x << 1) ^ (x >> 63));
            }
            case DOUBLE -> out.fixed(Double.doubleToRawLongBits((Double) v));
            case KEYWORD, IP -> {
                byte[] b = ((String) v).getBytes(StandardCharsets.UTF_8);
                out.var(b.length);
                out.bytes(b, b.length);
            }
            case STORED -> {
                byte[] b = (byte[]) v;
                out.var(b.length);
                out.bytes(b, b.length);
            }
        }
    }

    /** @throws IllegalArgumentException for bytes that are not an encoding of this schema (a damaged index) */
    static FlowDocument decode(byte[] b, int offset, int length) { return decode(b, offset, length, null); }

    /**
     * @param apart the value of a field kept {@link #apart} from the encoding (by name; null: an encoding that holds
     *     every value, as {@link #encode} writes it; else the {@link #packed} fields are as {@link Encoder#inline}
     *     or {@link Encoder#placeholder} wrote them)
     * @throws IllegalArgumentException for bytes that are not an encoding of this schema (a damaged index)
     */
    static FlowDocument decode(byte[] b, int offset, int length, java.util.function.Function<String, byte[]> apart) {
        In in = new In(b, offset, offset + length);
        FlowDocument.Builder out = FlowDocument.builder();
        while (in.pos < in.end) {
            long code = in.var();
            FieldDef f;
            if (code >= 0 && code < FIXED.length) {
                f = FIXED[(int) code];
            } else if (code >= FIXED.length && code < FIXED.length + PATH_KEYS.length) {
                long id = in.var();
                f = id <= Integer.MAX_VALUE ? FlowSchema.field(FlowSchema.pathField((int) id, PATH_KEYS[(int) (code - FIXED.length)])) : null;
                if (f == null) throw new IllegalArgumentException("stored flow: bad path id " + id);
            } else if (code == NAMED) {
                String name = in.string();
                f = FlowSchema.field(name);
                if (f == null) throw new IllegalArgumentException("stored flow: unknown field " + name);
            } else {
                throw new IllegalArgumentException("stored flow: unknown field code " + code);
            }
            String name = f.name();
            if (f.multi()) {
                for (long i = 0, n = in.var(); i < n; i++) out.add(name, in.value(f));
            } else if (apart != null && packed(f)) {
                long n = in.var();
                if (n < 0 || n - 1 > in.end - in.pos) throw new IllegalArgumentException("stored flow: bad length " + n);
                byte[] v;
                if (n == 0) {
                    v = apart.apply(name);
                    if (v == null) throw new IllegalArgumentException("stored flow: no doc value for " + name);
                } else {
                    v = Arrays.copyOfRange(in.b, in.pos, in.pos + (int) (n - 1));
                    in.pos += (int) (n - 1);
                }
                out.put(name, v);
            } else {
                out.put(name, in.value(f));
            }
        }
        return out.build();
    }

    private static final class Out {
        byte[] buf = new byte[1024];
        int n;

        void ensure(int more) {
            if (n + more > buf.length) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, n + more));
        }

        void var(long v) {
            ensure(10);
            while ((v & ~0x7FL) != 0) {
                buf[n++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buf[n++] = (byte) v;
        }

        void fixed(long v) {
            ensure(8);
            for (int i = 0; i < 8; i++) buf[n++] = (byte) (v >>> (56 - 8 * i));
        }

        void bytes(byte[] b, int len) {
            ensure(len);
            System.arraycopy(b, 0, buf, n, len);
            n += len;
        }

        byte[] toArray() { return Arrays.copyOf(buf, n); }
    }

    private static final class In {
        final byte[] b;
        final int end;
        int pos;

        In(byte[] b, int pos, int end) {
            this.b = b;
            this.pos = pos;
            this.end = end;
        }

        long var() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= end) throw new IllegalArgumentException("stored flow: cut at byte " + pos);
                int x = b[pos++] & 0xFF;
                v |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) return v;
            }
            throw new IllegalArgumentException("stored flow: varint too long");
        }

        byte[] raw() {
            long len = var();
            if (len < 0 || len > end - pos) throw new IllegalArgumentException("stored flow: bad length " + len);
            byte[] r = Arrays.copyOfRange(b, pos, pos + (int) len);
            pos += (int) len;
            return r;
        }

        String string() { return new String(raw(), StandardCharsets.UTF_8); }

        Object value(FieldDef f) {
            return switch (f.type()) {
                case LONG, TIME -> {
                    long z = var();
                    yield (z >>> 1) ^ -(z & 1);
                }
                case DOUBLE -> {
                    if (end - pos < 8) throw new IllegalArgumentException("stored flow: cut double");
                    long v = 0;
                    for (int i = 0; i < 8; i++) v = (v << 8) | (b[pos++] & 0xFF);
                    yield Double.longBitsToDouble(v);
                }
                case KEYWORD, IP -> string();
                case STORED -> raw();
            };
        }
    }
}

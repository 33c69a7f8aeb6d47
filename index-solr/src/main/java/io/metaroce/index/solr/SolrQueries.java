package io.metaroce.index.solr;

import io.metaroce.index.FieldDef;
import io.metaroce.index.FieldType;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.IpAddresses;
import java.util.stream.Collectors;

/**
 * Translates the tool's parsed query tree into Solr's standard query syntax. The tree is already typed (hex QPs,
 * CIDR blocks and human times are numbers and address ranges by now), so this is a one-to-one rendering with
 * Solr's escaping, never a second parser of the user's text.
 */
public final class SolrQueries {

  private SolrQueries() {}

  public static String toSolr(FlowQuery q) {
    return switch (q) {
      case FlowQuery.MatchAll m -> "*:*";
      case FlowQuery.And a -> a.parts().isEmpty() ? "*:*" : join(a.parts(), " AND ");
      case FlowQuery.Or o -> o.parts().isEmpty() ? "(-*:*)" : join(o.parts(), " OR ");
      // A purely negative clause matches nothing in Lucene: subtract from every document instead.
      case FlowQuery.Not n -> "(*:* -" + toSolr(n.query()) + ")";
      case FlowQuery.Exists e -> field(e.field()) + ":*";
      case FlowQuery.Term t -> field(t.field()) + ":" + escape(t.value());
      case FlowQuery.Wildcard w -> field(w.field()) + ":" + wildcard(w.pattern());
      case FlowQuery.LongRange r -> field(r.field()) + ":[" + (r.lo() == Long.MIN_VALUE ? "*" : Long.toString(r.lo()))
          + " TO " + (r.hi() == Long.MAX_VALUE ? "*" : Long.toString(r.hi())) + "]";
      case FlowQuery.DoubleRange r -> field(r.field()) + ":[" + (r.lo() == Double.NEGATIVE_INFINITY ? "*" : Double.toString(r.lo()))
          + " TO " + (r.hi() == Double.POSITIVE_INFINITY ? "*" : Double.toString(r.hi())) + "]";
      // Solr has no IP field type: an address range is a range over the sortable hex twin of the field.
      case FlowQuery.IpRange r -> escapeField(SolrDocuments.ipTwin(r.field().name())) + ":[" + IpAddresses.sortableHex(r.lo())
          + " TO " + IpAddresses.sortableHex(r.hi()) + "]";
    };
  }

  private static String join(java.util.List<FlowQuery> parts, String op) {
    return parts.stream().map(SolrQueries::toSolr).collect(Collectors.joining(op, "(", ")"));
  }

  private static String field(FieldDef f) {
    if (f.type() == FieldType.STORED) throw new IllegalArgumentException("'" + f.name() + "' is stored, not searchable");
    return escapeField(f.name());
  }

  /** Field names are the schema's ({@code [a-z0-9_.]}), which Solr's parser reads as they are. */
  private static String escapeField(String name) {
    if (!name.matches("[A-Za-z_][A-Za-z0-9_.]*")) throw new IllegalArgumentException("not a Solr field name: " + name);
    return name;
  }

  /** A literal term: every character Solr's parser would read as syntax is escaped, whitespace included. */
  static String escape(String value) {
    if (value.isEmpty()) return "\"\"";
    StringBuilder b = new StringBuilder(value.length() + 8);
    for (int i = 0; i < value.length(); i++) appendEscaped(b, value.charAt(i));
    return b.toString();
  }

  /** A pattern whose {@code *} and {@code ?} stay wildcards; a backslash keeps the next character literal. */
  static String wildcard(String pattern) {
    StringBuilder b = new StringBuilder(pattern.length() + 8);
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        appendEscaped(b, pattern.charAt(++i));
      } else if (c == '*' || c == '?') {
        b.append(c);
      } else {
        appendEscaped(b, c);
      }
    }
    return b.toString();
  }

  private static void appendEscaped(StringBuilder b, char c) {
    if (c == '\\' || c == '+' || c == '-' || c == '!' || c == '(' || c == ')' || c == ':' || c == '^' || c == '['
        || c == ']' || c == '"' || c == '{' || c == '}' || c == '~' || c == '*' || c == '?' || c == '|' || c == '&'
        || c == ';' || c == '/' || Character.isWhitespace(c)) {
      b.append('\\');
    }
    b.append(c);
  }
}

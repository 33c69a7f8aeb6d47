package io.metaroce.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.metaroce.index.FlowDocument;
import io.metaroce.index.FlowQuery;
import io.metaroce.index.FlowQueryMatcher;
import io.metaroce.index.FlowQueryParser;
import io.metaroce.index.QuerySyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * The flow query parser ({@code metaroce search}) on arbitrary text. Contract: it returns a tree or throws
 * {@link QuerySyntaxException} with a message and a column inside the text (never another exception, a stack
 * overflow or a hang); a tree's canonical text parses back to an equal tree; evaluating it on a flow never throws.
 */
class FlowQueryFuzzTest {
    private static final FlowDocument FLOW = FlowDocument.builder().put("id", "h/f#0").put("kind", "flow")
            .put("flow", "10.0.0.1>10.0.0.2/0x000201").put("src", "10.0.0.1").put("dst", "fd00::2").put("dest_qp", 0x201L)
            .put("naks", 7L).put("first_ns", 1_796_000_000_000_000_000L).put("paths.2.loss_rate", 0.25)
            .add("rules", "MR-RTX-001").add("src_qps", 5L).build();

    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @FuzzTest(maxDuration = "5m")
    void parseAnyText(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        FlowQuery q;
        try {
            q = FlowQueryParser.parse(text);
        } catch (QuerySyntaxException e) {
            if (e.reason() == null || e.reason().isBlank() || e.column() < 1 || e.column() > text.length() + 1)
                throw new AssertionError("unhelpful QuerySyntaxException (column " + e.column() + "): " + e.getMessage(), e);
            return;
        }
        FlowQuery again;
        try {
            again = FlowQueryParser.parse(q.toString());
        } catch (QuerySyntaxException e) {
            throw new AssertionError("canonical form '" + q + "' of '" + text + "' does not parse: " + e.getMessage(), e);
        }
        if (!again.equals(q)) throw new AssertionError("'" + text + "' -> '" + q + "' -> '" + again + "'");
        FlowQueryMatcher.matches(q, FLOW);
    }
}

package io.metaroce.gui.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.metaroce.testsupport.Launcher;
import io.metaroce.testsupport.Launcher.Call;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A real flow index on disk, built once per test JVM by {@code metaroce index} from copies of some bundled sample
 * captures in a temporary directory (copies, so a test may move one away; the others stay where they were indexed).
 * The flow search tests hold the window's hits to what {@code metaroce search} prints, so the GUI and the CLI are
 * compared through the code path a user runs: the shipped launcher.
 */
public final class SampleIndex {
    /** The samples indexed: losses, spraying, congestion, RNR, and a clean one that a test moves away. */
    public static final List<String> SAMPLES = List.of("rocev2-gbn-loss", "metaroce-spray-lossy-path", "rocev2-ecn-cnp",
            "rocev2-rnr", "rocev2-clean");
    /** The sample whose copy the moved-capture test moves (no other test opens it). */
    public static final String MOVABLE = "rocev2-clean";
    private static SampleIndex built;

    public final Path captures, index;

    private SampleIndex(Path root) {
        captures = root.resolve("captures");
        index = root.resolve("flows.idx");
    }

    public static synchronized SampleIndex get() {
        if (built != null) return built;
        try {
            Path root = Files.createTempDirectory("metaroce-gui-search");
            SampleIndex s = new SampleIndex(root);
            Files.createDirectories(s.captures);
            for (String n : SAMPLES) Files.copy(Launcher.CAPTURES.resolve(n + ".pcapng"), s.captures.resolve(n + ".pcapng"));
            Launcher.Run r = run("index", s.captures.toString(), "--index", s.index.toString(), "--rules");
            if (r.exit() != 0) throw new AssertionError(r.show());
            built = s;
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path capture(String sample) { return captures.resolve(sample + ".pcapng"); }

    /** The document ids {@code metaroce search --index DIR QUERY -T jsonl} prints, in its order. */
    public List<String> searchIds(String query, String... more) {
        String[] args = new String[6 + more.length];
        System.arraycopy(new String[] {"search", "--index", index.toString(), query, "-T", "jsonl"}, 0, args, 0, 6);
        System.arraycopy(more, 0, args, 6, more.length);
        return jsonl(args).stream().map(j -> j.get("id").asText()).toList();
    }

    /** One run of the shipped launcher; indexing with {@code --rules} on a loaded CI machine may take minutes. */
    public static Launcher.Run run(String... args) {
        return Launcher.run(Call.of(args).timeout(600));
    }

    /** The JSON objects {@code metaroce search -T jsonl} prints, one per line; fails on a non-zero exit. */
    public static List<JsonNode> jsonl(String... args) {
        Launcher.Run r = run(args);
        if (r.exit() != 0) throw new AssertionError(r.show());
        List<JsonNode> out = new ArrayList<>();
        ObjectMapper m = new ObjectMapper();
        try {
            for (String line : r.out().split("\n")) if (!line.isBlank()) out.add(m.readTree(line));
        } catch (IOException e) {
            throw new AssertionError(r.show(), e);
        }
        return out;
    }
}

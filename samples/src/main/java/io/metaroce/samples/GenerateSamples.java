package io.metaroce.samples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Regenerates the committed sample captures: for every scenario, {@code <dir>/<name>.pcapng} and
 * {@code <dir>/<name>.truth.json} with the scenario's default parameters (seed 1). A test checks that the
 * committed files equal a fresh generation, so they cannot drift from the simulator.
 */
public final class GenerateSamples {
    private GenerateSamples() {}

    public static final String CAPTURE_SUFFIX = ".pcapng", TRUTH_SUFFIX = ".truth.json";

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "samples/captures");
        Files.createDirectories(dir);
        for (String name : Simulator.scenarios()) {
            Simulator.Result r = Simulator.run(name, Simulator.params(name), dir.resolve(name + CAPTURE_SUFFIX),
                    dir.resolve(name + TRUTH_SUFFIX));
            System.out.printf("%-28s %6d frames %9d bytes%n", name, r.frames(), Files.size(dir.resolve(name + CAPTURE_SUFFIX)));
        }
    }
}

package io.metaroce.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * tshark (when installed) reads the RoCEv2 scenarios' BTH fields, and their PFC frames' class vectors and quanta, as
 * the truth states them.
 */
class TsharkAgreementTest {
    private static final List<String> ORACLE_FLAGS = List.of("--disable-protocol", "rpcordma", "--disable-protocol",
            "smb_direct", "--disable-protocol", "nvme-rdma", "--disable-protocol", "iser", "--disable-protocol", "lnet",
            "--disable-protocol", "smc", "--disable-protocol", "infiniband_sdp", "--disable-protocol", "fcoib");

    static Stream<String> rocev2Scenarios() {
        return Simulator.scenarios().stream().filter(s -> s.startsWith("rocev2-") || s.equals("capture-gaps-truncated"));
    }

    static String tshark() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(dir, "tshark");
            if (f.canExecute()) return f.getPath();
        }
        return null;
    }

    @ParameterizedTest
    @MethodSource("rocev2Scenarios")
    void tsharkAgreesOnOpcodePsnAndDestQp(String scenario, @TempDir Path dir) throws IOException, InterruptedException {
        String tshark = tshark();
        assumeTrue(tshark != null, "tshark not installed");
        Generated g = Generated.of(scenario);
        Path file = dir.resolve(scenario + ".pcapng");
        Files.write(file, g.capture);
        List<String> cmd = new ArrayList<>(List.of(tshark, "-r", file.toString()));
        cmd.addAll(ORACLE_FLAGS);
        cmd.addAll(List.of("-T", "fields", "-E", "separator=/t", "-E", "aggregator=;", "-e", "frame.number", "-e",
                "infiniband.bth.opcode", "-e", "infiniband.bth.psn", "-e", "infiniband.bth.destqp", "-e", "macc.cbfc.enbv"));
        // The PFC frames' pause time of each class (macc.cbfc.pause_time.c0 .. c7).
        for (int c = 0; c < 8; c++) cmd.addAll(List.of("-e", "macc.cbfc.pause_time.c" + c));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = p.getInputStream().readAllBytes();
        assumeTrue(p.waitFor(120, TimeUnit.SECONDS), "tshark did not finish");
        assertEquals(0, p.exitValue(), "tshark exit status");
        String[] lines = new String(out, StandardCharsets.UTF_8).split("\n");
        JsonNode frames = g.truth.get("frames");
        assertEquals(frames.size(), lines.length, "tshark frame count");
        for (int i = 0; i < lines.length; i++) {
            String[] f = lines[i].split("\t", -1);
            JsonNode t = frames.get(i);
            String where = scenario + " frame " + (i + 1);
            assertEquals(t.get("n").asLong(), Long.parseLong(f[0]), where);
            if (t.has("pfc_class_vector")) {
                // An 802.1Qbb PFC frame: tshark's class-enable vector and the quanta of every enabled class.
                int vector = t.get("pfc_class_vector").asInt();
                assertEquals(vector, Integer.decode(f[4]), where + " PFC class-enable vector");
                for (int c = 0; c < 8; c++) {
                    if ((vector >>> c & 1) != 0) assertEquals(t.get("pfc_quanta").asInt(), Integer.parseInt(f[5 + c]), where + " class " + c + " quanta");
                }
                continue;
            }
            assertEquals(t.get("opcode").asInt(), Integer.parseInt(f[1]), where + " opcode");
            assertEquals(t.get("psn").asLong(), Long.parseLong(f[2]), where + " psn");
            String flow = t.get("flow").asText();
            assertEquals(Long.parseLong(flow.substring(flow.lastIndexOf("/0x") + 3), 16), Long.decode(f[3]), where + " dest qp");
        }
    }
}

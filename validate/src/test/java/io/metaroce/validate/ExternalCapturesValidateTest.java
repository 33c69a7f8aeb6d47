package io.metaroce.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * validate on real captures published by others (../shared/reference/external-pcaps, read in place, skipped
 * with a message when absent; -Dmetaroce.external=DIR overrides the folder).
 */
class ExternalCapturesValidateTest {
    static Path file(String name) {
        String p = System.getProperty("metaroce.external");
        for (String c : p != null && !p.isBlank() ? new String[] {p}
                : new String[] {"../../shared/reference/external-pcaps", "../shared/reference/external-pcaps"}) {
            if (Files.isRegularFile(Path.of(c, name))) return Path.of(c, name);
        }
        return null;
    }

    /** Issue 9 item 1: ACKs captured a few microseconds ahead of their requests (ibdump) are legal traffic. */
    @Test
    void nvmeDiscoverAtTheInitiatorHasNoAckBeyondSent() {
        Path f = file("m3_nvme-discover.pcap");
        Assumptions.assumeTrue(f != null, "external captures not found (../shared/reference/external-pcaps)");
        for (String tap : new String[] {"host:2.2.2.1", "host:2.2.2.3"}) {
            FileResult r = FileValidator.validate(f, new ValidateSettings.Builder().tap(tap).build(), false, null);
            List<String> ack = r.findings().stream().filter(x -> x.rule().equals("MR-ACK-001"))
                    .map(x -> x.frame() + ": " + x.message()).toList();
            assertEquals(List.of(), ack, tap);
        }
    }
}

package io.metaroce.capture;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;

final class TestSupport {
    private TestSupport() {
    }

    static Path write(Path dir, String name, byte[] content) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, content);
        return p;
    }

    static byte[] data(PacketSource s) {
        return s.data().toArray(ValueLayout.JAVA_BYTE);
    }
}

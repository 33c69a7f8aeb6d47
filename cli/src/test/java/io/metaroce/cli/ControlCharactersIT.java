package io.metaroce.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.capture.PcapngWriter;
import io.metaroce.testsupport.Launcher;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A packet comment comes from whoever wrote the capture: dissect's tree writes its control characters out as Wireshark's
 * format_text does (an escape sequence raw would move the cursor, retitle the terminal or clear it; a newline would
 * forge a line of the tree), and the JSON outputs escape them. Through the shipped launcher.
 */
class ControlCharactersIT {
    /** ESC [31m (red), BEL, a newline that would start a forged line, an OSC window title, a C1 CSI and DEL. */
    private static final String HOSTILE = "pkt\u001b[31mX\u0007\nFrame 99: forged\u001b]0;title\u0007\u009b2J\u007f";

    @Test
    void aCommentsControlCharactersAreWrittenOut(@TempDir Path tmp) throws Exception {
        Path cap = tmp.resolve("comment.pcapng");
        try (PacketSource src = CaptureFiles.open(Launcher.CAPTURES.resolve("rocev2-clean.pcapng"));
             PcapngWriter w = PcapngWriter.create(cap)) {
            assertTrue(src.next());
            byte[] frame = src.data().toArray(ValueLayout.JAVA_BYTE);
            int ifc = w.addInterface(src.linkType(), 65535);
            w.write(ifc, src.timestampNanos(), frame, 0, frame.length, src.originalLength(), HOSTILE);
        }
        Launcher.Run tree = Launcher.run("dissect", "-r", cap.toString(), "-V");
        assertEquals(0, tree.exit(), tree.show());
        assertTrue(tree.out().contains("    Comment: pkt\\033[31mX\\a\\nFrame 99: forged\\033]0;title\\a\\2332J\\177\n"), tree.show());
        for (String format : new String[] {"json", "jsonl", "text"}) {
            Launcher.Run r = format.equals("text") ? tree : Launcher.run("dissect", "-r", cap.toString(), "-T", format);
            assertEquals(0, r.exit(), r.show());
            for (byte b : r.stdout()) {
                int c = b & 0xFF;
                assertTrue(c >= 0x20 && c != 0x7F || c == '\n', format + ": a raw control character 0x" + Integer.toHexString(c) + "\n" + r.show());
            }
            assertTrue(!r.out().contains("\nFrame 99: forged"), format + ": a forged line\n" + r.show());
        }
    }
}

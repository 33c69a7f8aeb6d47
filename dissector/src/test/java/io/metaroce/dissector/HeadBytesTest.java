package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.metaroce.capture.CaptureFiles;
import io.metaroce.capture.PacketSource;
import io.metaroce.protocol.HeaderDef;
import io.metaroce.protocol.Spec;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The decoder and the analysis read header fields from {@link Dissection#head()}, a byte[] copy of the frame's
 * headers, with the flyweights' byte[] getters. On every frame of every bundled sample: the copy holds every
 * layer's catalogue bytes exactly as captured, and every byte[] getter of every layer's flyweight gives what its
 * MemorySegment twin reads from the frame itself.
 */
class HeadBytesTest {
    @Test
    void headCopyAndByteArrayGettersAgreeWithTheFrameOnEverySampleFrame() throws Exception {
        Dissector dissector = new Dissector();
        Dissection d = new Dissection();
        Map<Integer, List<Method[]>> twins = new HashMap<>();
        long frames = 0, layers = 0, reads = 0;
        List<String> problems = new ArrayList<>();
        for (Path p : FrameTreeTest.sampleCaptures()) {
            try (PacketSource src = CaptureFiles.open(p)) {
                while (src.next()) {
                    dissector.dissect(src.data(), src.frameNumber(), src.timestampNanos(), src.originalLength(), src.linkType(),
                            src.fcsLength(), d);
                    frames++;
                    MemorySegment data = d.data();
                    byte[] head = d.head();
                    for (int i = 0; i < d.layerCount(); i++) {
                        HeaderDef h = d.layer(i);
                        int off = d.layerOffset(i);
                        String ctx = p.getFileName() + "#" + src.frameNumber() + " " + h.id() + " at " + off + ": ";
                        for (int k = 0; k < h.size(); k++) {
                            if (head[off + k] != data.get(ValueLayout.JAVA_BYTE, off + k)) {
                                problems.add(ctx + "head byte " + k + " differs from the frame");
                                break;
                            }
                        }
                        for (Method[] m : twins.computeIfAbsent(h.index(), x -> twinsOf(h))) {
                            Object fromArray = m[0].invoke(null, head, off);
                            Object fromSegment = m[1].invoke(null, data, (long) off);
                            if (!fromArray.equals(fromSegment)) problems.add(ctx + m[0].getName() + " " + fromArray + " != " + fromSegment);
                            reads++;
                        }
                        layers++;
                    }
                    if (problems.size() > 20) fail(String.join("\n", problems));
                }
            }
        }
        if (!problems.isEmpty()) fail(problems.size() + " disagreements:\n" + String.join("\n", problems));
        assertTrue(frames > 1000, "frames: " + frames);
        assertTrue(reads > 20 * frames, "getters compared: " + reads);
        System.out.println("HeadBytesTest: " + frames + " sample frames, " + layers + " layers, " + reads + " byte[] reads agree");
    }

    /** The flyweight's getter pairs {(byte[], int), (MemorySegment, long)} of a header (none for a pseudo header). */
    private static List<Method[]> twinsOf(HeaderDef h) {
        List<Method[]> out = new ArrayList<>();
        Class<?> c;
        try {
            c = Class.forName("io.metaroce.protocol." + className(h.id()));
        } catch (ClassNotFoundException e) {
            return out;
        }
        for (Method m : c.getMethods()) {
            if (!Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 2 || m.getParameterTypes()[0] != byte[].class) continue;
            try {
                out.add(new Method[] {m, c.getMethod(m.getName(), MemorySegment.class, long.class)});
            } catch (NoSuchMethodException e) {
                fail(c.getSimpleName() + "." + m.getName() + "(byte[], int) has no MemorySegment twin");
            }
        }
        if (h.size() > 0) assertEquals(false, out.isEmpty() && hasNumericSegmentGetter(c), c.getSimpleName() + " has no byte[] getters");
        return out;
    }

    private static boolean hasNumericSegmentGetter(Class<?> c) {
        for (Method m : c.getMethods()) {
            if (m.getParameterCount() == 2 && m.getParameterTypes()[0] == MemorySegment.class && m.getReturnType() != MemorySegment.class
                    && m.getReturnType() != void.class) return true;
        }
        return false;
    }

    private static String className(String id) {
        StringBuilder b = new StringBuilder();
        for (String part : id.split("_")) b.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        return b.toString();
    }
}

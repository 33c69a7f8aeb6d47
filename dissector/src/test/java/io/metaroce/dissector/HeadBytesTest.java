package io.metaroce.dissector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.metaroce.protocol.HeaderDef;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
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
        Map<Integer, List<Method[]>> twins = new HashMap<>();
        long[] layers = {0}, reads = {0};
        List<String> problems = new ArrayList<>();
        long frames = FrameTreeTest.forEachSampleFrame((d, where) -> {
            MemorySegment data = d.data();
            byte[] head = d.head();
            for (int i = 0; i < d.layerCount(); i++) {
                HeaderDef h = d.layer(i);
                int off = d.layerOffset(i);
                String ctx = where + " " + h.id() + " at " + off + ": ";
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
                    reads[0]++;
                }
                layers[0]++;
            }
            if (problems.size() > 20) fail(String.join("\n", problems));
        });
        if (!problems.isEmpty()) fail(problems.size() + " disagreements:\n" + String.join("\n", problems));
        assertTrue(frames > 1000, "frames: " + frames);
        assertTrue(reads[0] > 20 * frames, "getters compared: " + reads[0]);
        System.out.println("HeadBytesTest: " + frames + " sample frames, " + layers[0] + " layers, " + reads[0] + " byte[] reads agree");
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

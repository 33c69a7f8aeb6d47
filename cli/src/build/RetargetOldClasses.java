import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.lang.constant.ClassDesc;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Build step of the shaded jar (cli/pom.xml, package phase): rewrites the class files of one package that are older
 * than Java 6 (class file major version below 50) as Java 8 class files (52) with stack map frames, in place.
 *
 * <p>Why: the JDK's ahead-of-time cache (JEP 483, used by the launcher) does not store classes that need the old
 * verifier, and picocli ships Java 5 class files: its ~170 classes were read and verified at every start of every
 * command. The bytecode is unchanged; only the version and the stack maps (computed by the JDK's ClassFile API) are
 * new, so the classes verify with the type-checking verifier and go into the cache.
 *
 * <p>Usage (single-file source launch): {@code java RetargetOldClasses.java JAR PACKAGE_PREFIX}, e.g. {@code picocli/}.
 */
public final class RetargetOldClasses {
    private static final int OLDEST_KEPT = 50, TARGET = 52;

    public static void main(String[] args) throws IOException {
        Path jar = Path.of(args[0]);
        String prefix = args[1];
        try (FileSystem fs = FileSystems.newFileSystem(jar)) {
            // Stack maps need the class hierarchy: the JDK's own classes, and the jar's, read from the jar itself.
            ClassHierarchyResolver jarClasses = ClassHierarchyResolver.ofResourceParsing((ClassDesc d) -> open(fs, d)).cached();
            ClassFile cf = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(ClassHierarchyResolver.defaultResolver().orElse(jarClasses)),
                    ClassFile.StackMapsOption.GENERATE_STACK_MAPS, ClassFile.ConstantPoolSharingOption.NEW_POOL);
            List<Path> classes = new ArrayList<>();
            try (var walk = Files.walk(fs.getPath("/", prefix))) {
                walk.filter(p -> p.toString().endsWith(".class")).forEach(classes::add);
            } catch (NoSuchFileException e) {
                throw new IllegalStateException(jar + " has no " + prefix + ": nothing to retarget (update cli/pom.xml)", e);
            }
            int done = 0;
            for (Path p : classes) {
                byte[] b = Files.readAllBytes(p);
                if ((((b[6] & 0xFF) << 8) | (b[7] & 0xFF)) >= OLDEST_KEPT) continue;
                ClassTransform version = (cb, e) -> {
                    if (e instanceof ClassFileVersion) cb.withVersion(TARGET, 0);
                    else cb.with(e);
                };
                // Rebuilding every method body (ACCEPT_ALL) is what makes the ClassFile API write new stack maps.
                Files.write(p, cf.transformClass(cf.parse(b), ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL).andThen(version)));
                done++;
            }
            System.out.println("[cli] " + done + " class files under " + prefix + " retargeted to Java 8 for the AOT cache");
        }
    }

    private static InputStream open(FileSystem fs, ClassDesc d) {
        String desc = d.descriptorString();
        Path p = fs.getPath("/", desc.substring(1, desc.length() - 1) + ".class");
        try {
            return Files.exists(p) ? Files.newInputStream(p) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.metaroce.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import io.metaroce.capture.archtest.BackEdge;
import org.junit.jupiter.api.Test;

/**
 * The modules depend on each other one way only (main code; tests may use anything on their class path):
 * <pre>
 *   capture, filter          leaves: depend on no other module
 *   dissector                -> capture, filter          (its packages: io.metaroce.dissector, io.metaroce.protocol)
 *   samples, analysis        -> dissector (and below); not on each other
 *   validate                 -> analysis (and below)
 *   cli                      -> all of them
 * </pre>
 * Maven's dependency graph already stops most back edges at compile time, but not every one (a test-scoped
 * module, a module that two siblings share) and it cannot forbid a cycle among packages of sibling modules.
 * This test lives in cli because only cli sees every module.
 */
class ModuleBoundariesTest {
    private static final String[] CAPTURE = {"io.metaroce.capture.."}, FILTER = {"io.metaroce.filter.."},
            DISSECTOR = {"io.metaroce.dissector..", "io.metaroce.protocol.."}, SAMPLES = {"io.metaroce.samples.."},
            ANALYSIS = {"io.metaroce.analysis.."}, VALIDATE = {"io.metaroce.validate.."}, CLI = {"io.metaroce.cli.."},
            INDEX = {"io.metaroce.index.."};

    static final ArchRule ONE_WAY = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("capture").definedBy(CAPTURE)
            .layer("filter").definedBy(FILTER)
            .layer("dissector").definedBy(DISSECTOR)
            .layer("samples").definedBy(SAMPLES)
            .layer("analysis").definedBy(ANALYSIS)
            .layer("validate").definedBy(VALIDATE)
            .layer("cli").definedBy(CLI)
            .layer("index").definedBy(INDEX)
            .whereLayer("index").mayOnlyBeAccessedByLayers("cli")
            .whereLayer("cli").mayNotBeAccessedByAnyLayer()
            .whereLayer("validate").mayOnlyBeAccessedByLayers("cli")
            .whereLayer("analysis").mayOnlyBeAccessedByLayers("validate", "index", "cli")
            .whereLayer("samples").mayOnlyBeAccessedByLayers("cli")
            .whereLayer("dissector").mayOnlyBeAccessedByLayers("samples", "analysis", "validate", "cli")
            .whereLayer("capture").mayOnlyBeAccessedByLayers("dissector", "samples", "analysis", "validate", "index", "cli")
            .whereLayer("filter").mayOnlyBeAccessedByLayers("dissector", "samples", "analysis", "validate", "cli")
            .because("modules depend one way: capture, filter <- dissector <- samples, analysis <- validate <- cli");

    /** One slice per module (the dissector module has two packages), so a cycle is named by module. */
    private static final SliceAssignment MODULES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(com.tngtech.archunit.core.domain.JavaClass c) {
            String p = c.getPackageName();
            if (!p.startsWith("io.metaroce.")) return SliceIdentifier.ignore();
            String top = p.substring("io.metaroce.".length()).split("\\.")[0];
            return SliceIdentifier.of(top.equals("protocol") ? "dissector" : top);
        }

        @Override
        public String getDescription() { return "modules of io.metaroce"; }
    };

    static final ArchRule NO_CYCLES = slices().assignedFrom(MODULES).should().beFreeOfCycles();

    private static JavaClasses mainClasses() {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.metaroce");
    }

    @Test
    void modulesDependOneWayWithoutCycles() {
        JavaClasses classes = mainClasses();
        // Every module's main classes were found, so the rules are not vacuous.
        for (String[] module : new String[][] {CAPTURE, FILTER, DISSECTOR, SAMPLES, ANALYSIS, VALIDATE, CLI, INDEX}) {
            String pkg = module[0].replace("..", "");
            assertTrue(classes.stream().anyMatch(c -> c.getPackageName().startsWith(pkg)), "classes of " + pkg + " imported");
        }
        ONE_WAY.check(classes);
        NO_CYCLES.check(classes);
    }

    @Test
    void anEdgeBackUpIsCaught() {
        JavaClasses classes = new ClassFileImporter().importClasses(BackEdge.class, io.metaroce.analysis.AnalysisSettings.class);
        EvaluationResult result = ONE_WAY.evaluate(classes);
        assertTrue(result.hasViolation());
        assertTrue(result.getFailureReport().toString().contains("BackEdge"), result.getFailureReport().toString());
    }

    /**
     * The two index backends never see each other: Solr 9 embeds Lucene 9 and the embedded index is Lucene 10, so
     * index-solr must hold no Lucene class at all, and neither backend may call the other (each sees index-api only).
     */
    @Test
    void theIndexBackendsStayApart() {
        JavaClasses classes = mainClasses();
        assertTrue(classes.stream().anyMatch(c -> c.getPackageName().equals("io.metaroce.index.solr")), "index-solr imported");
        noClasses().that().resideInAPackage("io.metaroce.index.solr..").should().dependOnClassesThat()
                .resideInAnyPackage("io.metaroce.index.lucene..", "org.apache.lucene..").check(classes);
        noClasses().that().resideInAPackage("io.metaroce.index.lucene..").should().dependOnClassesThat()
                .resideInAnyPackage("io.metaroce.index.solr..", "org.apache.solr..").check(classes);
    }
}

package io.metaroce.gui;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The GUI sits beside the CLI at the top: it uses the engine (capture, filter, dissector, analysis, validate) and
 * the flow index (index-api and the embedded index-lucene, for Flow Search) and nothing uses it; it never reaches
 * into the CLI, the simulator or the SolrCloud backend. (cli's ModuleBoundariesTest cannot see this module, so the
 * rule lives here.)
 */
class GuiBoundariesTest {
    static final ArchRule GUI_ON_TOP = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("engine").definedBy("io.metaroce.capture..", "io.metaroce.filter..", "io.metaroce.dissector..",
                    "io.metaroce.protocol..", "io.metaroce.analysis..", "io.metaroce.validate..")
            .layer("samples").definedBy("io.metaroce.samples..")
            .layer("index").definedBy("io.metaroce.index", "io.metaroce.index.lucene..")
            .layer("gui").definedBy("io.metaroce.gui..")
            .whereLayer("gui").mayNotBeAccessedByAnyLayer()
            .whereLayer("index").mayOnlyBeAccessedByLayers("gui")
            .whereLayer("samples").mayNotBeAccessedByAnyLayer()
            .because("the GUI is a front end over the engine, like the CLI");

    @Test
    void theGuiDependsOnTheEngineOnlyAndNothingOnTheGui() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.metaroce");
        assertTrue(classes.stream().anyMatch(c -> c.getPackageName().equals("io.metaroce.gui")));
        assertTrue(classes.stream().anyMatch(c -> c.getPackageName().equals("io.metaroce.analysis")));
        GUI_ON_TOP.check(classes);
        assertTrue(classes.stream().anyMatch(c -> c.getPackageName().equals("io.metaroce.index.lucene")), "index-lucene imported");
        noClasses().that().resideInAPackage("io.metaroce.gui..").should().dependOnClassesThat()
                .resideInAnyPackage("io.metaroce.index.solr..", "org.apache.solr..").check(classes);
        // The index uses the engine, never the GUI (the layered rule above) and never JavaFX.
        noClasses().that().resideInAPackage("io.metaroce.index..").should().dependOnClassesThat()
                .resideInAnyPackage("javafx..").check(classes);
        assertTrue(classes.stream().noneMatch(c -> c.getPackageName().startsWith("io.metaroce.cli")), "cli is not on the gui's class path");
    }
}

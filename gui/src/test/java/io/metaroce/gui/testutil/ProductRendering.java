package io.metaroce.gui.testutil;

import io.metaroce.gui.RenderingSetup;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Every GUI test renders as `metaroce gui` does: the product's Prism settings ({@link RenderingSetup}) are applied
 * before any test class can start the JavaFX toolkit (TestFX starts it in its beforeEach). Registered for all test
 * classes through JUnit's extension auto-detection (src/test/resources: junit-platform.properties and
 * META-INF/services), so that no test class can start the toolkit without them, whatever order the classes run in.
 */
public final class ProductRendering implements BeforeAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) { RenderingSetup.beforeToolkitStart(); }
}

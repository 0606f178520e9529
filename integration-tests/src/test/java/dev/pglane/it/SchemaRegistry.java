package dev.pglane.it;

import dev.pglane.local.stack.RegistryNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An Apicurio Registry of a test class's own, as a process of its own: started before the class's first test (and
 * before its {@code @BeforeAll} methods), stopped after its last, its files deleted.
 */
final class SchemaRegistry implements BeforeAllCallback, AfterAllCallback {
    private Path directory;
    private RegistryNode node;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        directory = Files.createTempDirectory("pglane-registry-");
        node = RegistryNode.start(directory);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (node != null) {
            node.close();
        }
        SharedWorker.deleteRecursively(directory);
    }

    RegistryNode node() {
        return node;
    }

    /** The registry's Apicurio v2 API, as the converters take it. */
    String url() {
        return node.apicurioV2Url();
    }
}

package dev.pglane.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.docs.ConfigDocsMarkdown;
import dev.pglane.docs.RepoFiles;
import org.junit.jupiter.api.Test;

/** docs/source-config.md is generated from the ConfigDef; this fails when it was not regenerated. */
class PgSourceConfigDocsTest {
    static final String FILE = "docs/source-config.md";
    static final String REGENERATE =
            ConfigDocsMarkdown.regenerateCommand("connect-source", PgSourceConfigDocsTest.class);

    @Test
    void committedDocsMatchConfigDef() {
        String markdown = ConfigDocsMarkdown.render(
                PgSourceConfig.CONFIG_DEF,
                "pglane source connector configuration",
                "Keys of `dev.pglane.source.PgSourceConnector`, by section as the Connect REST API groups them."
                        + " Connect's own keys (`name`, `connector.class`, `tasks.max`, converters, transforms,"
                        + " `errors.*`) are described in the Kafka Connect documentation. `tasks.max` above 1"
                        + " has no effect: one replication slot is one ordered stream, read by one task.",
                REGENERATE);
        assertEquals("", RepoFiles.staleness(FILE, markdown, REGENERATE));
    }
}

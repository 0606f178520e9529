package dev.pglane.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.docs.ConfigDocsMarkdown;
import dev.pglane.docs.RepoFiles;
import org.junit.jupiter.api.Test;

/** docs/sink-config.md is generated from the ConfigDef; this fails when it was not regenerated. */
class PgSinkConfigDocsTest {
    static final String FILE = "docs/sink-config.md";
    static final String REGENERATE = ConfigDocsMarkdown.regenerateCommand("connect-sink", PgSinkConfigDocsTest.class);

    @Test
    void committedDocsMatchConfigDef() {
        String markdown = ConfigDocsMarkdown.render(
                PgSinkConfig.CONFIG_DEF,
                "pglane sink connector configuration",
                "Keys of `dev.pglane.sink.PgSinkConnector`, by section as the Connect REST API groups them."
                        + " Connect's own keys (`name`, `connector.class`, `tasks.max`, `topics`/`topics.regex`,"
                        + " converters, transforms, `errors.*`) are described in the Kafka Connect documentation;"
                        + " `topics` or `topics.regex` must include the source's marker topic"
                        + " `<source.topic.prefix>.transactions`. `tasks.max` above 1 has no effect: commit order"
                        + " across all partitions needs one apply leader.",
                REGENERATE);
        assertEquals("", RepoFiles.staleness(FILE, markdown, REGENERATE));
    }
}

package dev.pglane.local.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every pglane configuration key the README and the guides name exists: a key is known when the option references
 * generated from the connectors' {@code ConfigDef}s ({@code docs/source-config.md}, {@code docs/sink-config.md}, kept
 * equal to them by the connectors' own tests) describe it. A name in backticks counts as a key when its first part is
 * that of some pglane key ({@code snapshot.}, {@code apply.}, ...); the few such names that belong to Kafka, Debezium
 * or the records are listed here.
 */
class DocsConfigKeysTest {
    private static final Pattern REFERENCE_KEY = Pattern.compile("^### `([^`]+)`", Pattern.MULTILINE);
    private static final Pattern NAMED = Pattern.compile("`([a-z][a-z0-9_]*(?:\\.[a-z0-9_*]+)+)(?:=[^`]*)?`");
    /** Other projects' keys that share a first part with pglane's. */
    private static final Set<String> OTHERS = Set.of(
            "transaction.boundary", // Kafka Connect, exactly-once source connectors
            "transaction.timeout.ms", // Kafka producer
            "transaction.max.timeout.ms", // Kafka broker
            "snapshot.max.threads", // Debezium
            "poll.interval.ms", // Debezium
            "topic.creation.groups", // Kafka Connect, topic creation by source connectors (KIP-158)
            "topic.creation.markers.partitions"); // the same, for the examples' group of the marker topic
    /** Record and marker fields the guides name, which look like keys. */
    private static final Set<String> FIELDS = Set.of(
            "source.lsn", "source.schema", "source.snapshot", "source.table", "transaction.id", "snapshot.range");

    @Test
    void everyKeyTheGuidesNameExists() throws IOException {
        Set<String> keys = referenceKeys();
        String references = referenceText();
        Set<String> families = new HashSet<>();
        keys.forEach(key -> families.add(key.substring(0, key.indexOf('.') < 0 ? key.length() : key.indexOf('.'))));
        List<String> unknown = new ArrayList<>();
        for (Path page : DocsLinksTest.pages()) {
            String name = page.getFileName().toString();
            if (name.endsWith("-config.md") || name.equals("wire-format.md")) {
                continue; // the references themselves, and the record fields of the wire format
            }
            Matcher m = NAMED.matcher(Files.readString(page));
            while (m.find()) {
                String named = m.group(1);
                String family = named.substring(0, named.indexOf('.'));
                if (families.contains(family) && !known(named, keys, references)) {
                    unknown.add(name + ": " + named);
                }
            }
        }
        assertEquals(List.of(), unknown.stream().distinct().toList());
    }

    @Test
    void theReferencesHoldTheKeysOfBothConnectors() throws IOException {
        Set<String> keys = referenceKeys();
        assertTrue(keys.contains("slot.name") && keys.contains("apply.workers"), keys::toString);
    }

    /**
     * A key of the references, another project's key or a record field; a family ({@code column.*}) of keys of the
     * references, or of pass-through settings a reference names ("keys that start with signal.consumer.").
     */
    private static boolean known(String named, Set<String> keys, String references) {
        if (OTHERS.contains(named) || FIELDS.contains(named) || keys.contains(named)) {
            return true;
        }
        if (named.endsWith("*")) {
            String prefix = named.substring(0, named.length() - 1);
            return keys.stream().anyMatch(key -> key.startsWith(prefix)) || references.contains("start with " + prefix);
        }
        return false;
    }

    private static Set<String> referenceKeys() throws IOException {
        Set<String> keys = new HashSet<>();
        Matcher m = REFERENCE_KEY.matcher(referenceText());
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    private static String referenceText() throws IOException {
        return Files.readString(Path.of("..", "docs", "source-config.md"))
                + Files.readString(Path.of("..", "docs", "sink-config.md"));
    }
}

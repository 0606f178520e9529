package dev.pglane.source.reader;

import dev.pglane.source.schema.RelationDescriptor;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Warns once per table whose updates and deletes the server cannot send with their old key. */
final class KeylessTables {
    private static final Logger log = LoggerFactory.getLogger(KeylessTables.class);

    private final Set<String> warned = new HashSet<>();

    void warnOnce(RelationDescriptor relation) {
        char identity = relation.replicaIdentity();
        String name = relation.schema() + "." + relation.table();
        if (!relation.hasKey() && (identity == 'n' || identity == 'd') && warned.add(name)) {
            log.warn(
                    "Table {} has no replica identity key (REPLICA IDENTITY {}): its updates and deletes cannot"
                            + " be replicated, since a publication that publishes them makes UPDATE and DELETE fail"
                            + " on the source, and a delete made while none did carries no key and is not sent. Add a"
                            + " primary key or set REPLICA IDENTITY FULL.",
                    name,
                    identity == 'n' ? "NOTHING" : "DEFAULT without a primary key");
        }
    }
}

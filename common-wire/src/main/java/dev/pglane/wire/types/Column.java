package dev.pglane.wire.types;

import java.util.Objects;

/**
 * A column of a published table, as a pgoutput Relation message describes it once its type is
 * resolved.
 *
 * @param key part of the replica identity (Relation flag 1; every column under REPLICA IDENTITY FULL)
 */
public record Column(String name, PgColumnType type, boolean key) {

    public Column {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }
}

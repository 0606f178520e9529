package dev.pglane.source.schema;

import dev.pglane.source.pgoutput.TypeMessage;
import dev.pglane.wire.types.PgColumnType;

/**
 * Describes the type of a column from the OID and type modifier of a pgoutput Relation message. Built-in types
 * need nothing more ({@link PgColumnType#of(int, int)}); enums, domains, arrays of them and extension types need
 * the catalog ({@link JdbcTypeCatalog}).
 */
public interface TypeCatalog {

    /**
     * @param typeOid {@code atttypid}
     * @param typeModifier {@code atttypmod}, -1 if none
     * @throws IllegalStateException naming the OID if the type cannot be described
     */
    PgColumnType resolve(int typeOid, int typeModifier);

    /**
     * PostgreSQL announced a type with a Type message, which it sends before each Relation message that uses a
     * non-built-in type. A catalog that caches should forget what it knows about the type (an enum may have new
     * labels) and may use the name if the type has since been dropped. Catalogs that cache nothing ignore it.
     */
    default void announced(TypeMessage message) {}
}

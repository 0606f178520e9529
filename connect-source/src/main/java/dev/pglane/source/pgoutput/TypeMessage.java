package dev.pglane.source.pgoutput;

/**
 * {@code 'Y'}: names a non-built-in type (OID at or above 10000) before the Relation that uses it.
 *
 * @param xid the streamed (sub)transaction xid, or 0 outside a stream
 * @param typeOid the type OID
 * @param namespace the schema name; {@code ""} means {@code pg_catalog}, as sent
 * @param typeName the type name
 */
public record TypeMessage(long xid, int typeOid, String namespace, String typeName) implements PgOutputMessage {}

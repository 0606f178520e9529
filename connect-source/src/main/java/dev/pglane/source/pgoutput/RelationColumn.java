package dev.pglane.source.pgoutput;

/**
 * One column of a {@link RelationMessage}.
 *
 * @param name the column name
 * @param typeOid the column type's OID
 * @param typeModifier {@code atttypmod}, -1 when the type has none
 * @param key whether the column is part of the replica identity (every column under FULL)
 */
public record RelationColumn(String name, int typeOid, int typeModifier, boolean key) {}

package dev.pglane.wire.types;

import dev.pglane.wire.WireFormatException;
import org.apache.kafka.connect.data.Schema;

/**
 * The schema parameters pglane puts on every column field, so that a consumer knows the PostgreSQL
 * column behind it without a catalog: the sink uses them to create tables and to find key columns.
 * Names start with {@code __pglane.} so they never collide with Connect's or Debezium's parameters.
 */
public final class ColumnParameters {

    /** {@code format_type} text of the column, e.g. {@code numeric(10,2)}, {@code integer[]}. */
    public static final String TYPE = "__pglane.type";

    /**
     * The column's type modifier ({@code atttypmod}), decimal; absent when it has none (-1). A consumer that
     * creates the column asks its own server to format the type with it ({@code format_type}), since the
     * modifier inside {@link #TYPE}'s text can only be parsed by a server of version 17 or later.
     */
    public static final String TYPMOD = "__pglane.typmod";

    /** The type OID, decimal. */
    public static final String OID = "__pglane.oid";

    /** {@code "true"} on columns of the replica identity key; absent otherwise. */
    public static final String KEY = "__pglane.key";

    private ColumnParameters() {}

    /** The PostgreSQL type text of a column field, or {@code null} if the schema has none. */
    public static String pgType(Schema column) {
        return column.parameters() == null ? null : column.parameters().get(TYPE);
    }

    /** The type modifier of a column field, or {@code null} if it has none or the schema does not say. */
    public static Integer typmod(Schema column) {
        String typmod = column.parameters() == null ? null : column.parameters().get(TYPMOD);
        if (typmod == null) {
            return null;
        }
        try {
            return Integer.valueOf(typmod);
        } catch (NumberFormatException e) {
            throw new WireFormatException(TYPMOD + " '" + typmod + "' is not a number");
        }
    }

    /** The type OID of a column field, or -1 if the schema has none. */
    public static int oid(Schema column) {
        String oid = column.parameters() == null ? null : column.parameters().get(OID);
        return oid == null ? -1 : Integer.parseInt(oid);
    }

    /** True if the column is part of the replica identity key. */
    public static boolean isKey(Schema column) {
        return column.parameters() != null && "true".equals(column.parameters().get(KEY));
    }
}

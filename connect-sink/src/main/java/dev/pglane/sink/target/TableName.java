package dev.pglane.sink.target;

/** A schema-qualified table name as written in the config, without quotes. */
public record TableName(String schema, String table) {
    /** Parses {@code schema.table}, or {@code table} in schema public. */
    public static TableName parse(String name) {
        int dot = name.indexOf('.');
        return dot < 0 ? new TableName("public", name) : new TableName(name.substring(0, dot), name.substring(dot + 1));
    }

    @Override
    public String toString() {
        return schema + "." + table;
    }
}

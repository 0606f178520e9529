package dev.pglane.sink.target;

/** Maps a source table to its target table through {@code table.name.format}. */
public final class TableMapping {
    private final String format;

    /** @param format e.g. {@code ${schema}.${table}}; without a dot the table goes to schema public */
    public TableMapping(String format) {
        this.format = format;
    }

    public TableName targetOf(String sourceSchema, String sourceTable) {
        String name = format.replace("${schema}", sourceSchema).replace("${table}", sourceTable);
        return TableName.parse(name);
    }
}

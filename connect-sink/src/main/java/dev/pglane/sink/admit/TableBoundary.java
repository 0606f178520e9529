package dev.pglane.sink.admit;

import dev.pglane.sink.target.TableMapping;
import dev.pglane.sink.target.TableName;

/**
 * The tables a writer of the topics may reach through this sink: those of a configured {@code table.include.list}
 * (every one when it is empty), outside the system schemas, whose target is neither in a system schema nor the sink's
 * own progress table. Immutable, so the apply workers share it.
 *
 * @param progressTable the progress table, or {@code null} if progress lives in replication origins
 */
public record TableBoundary(TableIncludeList included, TableMapping mapping, TableName progressTable) {

    /** Why changes of source table {@code schema.table} may not be applied, or {@code null} if they may. */
    public String refusal(String schema, String table) {
        String name = schema + "." + table;
        if (!included.includes(schema, table)) {
            return "source table " + name + " is not in the sink's table.include.list";
        }
        if (isSystemSchema(schema)) {
            return "source table " + name + " is in a system schema, which the source never captures";
        }
        TableName target = mapping.targetOf(schema, table);
        if (isSystemSchema(target.schema())) {
            return "source table " + name + " maps to " + target + ", in a system schema";
        }
        if (target.equals(progressTable)) {
            return "source table " + name + " maps to " + target + ", the sink's own progress table";
        }
        return null;
    }

    static boolean isSystemSchema(String schema) {
        return schema.startsWith("pg_") || schema.equals("information_schema");
    }
}

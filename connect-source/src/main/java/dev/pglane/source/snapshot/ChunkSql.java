package dev.pglane.source.snapshot;

import dev.pglane.source.pgoutput.RelationColumn;
import dev.pglane.source.signal.RowCondition;
import java.sql.SQLException;
import java.util.List;
import java.util.StringJoiner;
import org.postgresql.core.BaseConnection;

/**
 * The SQL text of a chunk's queries. COPY takes no bind parameters, so a chunk's bounds go into the text as literals:
 * each value is the server's own text of a key value, written by {@code escapeLiteral} (the session has
 * {@code standard_conforming_strings} on, as every supported server does by default) and cast to the type name the
 * server formatted for the column. Identifiers are quoted. Nothing else goes into the text, but the publication's row
 * filter as the server deparsed it (see {@link SnapshotCatalog} for why that is safe) and a signal's condition, which
 * is pglane's SQL from a parsed {@link RowCondition}: quoted column names and its literals as escaped string constants
 * of unknown type, which the server types as the column each is compared with.
 */
final class ChunkSql {
    private final BaseConnection connection;
    private final RowCondition.Quoting quoting;

    ChunkSql(BaseConnection connection) {
        this.connection = connection;
        this.quoting = new RowCondition.Quoting() {
            @Override
            public String identifier(String name) throws SQLException {
                return quote(name);
            }

            @Override
            public String literal(String value) throws SQLException {
                // escapeLiteral doubles the quotes inside; the quotes around are ours
                return "'" + connection.escapeLiteral(value) + "'";
            }
        };
    }

    /** {@code COPY (SELECT <published columns> FROM [ONLY] <table> WHERE <range>) TO STDOUT}. */
    String copy(Chunk chunk) throws SQLException {
        StringJoiner columns = new StringJoiner(", ");
        for (RelationColumn column : chunk.table().columns()) {
            columns.add(quote(column.name()));
        }
        return "COPY (SELECT " + columns + from(chunk.table()) + where(chunk) + ") TO STDOUT";
    }

    /**
     * The query for the start of the chunk after one starting at {@code lower}: the key {@code rows} rows further on,
     * in key order, or no row when the rest of the table (up to {@code end}, among the rows {@code where} admits) fits
     * in one chunk.
     */
    String nextKey(SnapshotTable table, ChunkBound.Key lower, ChunkBound.Key end, RowCondition where, long rows)
            throws SQLException {
        StringJoiner select = new StringJoiner(", ");
        for (SnapshotTable.KeyColumn key : table.chunkKey()) {
            select.add(quote(key.name()) + "::pg_catalog.text");
        }
        String from = conditions(table, lower, end, where);
        // qualified, so ORDER BY sorts by the key columns, not by the text output columns of the same names
        StringJoiner order = new StringJoiner(", ");
        for (SnapshotTable.KeyColumn key : table.chunkKey()) {
            order.add(table(table) + "." + quote(key.name()));
        }
        return "SELECT " + select + from(table) + from + " ORDER BY " + order + " OFFSET " + rows + " LIMIT 1";
    }

    private String where(Chunk chunk) throws SQLException {
        return conditions(chunk.table(), (ChunkBound.Key) chunk.lower(), (ChunkBound.Key) chunk.upper(), chunk.where());
    }

    private String conditions(SnapshotTable table, ChunkBound.Key lower, ChunkBound.Key upper, RowCondition where)
            throws SQLException {
        StringJoiner conditions = new StringJoiner(" AND ", " WHERE ", "").setEmptyValue("");
        if (lower != null) {
            conditions.add(keyComparison(table, ">=", lower));
        }
        if (upper != null) {
            conditions.add(keyComparison(table, "<", upper));
        }
        if (table.rowFilter() != null) {
            // the rows the publication publishes: the chunk's rows must be those the stream would send
            conditions.add("(" + table.rowFilter() + ")");
        }
        if (where != null) {
            conditions.add(where.toSql(quoting));
        }
        return conditions.toString();
    }

    /** A row comparison, {@code (a, b) >= ('1'::integer, 'x'::text)}, which a btree index on the key serves. */
    private String keyComparison(SnapshotTable table, String operator, ChunkBound.Key bound) throws SQLException {
        List<SnapshotTable.KeyColumn> key = table.chunkKey();
        StringJoiner values = new StringJoiner(", ", "(", ")");
        for (int i = 0; i < key.size(); i++) {
            // escapeLiteral doubles the quotes inside; the quotes around are ours
            values.add("'" + connection.escapeLiteral(bound.values().get(i)) + "'::"
                    + key.get(i).typeName());
        }
        return "(" + keyList(table) + ") " + operator + " " + values;
    }

    private String keyList(SnapshotTable table) throws SQLException {
        StringJoiner names = new StringJoiner(", ");
        for (SnapshotTable.KeyColumn key : table.chunkKey()) {
            names.add(quote(key.name()));
        }
        return names.toString();
    }

    /** {@code FROM ONLY <table>}: its own rows, not an inheritance child's; a partitioned table's are its partitions'. */
    private String from(SnapshotTable table) throws SQLException {
        return (table.partitioned() ? " FROM " : " FROM ONLY ") + table(table);
    }

    private String table(SnapshotTable table) throws SQLException {
        return quote(table.schema()) + "." + quote(table.table());
    }

    private String quote(String identifier) throws SQLException {
        return connection.escapeIdentifier(identifier);
    }
}

package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pglane.local.stack.PostgresNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What a writer of a change topic can make of a genuine pglane change in JSON: the same record with its source
 * block naming another table, or with a column whose type parameter is SQL. And a target-only table that such a
 * record must not reach.
 */
final class Forgery {
    /** A table of the target that no source table maps to. */
    static final String VICTIM = "public.forgery_victim";

    private static final ObjectMapper JSON = new ObjectMapper();

    private Forgery() {}

    /** {@code genuine} with its source block naming {@code schema} (unless null) and {@code table}. */
    static byte[] source(byte[] genuine, String schema, String table) {
        JsonNode record = read(genuine);
        ObjectNode source = (ObjectNode) record.path("payload").path("source");
        if (schema != null) {
            source.put("schema", schema);
        }
        source.put("table", table);
        return write(record);
    }

    /** {@code genuine} with the type parameter of every column of its rows set to {@code type}. */
    static byte[] columnType(byte[] genuine, String type) {
        JsonNode record = read(genuine);
        for (JsonNode field : record.path("schema").path("fields")) {
            for (JsonNode column : field.path("fields")) {
                JsonNode parameters = column.path("parameters");
                if (parameters.has("__pglane.type")) {
                    ((ObjectNode) parameters).put("__pglane.type", type);
                }
            }
        }
        return write(record);
    }

    static void createVictim(PostgresNode target) throws SQLException {
        SqlSession.execute(
                target,
                "CREATE TABLE IF NOT EXISTS " + VICTIM + " (id int)",
                "TRUNCATE " + VICTIM,
                "INSERT INTO " + VICTIM + " VALUES (1)");
    }

    /** The victim still has its one row: no forged record dropped, truncated or wrote it. */
    static void assertVictimUntouched(PostgresNode target) throws SQLException {
        try (Connection c = target.open();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM " + VICTIM)) {
            rs.next();
            assertEquals(1, rs.getInt(1), VICTIM + " was changed");
        }
    }

    private static JsonNode read(byte[] value) {
        try {
            return JSON.readTree(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] write(JsonNode record) {
        try {
            return JSON.writeValueAsBytes(record);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.pglane.source.schema;

import dev.pglane.connect.database.SqlStateClass;
import dev.pglane.source.pgoutput.TypeMessage;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

/**
 * Resolves column types: built-in types (and arrays of them) from their OID alone, others with one catalog query
 * per type on a plain SQL connection: enums with their labels in sort order, domains over their base type
 * (recursively), arrays over their element type, and anything else (extension types such as hstore, citext or
 * ltree, ranges of user types, composites) by name, which {@code ColumnSchemas} maps. A type is an array when it
 * prints with {@code array_out}: {@code int2vector} and {@code oidvector} are subscriptable like arrays but print
 * {@code 1 2}, so they travel as text. Results are cached per OID and type modifier until a Type message announces
 * the type again.
 *
 * <p>The catalog is read when the Relation message arrives, which can be later than the change it describes; a
 * type dropped in between is described from its Type message (name only, so its values travel as text).
 *
 * <p>Used by the reader thread only; not thread-safe. The connection stays the caller's.
 */
public final class JdbcTypeCatalog implements TypeCatalog {

    private static final String QUERY = "SELECT t.typname, t.typtype, t.typelem, t.typbasetype, t.typtypmod,"
            + " t.typoutput = 'pg_catalog.array_out'::pg_catalog.regproc AS is_array,"
            + " pg_catalog.format_type(t.oid, ?) AS formatted,"
            + " CASE WHEN t.typtype = 'e' THEN ARRAY(SELECT e.enumlabel FROM pg_catalog.pg_enum e"
            + " WHERE e.enumtypid = t.oid ORDER BY e.enumsortorder) END AS labels"
            + " FROM pg_catalog.pg_type t WHERE t.oid = ?::pg_catalog.oid";

    private final Connection connection;
    private final Map<Long, PgColumnType> cache = new HashMap<>();
    private final Map<Integer, TypeMessage> announced = new HashMap<>();

    /** @param connection a plain (not replication) connection to the source database */
    public JdbcTypeCatalog(Connection connection) {
        this.connection = connection;
    }

    /**
     * @throws RetriableException if the connection failed while reading the catalog
     * @throws ConnectException if the catalog query failed otherwise
     * @throws IllegalStateException if the type is neither in the catalog nor announced by a Type message
     */
    @Override
    public PgColumnType resolve(int typeOid, int typeModifier) {
        if (PgType.byOid(typeOid) != null || PgType.byArrayOid(typeOid) != null) {
            return PgColumnType.of(typeOid, typeModifier);
        }
        long key = ((long) typeOid << 32) | (typeModifier & 0xFFFFFFFFL);
        PgColumnType type = cache.get(key);
        if (type == null) {
            type = lookUp(typeOid, typeModifier);
            cache.put(key, type);
        }
        return type;
    }

    @Override
    public void announced(TypeMessage message) {
        announced.put(message.typeOid(), message);
        cache.values().removeIf(type -> mentions(type, message.typeOid()));
    }

    private PgColumnType lookUp(int typeOid, int typeModifier) {
        try (PreparedStatement query = connection.prepareStatement(QUERY)) {
            query.setInt(1, typeModifier);
            query.setLong(2, Integer.toUnsignedLong(typeOid));
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? describe(typeOid, typeModifier, row) : fromAnnouncement(typeOid, typeModifier);
            }
        } catch (SQLException e) {
            String problem = "cannot read type OID " + Integer.toUnsignedString(typeOid) + " from the catalog: "
                    + e.getMessage();
            throw SqlStateClass.failure(problem, e);
        }
    }

    private PgColumnType describe(int typeOid, int typeModifier, ResultSet row) throws SQLException {
        String name = row.getString("typname");
        String formatted = row.getString("formatted");
        List<String> labels = labels(row.getArray("labels"));
        if (!labels.isEmpty()) {
            return PgColumnType.enumType(typeOid, name, formatted, labels);
        }
        if ("d".equals(row.getString("typtype"))) {
            PgColumnType base = resolve((int) row.getLong("typbasetype"), row.getInt("typtypmod"));
            return PgColumnType.domain(typeOid, name, formatted, base);
        }
        if (row.getBoolean("is_array")) {
            return PgColumnType.arrayOf(typeOid, resolve((int) row.getLong("typelem"), typeModifier));
        }
        return PgColumnType.named(typeOid, name, typeModifier, formatted);
    }

    /** An enum without labels can only hold NULL; it is described by name like any other type. */
    private static List<String> labels(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }

    private PgColumnType fromAnnouncement(int typeOid, int typeModifier) {
        TypeMessage message = announced.get(typeOid);
        if (message == null) {
            throw new IllegalStateException("type OID " + Integer.toUnsignedString(typeOid)
                    + " is not in pg_type (dropped since?) and no Type message named it");
        }
        // quoted, as format_type would where needed: the names are the server's, but a consumer reads this text
        String qualified = message.namespace().isEmpty()
                ? quote(message.typeName())
                : quote(message.namespace()) + "." + quote(message.typeName());
        return PgColumnType.named(typeOid, message.typeName(), typeModifier, qualified);
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /** True if {@code type} is the type {@code oid} or is built on it (array element, domain base). */
    private static boolean mentions(PgColumnType type, int oid) {
        for (PgColumnType t = type; t != null; t = t.isArray() ? t.element() : t.base()) {
            if (t.oid() == oid) {
                return true;
            }
        }
        return false;
    }
}

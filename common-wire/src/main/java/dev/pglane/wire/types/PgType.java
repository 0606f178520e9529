package dev.pglane.wire.types;

import java.util.HashMap;
import java.util.Map;

/**
 * PostgreSQL's built-in types that pglane maps specially, by their fixed catalog OIDs (stable across
 * versions: they are assigned in {@code pg_type.dat}). Types created by extensions (citext, hstore,
 * ltree, ...) have OIDs assigned at {@code CREATE EXTENSION} time and are recognised by name instead.
 */
public enum PgType {
    BOOL(16, "bool", 1000, "boolean"),
    BYTEA(17, "bytea", 1001, "bytea"),
    CHAR(18, "char", 1002, "\"char\""),
    NAME(19, "name", 1003, "name"),
    INT8(20, "int8", 1016, "bigint"),
    INT2(21, "int2", 1005, "smallint"),
    INT4(23, "int4", 1007, "integer"),
    TEXT(25, "text", 1009, "text"),
    OID(26, "oid", 1028, "oid"),
    XID(28, "xid", 1011, "xid"),
    CID(29, "cid", 1012, "cid"),
    JSON(114, "json", 199, "json"),
    XML(142, "xml", 143, "xml"),
    POINT(600, "point", 1017, "point"),
    LSEG(601, "lseg", 1018, "lseg"),
    PATH(602, "path", 1019, "path"),
    BOX(603, "box", 1020, "box"),
    POLYGON(604, "polygon", 1027, "polygon"),
    LINE(628, "line", 629, "line"),
    CIDR(650, "cidr", 651, "cidr"),
    FLOAT4(700, "float4", 1021, "real"),
    FLOAT8(701, "float8", 1022, "double precision"),
    CIRCLE(718, "circle", 719, "circle"),
    MACADDR8(774, "macaddr8", 775, "macaddr8"),
    MONEY(790, "money", 791, "money"),
    MACADDR(829, "macaddr", 1040, "macaddr"),
    INET(869, "inet", 1041, "inet"),
    BPCHAR(1042, "bpchar", 1014, "character"),
    VARCHAR(1043, "varchar", 1015, "character varying"),
    DATE(1082, "date", 1182, "date"),
    TIME(1083, "time", 1183, "time without time zone"),
    TIMESTAMP(1114, "timestamp", 1115, "timestamp without time zone"),
    TIMESTAMPTZ(1184, "timestamptz", 1185, "timestamp with time zone"),
    INTERVAL(1186, "interval", 1187, "interval"),
    TIMETZ(1266, "timetz", 1270, "time with time zone"),
    BIT(1560, "bit", 1561, "bit"),
    VARBIT(1562, "varbit", 1563, "bit varying"),
    NUMERIC(1700, "numeric", 1231, "numeric"),
    UUID(2950, "uuid", 2951, "uuid"),
    PG_LSN(3220, "pg_lsn", 3221, "pg_lsn"),
    TSVECTOR(3614, "tsvector", 3643, "tsvector"),
    TSQUERY(3615, "tsquery", 3645, "tsquery"),
    JSONB(3802, "jsonb", 3807, "jsonb"),
    JSONPATH(4072, "jsonpath", 4073, "jsonpath"),
    INT4RANGE(3904, "int4range", 3905, "int4range"),
    NUMRANGE(3906, "numrange", 3907, "numrange"),
    TSRANGE(3908, "tsrange", 3909, "tsrange"),
    TSTZRANGE(3910, "tstzrange", 3911, "tstzrange"),
    DATERANGE(3912, "daterange", 3913, "daterange"),
    INT8RANGE(3926, "int8range", 3927, "int8range"),
    INT4MULTIRANGE(4451, "int4multirange", 6150, "int4multirange"),
    NUMMULTIRANGE(4532, "nummultirange", 6151, "nummultirange"),
    TSMULTIRANGE(4533, "tsmultirange", 6152, "tsmultirange"),
    TSTZMULTIRANGE(4534, "tstzmultirange", 6153, "tstzmultirange"),
    DATEMULTIRANGE(4535, "datemultirange", 6155, "datemultirange"),
    INT8MULTIRANGE(4536, "int8multirange", 6157, "int8multirange"),
    XID8(5069, "xid8", 271, "xid8");

    private static final Map<Integer, PgType> BY_OID = new HashMap<>();
    private static final Map<Integer, PgType> BY_ARRAY_OID = new HashMap<>();

    static {
        for (PgType t : values()) {
            BY_OID.put(t.oid, t);
            BY_ARRAY_OID.put(t.arrayOid, t);
        }
    }

    private final int oid;
    private final String typname;
    private final int arrayOid;
    private final String displayName;

    PgType(int oid, String typname, int arrayOid, String displayName) {
        this.oid = oid;
        this.typname = typname;
        this.arrayOid = arrayOid;
        this.displayName = displayName;
    }

    public int oid() {
        return oid;
    }

    /** {@code pg_type.typname}, e.g. {@code int4}. */
    public String typname() {
        return typname;
    }

    /** The OID of the array type over this type, e.g. 1007 for {@code int4[]}. */
    public int arrayOid() {
        return arrayOid;
    }

    /** The name {@code format_type} prints without a type modifier, e.g. {@code integer}. */
    public String displayName() {
        return displayName;
    }

    /** The built-in type with {@code oid}, or {@code null}. */
    public static PgType byOid(int oid) {
        return BY_OID.get(oid);
    }

    /** The built-in element type of the array type {@code arrayOid}, or {@code null}. */
    public static PgType byArrayOid(int arrayOid) {
        return BY_ARRAY_OID.get(arrayOid);
    }
}

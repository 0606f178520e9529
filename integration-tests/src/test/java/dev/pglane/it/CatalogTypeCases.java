package dev.pglane.it;

import static dev.pglane.it.TypeCase.SERVER_TEXT;
import static dev.pglane.it.TypeCase.of;
import static dev.pglane.it.TypeCase.rows;
import static dev.pglane.it.TypeCase.text;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The rest of the catalog's column types beside {@link TypeCases}' families: geometry, text search and JSON paths,
 * every range and multirange, the transaction and row identifiers, the {@code reg*} name types, internal vectors and
 * snapshots, a composite type, more arrays. {@link SourceTypesIT} checks that together they cover every type
 * {@code pg_catalog} defines that a table column can hold ({@link #UNWRITABLE} aside).
 */
final class CatalogTypeCases {
    /**
     * Base types of {@code pg_catalog} that no client can write: their input functions refuse every text, since only
     * the server produces them (statistics, planner trees, index summaries).
     */
    static final Map<String, String> UNWRITABLE = Map.of(
            "gtsvector", "a GiST index's internal summary of tsvectors",
            "pg_brin_bloom_summary", "a BRIN index's internal summary",
            "pg_brin_minmax_multi_summary", "a BRIN index's internal summary",
            "pg_dependencies", "extended statistics",
            "pg_mcv_list", "extended statistics",
            "pg_ndistinct", "extended statistics",
            "pg_node_tree", "a planner tree in the catalogs");

    private CatalogTypeCases() {}

    /** A composite type of its own, which the cases' table uses. */
    static List<String> prerequisites() {
        return List.of("CREATE TYPE pair AS (a integer, b text)");
    }

    static List<TypeCase> all() {
        List<TypeCase> all = new ArrayList<>();
        all.addAll(geometryTextSearchAndPaths());
        all.addAll(identifiers());
        all.addAll(rangesAndMultiranges());
        all.addAll(catalogNames());
        all.addAll(compositeAndArrays());
        return all;
    }

    /** Geometry, text search queries, JSON paths and 8-byte MAC addresses: the server's text. */
    private static List<TypeCase> geometryTextSearchAndPaths() {
        return List.of(
                of("c_line", "line", null, rows("'{1,-1,0}'", "'[(0,0),(1,2)]'", "'{0,1,-3.5}'"), s(), s(), s()),
                of(
                        "c_lseg",
                        "lseg",
                        null,
                        rows("'[(0,0),(1,1)]'", "'((1,2),(3,4))'", "'[(-1e10,0),(0,1e10)]'"),
                        s(),
                        s(),
                        s()),
                of(
                        "c_path",
                        "path",
                        null,
                        rows("'[(0,0),(1,1),(2,0)]'", "'((0,0),(1,1))'", "'[(1,2)]'"),
                        s(),
                        s(),
                        s()),
                of(
                        "c_tsquery",
                        "tsquery",
                        null,
                        rows("'fat & (rat | cat)'", "'!''x y'':* <-> b'", "'a:AB & b:*'"),
                        s(),
                        s(),
                        s()),
                of(
                        "c_jsonpath",
                        "jsonpath",
                        null,
                        rows("'$.a[*] ? (@ > 1)'", "'$'", "'strict $.\"ü\".b'"),
                        s(),
                        s(),
                        s()),
                of(
                        "c_macaddr8",
                        "macaddr8",
                        null,
                        rows("'08:00:2b:01:02:03:04:05'", "'00:00:00:00:00:00:00:00'", "'ff:ff:ff:ff:ff:ff:ff:ff'"),
                        s(),
                        s(),
                        s()));
    }

    /** Transaction, command and row identifiers, snapshots, internal vectors and access privileges. */
    private static List<TypeCase> identifiers() {
        return List.of(
                // xid8 is unsigned: past a signed 64-bit value it travels as text
                of(
                        "c_xid8",
                        "xid8",
                        null,
                        rows("'0'", "'9223372036854775807'", "'18446744073709551615'"),
                        0L,
                        Long.MAX_VALUE,
                        text("18446744073709551615")),
                of("c_xid", "xid", null, rows("'0'", "'1'", "'4294967295'"), 0L, 1L, 4294967295L),
                of("c_cid", "cid", null, rows("'0'", "'7'", "'4294967295'"), 0L, 7L, 4294967295L),
                of("c_tid", "tid", null, rows("'(0,1)'", "'(4294967295,65535)'", "'(0,0)'"), s(), s(), s()),
                of("c_internal_char", "\"char\"", null, rows("'a'", "''", "'Z'"), s(), s(), s()),
                of("c_refcursor", "refcursor", null, rows("'c1'", "''", "'a b'"), s(), s(), s()),
                of("c_pg_snapshot", "pg_snapshot", null, rows("'10:20:10,14,15'", "'1:1:'", "'10:20:'"), s(), s(), s()),
                of(
                        "c_txid_snapshot",
                        "txid_snapshot",
                        null,
                        rows("'10:20:10,14,15'", "'1:1:'", "'10:20:'"),
                        s(),
                        s(),
                        s()),
                of("c_int2vector", "int2vector", null, rows("'1 2 3'", "''", "'-32768 32767'"), s(), s(), s()),
                of("c_oidvector", "oidvector", null, rows("'1 2 3'", "''", "'4294967295'"), s(), s(), s()),
                of(
                        "c_aclitem",
                        "aclitem",
                        null,
                        rows("'postgres=r/postgres'", "'=r/postgres'", "'postgres=arwd/postgres'"),
                        s(),
                        s(),
                        s()));
    }

    /** The ranges and multiranges {@link TypeCases} does not have. */
    private static List<TypeCase> rangesAndMultiranges() {
        return List.of(
                of(
                        "c_int8range",
                        "int8range",
                        null,
                        rows("'[-9223372036854775808,9223372036854775807)'", "'empty'", "'(,)'"),
                        s(),
                        s(),
                        s()),
                of(
                        "c_tsrange",
                        "tsrange",
                        null,
                        rows("'[2024-01-01 00:00,2024-01-02 00:00)'", "'empty'", "'[-infinity,infinity]'"),
                        s(),
                        s(),
                        s()),
                of(
                        "c_tstzrange",
                        "tstzrange",
                        null,
                        rows("'[2024-01-01 00:00+00,)'", "'empty'", "'(,2024-01-01 12:00+05:30]'"),
                        s(),
                        s(),
                        s()),
                of(
                        "c_nummultirange",
                        "nummultirange",
                        null,
                        rows("'{[1,2), [3.5,4]}'", "'{}'", "'{(,)}'"),
                        s(),
                        s(),
                        s()),
                of(
                        "c_int8multirange",
                        "int8multirange",
                        null,
                        rows("'{[1,3), [5,7)}'", "'{}'", "'{[-9223372036854775808,)}'"),
                        s(),
                        s(),
                        s()),
                of(
                        "c_datemultirange",
                        "datemultirange",
                        null,
                        rows("'{[2024-01-01,2024-02-01)}'", "'{}'", "'{[2024-01-01,infinity)}'"),
                        s(),
                        s(),
                        s()),
                of(
                        "c_tsmultirange",
                        "tsmultirange",
                        null,
                        rows("'{[2024-01-01,2024-01-02)}'", "'{}'", "'{(,)}'"),
                        s(),
                        s(),
                        s()),
                of(
                        "c_tstzmultirange",
                        "tstzmultirange",
                        null,
                        rows("'{[2024-01-01 00:00+00,2024-01-02 00:00+00)}'", "'{}'", "'{(,)}'"),
                        s(),
                        s(),
                        s()));
    }

    /** The {@code reg*} types: names of catalog objects, as the server prints them. */
    private static List<TypeCase> catalogNames() {
        return List.of(
                of("c_regclass", "regclass", null, rows("'pg_class'", "'pg_type'", "'0'"), s(), s(), s()),
                of("c_regtype", "regtype", null, rows("'integer'", "'text[]'", "'0'"), s(), s(), s()),
                of("c_regproc", "regproc", null, rows("'now'", "'int4in'", "'0'"), s(), s(), s()),
                of("c_regprocedure", "regprocedure", null, rows("'now()'", "'abs(integer)'", "'0'"), s(), s(), s()),
                of("c_regoper", "regoper", null, rows("'||/'", "'|/'", "'0'"), s(), s(), s()),
                of(
                        "c_regoperator",
                        "regoperator",
                        null,
                        rows("'+(integer,integer)'", "'-(NONE,integer)'", "'0'"),
                        s(),
                        s(),
                        s()),
                of("c_regnamespace", "regnamespace", null, rows("'pg_catalog'", "'public'", "'0'"), s(), s(), s()),
                of("c_regrole", "regrole", null, rows("'postgres'", "'pg_monitor'", "'0'"), s(), s(), s()),
                of("c_regconfig", "regconfig", null, rows("'english'", "'simple'", "'0'"), s(), s(), s()),
                of("c_regdictionary", "regdictionary", null, rows("'simple'", "'english_stem'", "'0'"), s(), s(), s()),
                of("c_regcollation", "regcollation", null, rows("'\"C\"'", "'\"POSIX\"'", "'0'"), s(), s(), s()));
    }

    /** A composite type of its own, and more arrays. */
    private static List<TypeCase> compositeAndArrays() {
        return List.of(
                of(
                        "c_pair",
                        "pair",
                        null,
                        rows("ROW(1, 'a b')", "ROW(NULL, '')", "ROW(-2147483648, '\"q\",(x)')"),
                        s(),
                        s(),
                        s()),
                of(
                        "c_uuid_array",
                        "uuid[]",
                        "io.debezium.data.Uuid",
                        rows(
                                "'{00000000-0000-0000-0000-000000000000,NULL}'",
                                "'{}'",
                                "'{ffffffff-ffff-ffff-ffff-ffffffffffff}'"),
                        Arrays.asList("00000000-0000-0000-0000-000000000000", null),
                        List.of(),
                        List.of("ffffffff-ffff-ffff-ffff-ffffffffffff")),
                of(
                        "c_bool_array",
                        "boolean[]",
                        null,
                        rows("'{t,f,NULL}'", "'{}'", "'{true}'"),
                        Arrays.asList(true, false, null),
                        List.of(),
                        List.of(true)));
    }

    private static Object s() {
        return SERVER_TEXT;
    }
}

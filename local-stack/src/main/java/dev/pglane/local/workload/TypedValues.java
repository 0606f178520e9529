package dev.pglane.local.workload;

/**
 * SQL for the {@code typed} table of {@link WorkloadSchema}: values the server draws at random, so that every row
 * differs, with the special values (NaN, infinities, empty arrays, NULL) mixed in now and then.
 */
public final class TypedValues {
    /** The table's columns, {@code id} first, in the order of {@link #DRAWN}: {@code CREATE TABLE t (COLUMNS)}. */
    public static final String COLUMNS = "id bigint PRIMARY KEY, c_numeric numeric(12,3), c_any numeric,"
            + " c_float double precision, c_real real, c_ts timestamp, c_tstz timestamptz, c_date date,"
            + " c_time time, c_interval interval, c_json jsonb, c_bytea bytea, c_uuid uuid,"
            + " c_ints integer[], c_texts text[], c_inet inet, c_bool boolean, c_range int4range,"
            + " c_point point, c_bits bit varying(16), c_money money";

    /** The values of every column after {@code id}, in table order. */
    public static final String DRAWN = String.join(
            ", ",
            "CASE WHEN random() < 0.1 THEN 'NaN'::numeric ELSE round((random() * 1e8)::numeric, 3) END",
            "CASE WHEN random() < 0.1 THEN 'Infinity'::numeric ELSE (random() * 1e20)::numeric / 7 END",
            "CASE WHEN random() < 0.1 THEN '-Infinity'::float8 WHEN random() < 0.1 THEN 'NaN'::float8"
                    + " ELSE random() * 1e300 END",
            "random()::real",
            "CASE WHEN random() < 0.05 THEN 'infinity'::timestamp"
                    + " ELSE localtimestamp - random() * interval '3000 days' END",
            "now() - random() * interval '100000 days'",
            "current_date - (random() * 100000)::integer",
            "(time '00:00' + random() * interval '24 hours')::time",
            "make_interval(months => (random() * 30)::integer, days => (random() * 60)::integer,"
                    + " secs => random() * 100000)",
            "jsonb_build_object('n', random(), 'tags', jsonb_build_array('a', 'b'), 'text', md5(random()::text))",
            "decode(md5(random()::text), 'hex')",
            "md5(random()::text)::uuid",
            "CASE WHEN random() < 0.1 THEN '{}'::integer[]"
                    + " ELSE ARRAY[(random() * 100)::integer, NULL, (random() * -100)::integer] END",
            "ARRAY['plain', 'with \"quotes\"', 'with,comma', md5(random()::text)]",
            "('10.' || (random() * 255)::integer || '.0.' || (random() * 255)::integer || '/32')::inet",
            "CASE WHEN random() < 0.2 THEN NULL ELSE random() < 0.5 END",
            "int4range((random() * 100)::integer, 100 + (random() * 100)::integer)",
            "point(random() * 100, random() * -100)",
            "((random() * 65535)::integer::bit(16))::varbit",
            "(random() * 10000)::numeric::money");

    /** A SET list that changes some columns of a row and leaves the others. */
    public static final String UPDATED = "c_numeric = 1.5, c_json = c_json || jsonb_build_object('updated', now()),"
            + " c_ints = c_ints || 7, c_tstz = clock_timestamp(), c_bool = NOT c_bool";

    private TypedValues() {}
}

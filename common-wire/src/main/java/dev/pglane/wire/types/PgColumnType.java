package dev.pglane.wire.types;

import java.util.List;
import java.util.Objects;

/**
 * What pglane knows about a column's PostgreSQL type: enough to choose its Connect schema and to
 * recreate the column on a target.
 *
 * <p>Built-in types need only their OID and typmod ({@link #of(int, int)}); the source resolves
 * types created by users or extensions from the catalog once per relation and describes them with
 * {@link #named}, {@link #enumType} or {@link #domain}.
 *
 * @param oid the type's OID ({@code atttypid})
 * @param name {@code pg_type.typname}, e.g. {@code int4}, {@code _int4}, {@code hstore}
 * @param typmod the column's type modifier ({@code atttypmod}), -1 if none
 * @param formatted {@code format_type(oid, typmod)}, e.g. {@code numeric(10,2)} or {@code integer[]}
 * @param element for arrays the element type (carrying the column's typmod), else {@code null}
 * @param base for domains the base type (carrying the domain's typmod), else {@code null}
 * @param enumLabels for enum types the labels in sort order, else empty
 */
public record PgColumnType(
        int oid,
        String name,
        int typmod,
        String formatted,
        PgColumnType element,
        PgColumnType base,
        List<String> enumLabels) {

    public PgColumnType {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(formatted, "formatted");
        enumLabels = enumLabels == null ? List.of() : List.copyOf(enumLabels);
        if (element != null && base != null) {
            throw new IllegalArgumentException("type " + name + " cannot be both an array and a domain");
        }
    }

    /**
     * A built-in type or an array of one, from the OID and typmod of a pgoutput Relation message.
     *
     * @throws IllegalArgumentException if {@code oid} is not a built-in type pglane knows; use
     *     {@link #named} for those after a catalog lookup
     */
    public static PgColumnType of(int oid, int typmod) {
        PgType type = PgType.byOid(oid);
        if (type != null) {
            return new PgColumnType(oid, type.typname(), typmod, TypeModifiers.format(type, typmod), null, null, null);
        }
        PgType elementType = PgType.byArrayOid(oid);
        if (elementType != null) {
            return arrayOf(oid, of(elementType.oid(), typmod));
        }
        throw new IllegalArgumentException("OID " + oid + " is not a built-in type; describe it with named()");
    }

    /** The built-in {@code type} with modifier {@code typmod}. */
    public static PgColumnType of(PgType type, int typmod) {
        return of(type.oid(), typmod);
    }

    /** Any other type (extension types, ranges of user types, ...), as the catalog describes it. */
    public static PgColumnType named(int oid, String name, int typmod, String formatted) {
        return new PgColumnType(oid, name, typmod, formatted, null, null, null);
    }

    /** An array type over {@code element}; its name is PostgreSQL's {@code _<element>}. */
    public static PgColumnType arrayOf(int arrayOid, PgColumnType element) {
        return new PgColumnType(
                arrayOid, "_" + element.name(), element.typmod(), element.formatted() + "[]", element, null, null);
    }

    /** An enum type with its labels in sort order. */
    public static PgColumnType enumType(int oid, String name, String formatted, List<String> labels) {
        if (labels == null || labels.isEmpty()) {
            throw new IllegalArgumentException("enum type " + name + " needs its labels");
        }
        return new PgColumnType(oid, name, -1, formatted, null, null, labels);
    }

    /** A domain over {@code base}; it travels as its base type. */
    public static PgColumnType domain(int oid, String name, String formatted, PgColumnType base) {
        return new PgColumnType(oid, name, -1, formatted, null, Objects.requireNonNull(base, "base"), null);
    }

    public boolean isArray() {
        return element != null;
    }

    public boolean isDomain() {
        return base != null;
    }

    public boolean isEnum() {
        return !enumLabels.isEmpty();
    }

    /** The built-in type this is, or {@code null} for arrays, domains, enums and extension types. */
    public PgType builtin() {
        return isArray() || isDomain() ? null : PgType.byOid(oid);
    }

    /** This type with domains resolved to their base type, repeatedly. */
    public PgColumnType resolved() {
        PgColumnType t = this;
        while (t.base != null) {
            t = t.base;
        }
        return t;
    }
}

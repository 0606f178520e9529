package dev.pglane.wire;

/**
 * Connect schema names that stay valid Avro full names.
 *
 * <p>Avro converters turn a Connect schema name into a record's namespace and name, and Avro allows
 * only {@code [A-Za-z_][A-Za-z0-9_]*} between the dots. Table and schema names come from PostgreSQL
 * and may contain anything, so each dot-separated part is rewritten: every other character becomes
 * {@code _}, and a part that is empty or starts with a digit gets a leading {@code _}. The rewrite is
 * deterministic, so both connectors derive the same name from the same table.
 */
public final class SchemaNames {

    private SchemaNames() {}

    /** The row struct name, {@code <prefix>.<schema>.<table>.Value}. */
    public static String rowValue(String prefix, String schema, String table) {
        return fullName(prefix, schema, table, "Value");
    }

    /**
     * Joins the parts with dots after making each a valid Avro name; dots inside a part (e.g. in a
     * topic prefix) separate namespace components and are kept.
     */
    public static String fullName(String... parts) {
        StringBuilder out = new StringBuilder();
        for (String part : parts) {
            for (String component : part.split("\\.", -1)) {
                if (out.length() > 0) {
                    out.append('.');
                }
                out.append(avroName(component));
            }
        }
        return out.toString();
    }

    /** One Avro name component: {@code [A-Za-z_][A-Za-z0-9_]*}. */
    public static String avroName(String component) {
        StringBuilder out = new StringBuilder(component.length() + 1);
        if (component.isEmpty() || Character.isDigit(component.charAt(0))) {
            out.append('_');
        }
        for (int i = 0; i < component.length(); i++) {
            char c = component.charAt(i);
            boolean legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
            out.append(legal ? c : '_');
        }
        return out.toString();
    }
}

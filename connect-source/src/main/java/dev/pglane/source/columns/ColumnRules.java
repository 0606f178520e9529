package dev.pglane.source.columns;

import dev.pglane.source.values.ColumnTreatment;
import dev.pglane.wire.types.Column;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Which columns leave the source connector, and how: every column of a table, or those {@code column.include.list}
 * names, less those {@code column.exclude.list} names; of those, the ones {@code column.mask.hash.list} names as a
 * salted SHA-256 (hex), the ones {@code column.mask.replace.list} names as a fixed text. Each list holds regular
 * expressions matched against the whole {@code schema.table.column}. Applied where a table's rows are described, so
 * that the stream and the snapshot alike never put an excluded or masked value in a record. A column of the table's
 * replica identity (what keys its rows on the target) can be neither left out nor masked; under {@code REPLICA
 * IDENTITY FULL}, where every column counts as the identity, the target's own key finds the rows, so any column
 * may.
 */
public final class ColumnRules {
    public static final ColumnRules NONE = new ColumnRules(List.of(), List.of(), List.of(), List.of(), "", "");

    private final List<Pattern> include;
    private final List<Pattern> exclude;
    private final List<Pattern> hash;
    private final List<Pattern> replace;
    private final byte[] salt;
    private final String replacement;

    /**
     * @param salt what every hashed value is prefixed with before hashing; keep it secret, or a value can be found
     *     by hashing guesses
     */
    public ColumnRules(
            List<String> include,
            List<String> exclude,
            List<String> hash,
            List<String> replace,
            String salt,
            String replacement) {
        this.include = compile(include);
        this.exclude = compile(exclude);
        this.hash = compile(hash);
        this.replace = compile(replace);
        this.salt = salt.getBytes(StandardCharsets.UTF_8);
        this.replacement = replacement;
    }

    private static List<Pattern> compile(List<String> regexes) {
        return regexes.stream().map(Pattern::compile).toList();
    }

    /**
     * The treatment of each of {@code columns} of {@code schema.table}, in their order.
     *
     * @param identityFull the table has {@code REPLICA IDENTITY FULL}
     * @throws IllegalStateException if a rule would leave out or mask a column of the replica identity
     */
    public List<ColumnTreatment> treatments(String schema, String table, List<Column> columns, boolean identityFull) {
        List<ColumnTreatment> treatments = new ArrayList<>(columns.size());
        for (Column column : columns) {
            ColumnTreatment treatment = treatment(schema + "." + table + "." + column.name());
            if (column.key() && !identityFull && treatment != ColumnTreatment.KEEP) {
                throw new IllegalStateException("column " + column.name() + " of " + schema + "." + table
                        + " is part of the table's replica identity, which keys its rows for every consumer: the"
                        + " column rules (column.include.list, column.exclude.list, column.mask.*) may neither"
                        + " leave it out nor mask it");
            }
            treatments.add(treatment);
        }
        return treatments;
    }

    /** Whether the rules keep {@code schema.table.column} out of every record. */
    public boolean excludes(String schema, String table, String column) {
        return treatment(schema + "." + table + "." + column).excluded();
    }

    private ColumnTreatment treatment(String qualified) {
        if ((!include.isEmpty() && !matches(include, qualified)) || matches(exclude, qualified)) {
            return ColumnTreatment.EXCLUDE;
        }
        if (matches(hash, qualified)) {
            return ColumnTreatment.masked(this::hash);
        }
        if (matches(replace, qualified)) {
            return ColumnTreatment.masked(text -> replacement);
        }
        return ColumnTreatment.KEEP;
    }

    private static boolean matches(List<Pattern> patterns, String qualified) {
        for (Pattern pattern : patterns) {
            if (pattern.matcher(qualified).matches()) {
                return true;
            }
        }
        return false;
    }

    /** The salted SHA-256 of {@code text}, as lower-case hex. */
    private String hash(String text) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256"); // one per value: the decoder lanes call it at once
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
        digest.update(salt);
        return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}

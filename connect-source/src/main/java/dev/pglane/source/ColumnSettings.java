package dev.pglane.source;

import static org.apache.kafka.common.config.ConfigDef.Importance.HIGH;
import static org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM;
import static org.apache.kafka.common.config.ConfigDef.Type.BOOLEAN;
import static org.apache.kafka.common.config.ConfigDef.Type.LIST;
import static org.apache.kafka.common.config.ConfigDef.Type.PASSWORD;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

import dev.pglane.connect.config.ConfigGroup;
import dev.pglane.connect.config.RegexList;
import dev.pglane.source.columns.ColumnRules;
import dev.pglane.source.columns.PublishedColumns;
import java.util.List;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The keys that keep columns out of the records or mask them ({@link ColumnRules}): their docs, defaults and
 * validators, defined into {@link PgSourceConfig#CONFIG_DEF}.
 */
public final class ColumnSettings {
    static final String GROUP = "Columns";
    private static final String MATCHED = " Regular expressions, each matched against the whole schema.table.column.";

    public static final String COLUMN_INCLUDE_LIST = "column.include.list";
    static final String COLUMN_INCLUDE_LIST_DOC = "Only these columns leave the connector, in the stream and in the"
            + " snapshot; empty: every column." + MATCHED + " A column of a table's replica identity (its primary key"
            + " by default) must stay: the task stops naming it otherwise. Cannot be combined with column.exclude.list.";

    public static final String COLUMN_EXCLUDE_LIST = "column.exclude.list";
    static final String COLUMN_EXCLUDE_LIST_DOC = "These columns never leave the connector: no record or snapshot chunk"
            + " carries them, and pglane's sink leaves them as they are on the target." + MATCHED + " A column of a"
            + " table's replica identity cannot be excluded (under REPLICA IDENTITY FULL any column can).";

    public static final String COLUMN_MASK_HASH_LIST = "column.mask.hash.list";
    static final String COLUMN_MASK_HASH_LIST_DOC = "These columns leave the connector as the lower-case hex SHA-256"
            + " of column.mask.hash.salt followed by their text (a string field whatever their type), so equal values"
            + " stay equal and can still be joined on, but cannot be read." + MATCHED + " Requires the salt.";

    public static final String COLUMN_MASK_HASH_SALT = "column.mask.hash.salt";
    static final String COLUMN_MASK_HASH_SALT_DOC = "The secret prefixed to a value before column.mask.hash.list's"
            + " columns are hashed: without it, a value could be found by hashing guesses.";

    public static final String COLUMN_MASK_REPLACE_LIST = "column.mask.replace.list";
    static final String COLUMN_MASK_REPLACE_LIST_DOC = "These columns leave the connector as column.mask.replacement"
            + " (a string field whatever their type); a null stays null." + MATCHED;

    public static final String COLUMN_MASK_REPLACEMENT = "column.mask.replacement";
    static final String COLUMN_MASK_REPLACEMENT_DOC = "The text that stands for column.mask.replace.list's values.";
    static final String COLUMN_MASK_REPLACEMENT_DEFAULT = "****";

    public static final String PUBLICATION_COLUMN_LISTS = "publication.column.lists";
    static final String PUBLICATION_COLUMN_LISTS_DOC = "PostgreSQL 15 and later: a publication pglane creates, or"
            + " a table it adds to one, names the columns each table publishes, without those column.include.list and"
            + " column.exclude.list keep out, so that their values never leave the server. The replica identity and"
            + " masked columns stay; tables under REPLICA IDENTITY FULL publish every column. A column added to such a"
            + " table later is published only once the included-tables watch (every 5 s) has renewed the table's"
            + " list, and a WARN names it: its values in changes made in between are not sent.";

    private ColumnSettings() {}

    static void define(ConfigGroup group) {
        group.key(COLUMN_INCLUDE_LIST, "Columns to include", Width.LONG)
                .define(LIST, "", new RegexList(), HIGH, COLUMN_INCLUDE_LIST_DOC);
        group.key(COLUMN_EXCLUDE_LIST, "Columns to exclude", Width.LONG)
                .define(LIST, "", new RegexList(), HIGH, COLUMN_EXCLUDE_LIST_DOC);
        group.key(COLUMN_MASK_HASH_LIST, "Columns to hash", Width.LONG)
                .define(LIST, "", new RegexList(), HIGH, COLUMN_MASK_HASH_LIST_DOC);
        group.key(COLUMN_MASK_HASH_SALT, "Salt of hashed columns", Width.MEDIUM)
                .define(PASSWORD, null, null, HIGH, COLUMN_MASK_HASH_SALT_DOC);
        group.key(COLUMN_MASK_REPLACE_LIST, "Columns to replace", Width.LONG)
                .define(LIST, "", new RegexList(), HIGH, COLUMN_MASK_REPLACE_LIST_DOC);
        group.key(COLUMN_MASK_REPLACEMENT, "Replacement text", Width.SHORT)
                .define(STRING, COLUMN_MASK_REPLACEMENT_DEFAULT, null, MEDIUM, COLUMN_MASK_REPLACEMENT_DOC);
        group.key(PUBLICATION_COLUMN_LISTS, "Publication column lists", Width.SHORT)
                .define(BOOLEAN, false, null, MEDIUM, PUBLICATION_COLUMN_LISTS_DOC);
    }

    /** The column lists of the tables pglane publishes ({@link #PUBLICATION_COLUMN_LISTS}). */
    public static PublishedColumns publishedColumns(AbstractConfig config) {
        return new PublishedColumns(rules(config), config.getBoolean(PUBLICATION_COLUMN_LISTS));
    }

    /**
     * The column rules {@code config} sets.
     *
     * @throws ConfigException if columns are to be hashed without a salt
     */
    public static ColumnRules rules(AbstractConfig config) {
        String salt = salt(config.getPassword(COLUMN_MASK_HASH_SALT));
        List<String> hashed = config.getList(COLUMN_MASK_HASH_LIST);
        if (!hashed.isEmpty() && salt.isEmpty()) {
            throw new ConfigException(COLUMN_MASK_HASH_SALT, "(hidden)", "required with " + COLUMN_MASK_HASH_LIST);
        }
        return new ColumnRules(
                config.getList(COLUMN_INCLUDE_LIST),
                config.getList(COLUMN_EXCLUDE_LIST),
                hashed,
                config.getList(COLUMN_MASK_REPLACE_LIST),
                salt,
                config.getString(COLUMN_MASK_REPLACEMENT));
    }

    /** The salt's text; empty when none is set. */
    public static String salt(Password salt) {
        return salt == null ? "" : salt.value();
    }
}

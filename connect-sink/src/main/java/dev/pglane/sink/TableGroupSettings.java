package dev.pglane.sink;

import static org.apache.kafka.common.config.ConfigDef.Importance.HIGH;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

import dev.pglane.connect.config.ConfigGroup;
import dev.pglane.connect.config.EnumChoice;
import dev.pglane.sink.admit.ApplyScope;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The key that makes a sink apply a table group, a share of each source transaction, defined into {@link
 * PgSinkConfig#CONFIG_DEF}'s input group.
 */
public final class TableGroupSettings {
    public static final String APPLY_SCOPE = "apply.scope";
    static final String APPLY_SCOPE_DOC = "Which part of each source transaction this sink applies. transaction: all"
            + " of it, so topics or topics.regex must take in every change topic of the source (a transaction waits"
            + " for its records on each topic its END counts, with a WARN after transaction.wait.warn.ms). consumed_"
            + "topics: the sink applies a table group, each transaction's share on the topics it consumes (topics or"
            + " topics.regex), atomically and in source commit order, and passes over the records on other topics,"
            + " which other sinks apply (the log names each topic passed over, once). Within a group every state a"
            + " reader of the target sees is one the source committed; a transaction that spans groups becomes"
            + " visible group by group.";
    static final EnumChoice<ApplyScope> SCOPES = EnumChoice.of(ApplyScope.class);
    static final String APPLY_SCOPE_DEFAULT = EnumChoice.valueOf(ApplyScope.TRANSACTION);

    private TableGroupSettings() {}

    static void define(ConfigGroup group) {
        group.key(APPLY_SCOPE, "Apply scope", Width.SHORT)
                .define(STRING, APPLY_SCOPE_DEFAULT, SCOPES, HIGH, APPLY_SCOPE_DOC);
    }

    static ApplyScope scope(PgSinkConfig config) {
        return SCOPES.parse(config.getString(APPLY_SCOPE));
    }

    /** The scope, from a parsed config or from the values of a validation. */
    public static ApplyScope scope(Function<String, Object> parsed) {
        return SCOPES.parse((String) parsed.apply(APPLY_SCOPE));
    }
}

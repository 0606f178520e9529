package dev.pglane.sink;

import static org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

import dev.pglane.connect.config.ConfigGroup;
import dev.pglane.connect.config.EnumChoice;
import dev.pglane.sink.target.ForeignTriggers;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The key of the sink's configuration about target tables whose triggers would run with a superuser's rights, defined
 * into {@link PgSinkConfig#CONFIG_DEF}'s tables group.
 */
public final class TriggerSettings {
    public static final String APPLY_FOREIGN_TRIGGERS = "apply.foreign.triggers";
    static final String APPLY_FOREIGN_TRIGGERS_DOC = "What the sink does, when its role is a superuser, about a target"
            + " table owned by a role that is not, which has triggers enabled ALWAYS or REPLICA: they fire while the"
            + " sink applies (session_replication_role=replica) and run with the sink's rights, so that table's owner"
            + " could act as a superuser. warn: a WARN once per table naming owner and triggers; refuse: the task"
            + " stops with that message before it writes to the table.";
    static final EnumChoice<ForeignTriggers.Policy> POLICIES = EnumChoice.of(ForeignTriggers.Policy.class);
    static final String APPLY_FOREIGN_TRIGGERS_DEFAULT = EnumChoice.valueOf(ForeignTriggers.Policy.WARN);

    private TriggerSettings() {}

    static void define(ConfigGroup group) {
        group.key(APPLY_FOREIGN_TRIGGERS, "Triggers of other owners", Width.SHORT)
                .define(STRING, APPLY_FOREIGN_TRIGGERS_DEFAULT, POLICIES, MEDIUM, APPLY_FOREIGN_TRIGGERS_DOC);
    }

    static ForeignTriggers.Policy policy(PgSinkConfig config) {
        return POLICIES.parse(config.getString(APPLY_FOREIGN_TRIGGERS));
    }
}

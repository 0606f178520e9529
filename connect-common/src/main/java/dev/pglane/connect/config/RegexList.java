package dev.pglane.connect.config;

import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** Validates a list key whose entries are Java regular expressions, naming the entry that does not compile. */
public final class RegexList implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
        if (!(value instanceof List<?> entries)) {
            return;
        }
        for (Object entry : entries) {
            try {
                Pattern.compile(entry.toString());
            } catch (PatternSyntaxException e) {
                // The entry, not the whole list, is the value the user has to fix.
                throw new ConfigException(name, entry, "not a valid regular expression: " + e.getDescription());
            }
        }
    }

    @Override
    public String toString() {
        return "comma-separated Java regular expressions, each matched against the whole schema.table";
    }
}

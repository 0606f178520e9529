package dev.pglane.connect.logging;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * What pglane logs (through SLF4J, backed by log4j in the tests) while it is open, so a test can assert on warnings
 * and on what must never appear in a log. Every logger's events of INFO and up are kept, whatever the configuration
 * said before; closing restores it.
 */
public final class LogCapture implements AutoCloseable {
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
    private final LoggerConfig root = context.getConfiguration().getRootLogger();
    private final Level previousLevel = root.getLevel();
    private final AbstractAppender appender;

    private LogCapture() {
        appender = new AbstractAppender("pglane-log-capture", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                Throwable thrown = event.getThrown();
                lines.add(event.getLevel() + " " + event.getLoggerName() + " "
                        + event.getMessage().getFormattedMessage()
                        + (thrown == null ? "" : " " + thrown));
            }
        };
        appender.start();
        root.addAppender(appender, Level.INFO, null);
        root.setLevel(Level.INFO);
        context.updateLoggers();
    }

    public static LogCapture start() {
        return new LogCapture();
    }

    /** Every captured line: level, logger, message (and the exception, if any). */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** The captured WARN lines. */
    public List<String> warnings() {
        return lines.stream().filter(l -> l.startsWith("WARN ")).toList();
    }

    @Override
    public void close() {
        root.removeAppender(appender.getName());
        root.setLevel(previousLevel);
        context.updateLoggers();
        appender.stop();
    }
}

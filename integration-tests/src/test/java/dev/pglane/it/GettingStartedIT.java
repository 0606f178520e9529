package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.it.LocalScript.Result;
import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.Endpoints;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The getting-started guide, followed to the letter: its {@code bash} blocks run as they stand, with only the
 * environment the guide asks for, against a local stack whose source already holds rows and takes changes while
 * they run. The stack runs PostgreSQL 15 because the machines' own {@code pg_dump} (the guide's step 1) is 15's, and
 * pg_dump refuses a newer server.
 */
@Timeout(value = 400, unit = TimeUnit.SECONDS)
class GettingStartedIT {
    private static final Path GUIDE = LocalScript.REPO.resolve("docs/getting-started.md");
    private static final Pattern BASH_BLOCK = Pattern.compile("(?ms)^```bash\\n(.*?)^```$");
    private static final Pattern VALIDATION = Pattern.compile("\"error_count\":(\\d+)");

    @RegisterExtension
    final LocalScript script = LocalScript.inNewHome();

    @Test
    @DisplayName("the guide's commands copy the schema, validate, create both connectors; the existing rows and the"
            + " changes made meanwhile reach the target, and the sink logs the snapshot complete")
    void theGuidesCommandsReplicateAnExistingDatabase() throws Exception {
        Result up = script.run(200, "up", "--no-connectors", "--pg-version", "15");
        assertEquals(0, up.exitCode(), up::output);
        Endpoints endpoints = Endpoints.read(script.home().resolve("endpoints.json"));
        SqlSession.execute(
                endpoints.sourceJdbcUrl(),
                "CREATE SCHEMA shop;"
                        + " CREATE TABLE shop.customers (id bigint PRIMARY KEY, name text NOT NULL, since date);"
                        + " CREATE TABLE shop.orders (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                        + "   customer bigint NOT NULL REFERENCES shop.customers, total numeric(12,2), note jsonb);"
                        + " INSERT INTO shop.customers SELECT g, 'customer ' || g, date '2026-01-01' + g % 300"
                        + "   FROM generate_series(1, 2000) g;"
                        + " INSERT INTO shop.orders (customer, total, note)"
                        + "   SELECT 1 + g % 2000, g * 1.25, jsonb_build_object('n', g) FROM generate_series(1, 5000) g");

        String commands = bashBlocks(Files.readString(GUIDE));
        Path file = script.home().resolve("getting-started.sh");
        Files.writeString(file, commands);
        Result guide;
        try (Connection source = DriverManager.getConnection(endpoints.sourceJdbcUrl())) {
            guide = script.start(
                    180,
                    List.of("bash", "-euo", "pipefail", file.toString()),
                    guideEnvironment(endpoints),
                    LocalScript.REPO);
            // changes while the snapshot runs (or after it): streamed, in commit order, after the copied rows
            try (Statement statement = source.createStatement()) {
                statement.execute("UPDATE shop.customers SET name = name || ' (renamed)' WHERE id % 7 = 0");
                statement.execute("DELETE FROM shop.orders WHERE id % 11 = 0");
                statement.execute("INSERT INTO shop.orders (customer, total) VALUES (1, 9.99), (2, 19.99)");
            }
        }
        assertEquals(0, guide.exitCode(), guide::output);
        assertEquals(List.of("0", "0"), validationErrors(guide.output()), guide::output);
        ConnectRestClient rest = new ConnectRestClient(endpoints.connectRestUrl());
        for (String connector : List.of("pglane-sink", "pglane-source")) {
            rest.awaitConnectorRunning(connector, Duration.ofSeconds(60));
            assertTrue(guide.output().contains("\"" + connector + "\""), guide::output);
        }

        // the local stack's own commands find the connectors the guide created
        Result status = script.run(60, "status");
        assertEquals(0, status.exitCode(), status::output);
        assertTrue(status.output().contains("pglane-sink: connector RUNNING"), status::output);
        Result verify = script.run(200, "verify", "--wait-for-catch-up=180");
        assertEquals(0, verify.exitCode(), () -> verify.output() + "\n" + script.logTail());
        assertTrue(verify.output().contains("shop.customers: equal"), verify::output);
        assertTrue(verify.output().contains("shop.orders: equal"), verify::output);
        String log = Files.readString(script.home().resolve("stack.log"));
        assertTrue(
                Pattern.compile("Snapshot \\S+ complete on the target")
                        .matcher(log)
                        .find(),
                "the sink never logged the snapshot complete");
    }

    /** Every {@code bash} block of the guide, in order: one script. */
    static String bashBlocks(String markdown) {
        StringBuilder script = new StringBuilder();
        Matcher block = BASH_BLOCK.matcher(markdown);
        while (block.find()) {
            script.append(block.group(1)).append('\n');
        }
        assertTrue(script.length() > 0, "no bash block in " + GUIDE);
        return script.toString();
    }

    /** The environment the guide's "before you start" asks for, pointing at the stack. */
    private static Map<String, String> guideEnvironment(Endpoints endpoints) {
        Map<String, String> environment = new HashMap<>();
        putDatabase(environment, "SOURCE", endpoints.sourceJdbcUrl());
        putDatabase(environment, "TARGET", endpoints.targetJdbcUrl());
        environment.put("CONNECT_URL", endpoints.connectRestUrl());
        return environment;
    }

    private static void putDatabase(Map<String, String> environment, String side, String jdbcUrl) {
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        environment.put("PGLANE_" + side + "_HOST", uri.getHost());
        environment.put("PGLANE_" + side + "_PORT", Integer.toString(uri.getPort()));
        environment.put("PGLANE_" + side + "_DB", uri.getPath().substring(1));
        for (String parameter : uri.getQuery().split("&")) {
            String[] pair = parameter.split("=", 2);
            if (pair[0].equals("user") || pair[0].equals("password")) {
                environment.put("PGLANE_" + side + "_" + pair[0].toUpperCase(Locale.ROOT), pair[1]);
            }
        }
    }

    private static List<String> validationErrors(String output) {
        Matcher count = VALIDATION.matcher(output);
        List<String> counts = new ArrayList<>();
        while (count.find()) {
            counts.add(count.group(1));
        }
        return counts;
    }
}

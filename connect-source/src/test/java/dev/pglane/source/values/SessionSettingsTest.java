package dev.pglane.source.values;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The options string is accepted by pgjdbc and PostgreSQL and sets what the decoders rely on. */
class SessionSettingsTest {

    private static PgTextServer server;

    @BeforeAll
    static void start() {
        server = PgTextServer.start();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void optionsSetEverySettingTheDecodersReadWith() throws Exception {
        Map<String, String> expected = Map.of(
                "DateStyle", "ISO, MDY",
                "IntervalStyle", "iso_8601",
                "extra_float_digits", "3",
                "lc_monetary", "C",
                "bytea_output", "hex");
        try (Connection c = server.connect(SessionSettings.OPTIONS);
                Statement st = c.createStatement()) {
            for (Map.Entry<String, String> setting : expected.entrySet()) {
                try (ResultSet rs = st.executeQuery("SHOW " + setting.getKey())) {
                    rs.next();
                    assertEquals(setting.getValue(), rs.getString(1), setting.getKey());
                }
            }
        }
    }
}

package dev.pglane.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SlotSetupTest {
    private static EmbeddedPostgres server;

    @BeforeAll
    static void startServer() throws IOException {
        server = EmbeddedPostgres.builder()
                .setServerConfig("wal_level", "logical")
                .start();
    }

    @AfterAll
    static void stopServer() throws IOException {
        server.close();
    }

    @Test
    void createsTheSlotOnceAndReadsItsConfirmedPosition() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            Lsn created = SlotSetup.ensure(c, "setup_slot");
            assertTrue(created.isValid());
            st.execute("CREATE TABLE t (id int)");
            assertEquals(created, SlotSetup.ensure(c, "setup_slot"), "the existing slot is reused, not moved");
        }
    }

    @Test
    void aSlotThatIsNotLogicalPgoutputIsAnError() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            st.execute("SELECT pg_create_physical_replication_slot('physical_slot')");
            ConnectException e = assertThrows(ConnectException.class, () -> SlotSetup.ensure(c, "physical_slot"));
            assertTrue(e.getMessage().contains("'physical_slot' is a physical slot"), e.getMessage());
        }
    }
}

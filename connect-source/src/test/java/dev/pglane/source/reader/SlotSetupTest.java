package dev.pglane.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.SlotRecreate;
import dev.pglane.wire.Lsn;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
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
            Lsn created = SlotSetup.ensure(c, "setup_slot", null, SlotRecreate.NEVER, "slot-test", false)
                    .confirmed();
            assertTrue(created.isValid());
            st.execute("CREATE TABLE t (id int)");
            assertEquals(
                    created,
                    SlotSetup.ensure(c, "setup_slot", null, SlotRecreate.NEVER, "slot-test", false)
                            .confirmed(),
                    "the existing slot is reused, not moved");
        }
    }

    @Test
    void aSlotThatIsNotLogicalPgoutputIsAnError() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            st.execute("SELECT pg_create_physical_replication_slot('physical_slot')");
            ConnectException e = assertThrows(
                    ConnectException.class,
                    () -> SlotSetup.ensure(c, "physical_slot", null, SlotRecreate.NEVER, "slot-test", false)
                            .confirmed());
            assertTrue(e.getMessage().contains("'physical_slot' is a physical slot"), e.getMessage());
        }
    }

    @Test
    void aMissingSlotUnderAStoredOffsetIsAnErrorThatSaysWhatWasLost() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection()) {
            ConnectException e = assertThrows(
                    ConnectException.class,
                    () -> SlotSetup.ensure(
                                    c, "vanished_slot", Lsn.parse("0/3000000"), SlotRecreate.NEVER, "slot-test", false)
                            .confirmed());
            assertTrue(
                    e.getMessage()
                            .startsWith("Replication slot 'vanished_slot' does not exist, but connector slot-test"
                                    + " has a stored offset at end LSN 0/3000000"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("slot.recreate=allow_gap"), e.getMessage());
            assertTrue(e.getMessage().contains("DELETE /connectors/slot-test/offsets"), e.getMessage());
            assertEquals(0, slots(c, "vanished_slot"), "nothing was created");

            Lsn created = SlotSetup.ensure(
                            c, "vanished_slot", Lsn.parse("0/3000000"), SlotRecreate.ALLOW_GAP, "slot-test", false)
                    .confirmed();
            assertTrue(created.isValid());
            assertEquals(1, slots(c, "vanished_slot"), "allow_gap creates it again");
        }
    }

    /** A slot the checkpointer invalidated because it held more WAL than max_slot_wal_keep_size allows. */
    @Test
    void anInvalidatedSlotIsRefusedOrReplaced() throws IOException, SQLException {
        try (EmbeddedPostgres small = EmbeddedPostgres.builder()
                        .setServerConfig("wal_level", "logical")
                        .setServerConfig("max_slot_wal_keep_size", "1MB")
                        .start();
                Connection c = small.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            Lsn before = SlotSetup.ensure(c, "held_slot", null, SlotRecreate.NEVER, "slot-test", false)
                    .confirmed();
            st.execute("CREATE TABLE filler (x text)");
            for (int i = 0; i < 3; i++) {
                st.execute("INSERT INTO filler SELECT repeat('x', 1000) FROM generate_series(1, 4000)");
                st.execute("SELECT pg_switch_wal()");
            }
            st.execute("CHECKPOINT");
            ConnectException e = assertThrows(
                    ConnectException.class,
                    () -> SlotSetup.ensure(c, "held_slot", before, SlotRecreate.NEVER, "slot-test", false)
                            .confirmed());
            assertTrue(
                    e.getMessage().startsWith("Replication slot 'held_slot' can no longer serve changes"),
                    e.getMessage());

            Lsn recreated = SlotSetup.ensure(c, "held_slot", before, SlotRecreate.ALLOW_GAP, "slot-test", false)
                    .confirmed();
            assertTrue(recreated.compareTo(before) > 0, recreated + " after " + before);
            assertEquals(
                    recreated,
                    SlotSetup.ensure(c, "held_slot", before, SlotRecreate.NEVER, "slot-test", false)
                            .confirmed(),
                    "a usable slot again");
        }
    }

    private static int slots(Connection c, String slot) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}

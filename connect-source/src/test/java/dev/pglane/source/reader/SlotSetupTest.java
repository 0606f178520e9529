package dev.pglane.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.source.SlotRecreate;
import dev.pglane.source.pgoutput.ProtocolVersion;
import dev.pglane.wire.Lsn;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
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
            Lsn created = SlotSetup.ensure(c, "setup_slot", null, SlotRecreate.NEVER, "slot-test", false, false)
                    .confirmed();
            assertTrue(created.isValid());
            st.execute("CREATE TABLE t (id int)");
            assertEquals(
                    created,
                    SlotSetup.ensure(c, "setup_slot", null, SlotRecreate.NEVER, "slot-test", false, false)
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
                    () -> SlotSetup.ensure(c, "physical_slot", null, SlotRecreate.NEVER, "slot-test", false, false)
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
                                    c,
                                    "vanished_slot",
                                    Lsn.parse("0/3000000"),
                                    SlotRecreate.NEVER,
                                    "slot-test",
                                    false,
                                    false)
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
                            c,
                            "vanished_slot",
                            Lsn.parse("0/3000000"),
                            SlotRecreate.ALLOW_GAP,
                            "slot-test",
                            false,
                            false)
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
            Lsn before = SlotSetup.ensure(c, "held_slot", null, SlotRecreate.NEVER, "slot-test", false, false)
                    .confirmed();
            st.execute("CREATE TABLE filler (x text)");
            for (int i = 0; i < 3; i++) {
                st.execute("INSERT INTO filler SELECT repeat('x', 1000) FROM generate_series(1, 4000)");
                st.execute("SELECT pg_switch_wal()");
            }
            st.execute("CHECKPOINT");
            ConnectException e = assertThrows(
                    ConnectException.class,
                    () -> SlotSetup.ensure(c, "held_slot", before, SlotRecreate.NEVER, "slot-test", false, false)
                            .confirmed());
            assertTrue(
                    e.getMessage().startsWith("Replication slot 'held_slot' can no longer serve changes"),
                    e.getMessage());

            Lsn recreated = SlotSetup.ensure(c, "held_slot", before, SlotRecreate.ALLOW_GAP, "slot-test", false, false)
                    .confirmed();
            assertTrue(recreated.compareTo(before) > 0, recreated + " after " + before);
            assertEquals(
                    recreated,
                    SlotSetup.ensure(c, "held_slot", before, SlotRecreate.NEVER, "slot-test", false, false)
                            .confirmed(),
                    "a usable slot again");
        }
    }

    /**
     * slot.failover on PostgreSQL 17: a missing slot is created as a failover slot; an existing plain one is made one
     * through the session's replication connection, and one that another walsender holds stays as it is, without
     * failing the session.
     */
    @Test
    void failoverSlotsAreCreatedSoOrMadeSoUnlessHeldElsewhere() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            assertTrue(FailoverSlot.offered(c), "PostgreSQL 17, a primary");
            SlotSetup.Slot created =
                    SlotSetup.ensure(c, "failover_new", null, SlotRecreate.NEVER, "slot-test", false, true);
            assertTrue(created.failover());
            assertTrue(failover(c, "failover_new"));

            st.execute("SELECT pg_create_logical_replication_slot('failover_plain', 'pgoutput')");
            SlotSetup.Slot plain =
                    SlotSetup.ensure(c, "failover_plain", null, SlotRecreate.NEVER, "slot-test", false, true);
            assertFalse(plain.failover(), "an existing slot is not created again");
            ReplicationConnection replication = ReplicationConnection.open(endpoint(), "slot-setup-test");
            try {
                FailoverSlot.align(c, replication, "failover_plain", plain, true);
                assertTrue(failover(c, "failover_plain"));
                FailoverSlot.align(
                        c, replication, "failover_plain", new SlotSetup.Slot(plain.confirmed(), false, true), false);
                assertFalse(failover(c, "failover_plain"), "slot.failover=false makes it a plain slot again");
            } finally {
                replication.abort();
            }

            st.execute("SELECT pg_create_logical_replication_slot('failover_held', 'pgoutput')");
            st.execute("CREATE PUBLICATION failover_pub FOR ALL TABLES");
            ReplicationConnection holder = ReplicationConnection.open(endpoint(), "slot-setup-test-holder");
            ReplicationConnection second = ReplicationConnection.open(endpoint(), "slot-setup-test-second");
            try {
                holder.start(new ReplicationConnection.StreamRequest(
                        "failover_held",
                        "failover_pub",
                        ProtocolVersion.forServer(170000),
                        false,
                        false,
                        OriginFilter.ANY,
                        Duration.ofSeconds(10),
                        Lsn.parse("0/0")));
                SlotSetup.Slot held =
                        SlotSetup.ensure(c, "failover_held", null, SlotRecreate.NEVER, "slot-test", false, true);
                FailoverSlot.align(c, second, "failover_held", held, true); // a WARN, no failure
                assertFalse(failover(c, "failover_held"), "a slot another walsender holds stays as it is");
            } finally {
                holder.abort();
                second.abort();
            }
        }
    }

    private static DatabaseEndpoint endpoint() {
        return ReplicationConnectionTest.endpointOf(server);
    }

    private static boolean failover(Connection c, String slot) throws SQLException {
        try (java.sql.PreparedStatement st =
                c.prepareStatement("SELECT failover FROM pg_replication_slots WHERE slot_name = ?")) {
            st.setString(1, slot);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
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

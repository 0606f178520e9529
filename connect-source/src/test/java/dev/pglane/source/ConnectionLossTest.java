package dev.pglane.source;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.sql.SQLException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;

class ConnectionLossTest {
    private static final SQLException SLOT_ACTIVE =
            new SQLException("replication slot \"shop\" is active for PID 4242", "55006");

    @Test
    void aSlotHeldByAnotherWalsenderIsRetriedAndToldApart() {
        RetriableException wrapped = new RetriableException("Cannot start replication", SLOT_ACTIVE);
        assertTrue(ConnectionLoss.isLost(wrapped));
        assertTrue(ConnectionLoss.slotHeldElsewhere(wrapped));
    }

    @Test
    void otherLossesAreNotASlotHeldElsewhere() {
        SQLException shutdown = new SQLException("terminating connection due to administrator command", "57P01");
        IOException reset = new IOException("Connection reset");
        assertTrue(ConnectionLoss.isLost(shutdown));
        assertTrue(ConnectionLoss.isLost(reset));
        assertFalse(ConnectionLoss.slotHeldElsewhere(shutdown));
        assertFalse(ConnectionLoss.slotHeldElsewhere(reset));
    }

    @Test
    void aBrokenConfigurationIsNoLoss() {
        SQLException wrongPassword = new SQLException("password authentication failed", "28P01");
        assertFalse(ConnectionLoss.isLost(wrongPassword));
        assertFalse(ConnectionLoss.slotHeldElsewhere(wrongPassword));
    }
}

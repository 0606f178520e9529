package dev.pglane.source.reader;

import dev.pglane.source.decode.StreamItem;
import java.sql.SQLException;

/**
 * Where the transaction tracker puts the items it makes, in stream order. The reader's sink may wait
 * for a full lane, answering the server meanwhile, hence the exceptions.
 */
@FunctionalInterface
public interface ItemSink {
    void add(StreamItem item) throws InterruptedException, SQLException;
}

package dev.pglane.source.decode;

import java.util.List;
import org.apache.kafka.connect.source.SourceRecord;

/** The work of a decoder lane: one batch of items in, one record per item out, in the same order. */
@FunctionalInterface
public interface BatchDecoder {
    List<SourceRecord> decode(List<StreamItem> batch);
}

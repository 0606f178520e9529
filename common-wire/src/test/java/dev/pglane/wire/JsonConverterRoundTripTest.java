package dev.pglane.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.EnvelopeSamples;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import dev.pglane.wire.marker.MarkerSamples;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/**
 * Keys, envelopes and markers survive Kafka's JsonConverter with schemas, the converter most
 * deployments start with.
 */
class JsonConverterRoundTripTest {

    private static Object roundTrip(Schema schema, Object value, boolean isKey) {
        JsonConverter converter = new JsonConverter();
        converter.configure(Map.of("schemas.enable", "true"), isKey);
        byte[] bytes = converter.fromConnectData("shop.public.orders", schema, value);
        SchemaAndValue back = converter.toConnectData("shop.public.orders", bytes);
        return back.value();
    }

    @Test
    void key() {
        Struct key = TransactionKey.of(Xid.MAX);
        Object back = roundTrip(key.schema(), key, true);
        assertEquals(key, back);
        assertEquals(Xid.MAX, TransactionKey.xid(back));
    }

    @Test
    void envelope() {
        ChangeEvent event = EnvelopeSamples.update();
        Struct struct = ChangeEnvelope.toStruct(event, EnvelopeSamples.ENVELOPE);
        Object back = roundTrip(struct.schema(), struct, false);
        assertEquals(struct, back);
        assertEquals(event, ChangeEnvelope.fromStruct(back));
    }

    @Test
    void markers() {
        for (Marker marker : MarkerSamples.all()) {
            Struct struct = MarkerCodec.toStruct(marker);
            assertEquals(marker, MarkerCodec.fromStruct(roundTrip(struct.schema(), struct, false)), marker.toString());
        }
    }
}

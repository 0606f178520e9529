package dev.pglane.connect.avro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayOutputStream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

class ReusedDatumReadersTest {
    private static Schema row(String name) {
        return SchemaBuilder.record(name)
                .fields()
                .requiredLong("id")
                .optionalString("note")
                .endRecord();
    }

    @Test
    void aSchemaKeepsItsReaderAndTheReaderReadsRecordAfterRecord() throws Exception {
        ReusedDatumReaders<Object> readers = new ReusedDatumReaders<>();
        Schema schema = row("r");
        DatumReader<Object> reader = readers.createDatumReader(schema);
        assertSame(reader, readers.createDatumReader(schema));
        for (long id = 1; id <= 3; id++) {
            GenericRecord read =
                    (GenericRecord) reader.read(null, DecoderFactory.get().binaryDecoder(bytes(schema, id), null));
            assertEquals(id, read.get("id"));
            assertEquals("note " + id, read.get("note").toString());
        }
    }

    @Test
    void schemasAreToldApartByIdentityAndTheCacheIsBounded() {
        ReusedDatumReaders<Object> readers = new ReusedDatumReaders<>();
        Schema one = row("r");
        Schema equalButOther = row("r");
        assertNotSame(readers.createDatumReader(one), readers.createDatumReader(equalButOther));
        for (int i = 0; i < ReusedDatumReaders.MAX_READERS + 10; i++) {
            readers.createDatumReader(row("r" + i));
        }
        assertEquals(12, readers.size(), "cleared when full, then filled again");
    }

    private static byte[] bytes(Schema schema, long id) throws Exception {
        GenericRecord record = new GenericData.Record(schema);
        record.put("id", id);
        record.put("note", "note " + id);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}

package dev.pglane.source.columns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.values.ColumnTreatment;
import dev.pglane.wire.types.Column;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColumnRulesTest {
    private static final List<Column> PEOPLE =
            List.of(column("id", true), column("name", false), column("email", false), column("ssn", false));

    private static Column column(String name, boolean key) {
        return new Column(name, PgColumnType.of(PgType.TEXT, -1), key);
    }

    private static ColumnRules rules(List<String> include, List<String> exclude, List<String> hash, String salt) {
        return new ColumnRules(include, exclude, hash, List.of("crm\\.people\\.name"), salt, "****");
    }

    @Test
    void excludedColumnsAreLeftOutAndMaskedOnesMaskedInTheirOrder() {
        List<ColumnTreatment> treatments = rules(List.of(), List.of(".*\\.ssn"), List.of("crm\\.people\\.email"), "s1")
                .treatments("crm", "people", PEOPLE, false);
        assertEquals(ColumnTreatment.KEEP, treatments.get(0));
        assertEquals("****", treatments.get(1).mask().apply("Ada"));
        assertTrue(treatments.get(2).masked());
        assertTrue(treatments.get(3).excluded());
        assertEquals(
                ColumnTreatment.KEEP,
                rules(List.of(), List.of(".*\\.ssn"), List.of(), "")
                        .treatments("crm", "other", PEOPLE, false)
                        .get(1),
                "the patterns match the whole schema.table.column");
    }

    @Test
    void anIncludeListLeavesOutEveryColumnItDoesNotName() {
        List<ColumnTreatment> treatments = rules(List.of("crm\\.people\\.(id|email)"), List.of(), List.of(), "")
                .treatments("crm", "people", PEOPLE, false);
        assertEquals(ColumnTreatment.KEEP, treatments.get(0));
        assertTrue(treatments.get(1).excluded(), "name is not included, so not even masked");
        assertEquals(ColumnTreatment.KEEP, treatments.get(2));
        assertTrue(treatments.get(3).excluded());
    }

    @Test
    void aHashIsTheSaltedSha256InHexEqualForEqualValues() {
        ColumnTreatment salted = rules(List.of(), List.of(), List.of(".*\\.email"), "s1")
                .treatments("crm", "people", PEOPLE, false)
                .get(2);
        String hash = salted.mask().apply("ada@example.com");
        assertEquals(
                "cf761930a9f52b078c96936206f22f11a8367e9fb6ad8eae46e5276a9fb9713f",
                hash,
                "printf 's1ada@example.com' | sha256sum");
        assertEquals(hash, salted.mask().apply("ada@example.com"));
        assertNotEquals(hash, salted.mask().apply("bob@example.com"));
        ColumnTreatment otherSalt = rules(List.of(), List.of(), List.of(".*\\.email"), "s2")
                .treatments("crm", "people", PEOPLE, false)
                .get(2);
        assertNotEquals(hash, otherSalt.mask().apply("ada@example.com"), "the salt is part of the hash");
    }

    @Test
    void aReplicaIdentityColumnCanNeitherBeLeftOutNorMaskedUnlessTheIdentityIsFull() {
        ColumnRules idOut = rules(List.of(), List.of(".*\\.id"), List.of(), "");
        IllegalStateException refused =
                assertThrows(IllegalStateException.class, () -> idOut.treatments("crm", "people", PEOPLE, false));
        assertTrue(
                refused.getMessage().startsWith("column id of crm.people is part of the table's replica identity"),
                refused.getMessage());
        assertTrue(idOut.treatments("crm", "people", PEOPLE, true).get(0).excluded(), "REPLICA IDENTITY FULL");
    }
}

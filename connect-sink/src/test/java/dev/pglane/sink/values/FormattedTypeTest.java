package dev.pglane.sink.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The format_type questions, on the texts PostgreSQL prints. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class FormattedTypeTest {

    @Test
    void bitFlagsButNotBitVarying() {
        assertTrue(new FormattedType("bit(1)").isBit());
        assertTrue(new FormattedType("bit(1)[]").element().isBit());
        assertFalse(new FormattedType("bit varying(1)").isBit());
        assertFalse(new FormattedType("boolean").isBit());
    }

    @Test
    void numericAndMoney() {
        assertTrue(new FormattedType("numeric(10,2)").isNumeric());
        assertTrue(new FormattedType("numeric").isNumeric());
        assertTrue(new FormattedType("money").isNumeric());
        assertFalse(new FormattedType("double precision").isNumeric());
    }

    @Test
    void hstoreQualifiedOrNot() {
        assertTrue(new FormattedType("hstore").isHstore());
        assertTrue(new FormattedType("ext.hstore").isHstore());
        assertTrue(new FormattedType("\"My Schema\".hstore[]").element().isHstore());
        assertFalse(new FormattedType("jsonb").isHstore());
    }

    @Test
    void boxIsTheOnlySemicolonDelimitedElement() {
        assertEquals(';', new FormattedType("box[]").element().arrayDelimiter());
        assertEquals(',', new FormattedType("point[]").element().arrayDelimiter());
    }

    @Test
    void missingParameterAnswersNo() {
        FormattedType none = new FormattedType(null);
        assertFalse(none.isBit() || none.isNumeric() || none.isHstore());
        assertEquals(none, none.element());
        assertEquals(',', none.arrayDelimiter());
    }
}

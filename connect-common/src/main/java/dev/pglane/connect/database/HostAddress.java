package dev.pglane.connect.database;

import java.util.regex.Pattern;

/**
 * What {@code database.host} may be: a host name as RFC 1123 defines it, an IPv4 address in dotted decimal, or an
 * IPv6 address with or without brackets. The rule is strict because the value goes to pgjdbc, which treats
 * {@code / ? # & = @ %} and commas as structure (a host such as {@code h/db?sslfactory=...} would set driver
 * properties, one with a comma would be a list of hosts); a strict rule also refuses the forms Java resolves
 * in surprising ways ({@code 1.2.3} is 1.2.0.3, {@code 0177.0.0.1} is not 177.0.0.1 everywhere).
 */
public final class HostAddress {
    /** The rule in words, completing "must be ..." in errors and the generated docs. */
    public static final String RULE = "a host name (labels of ASCII letters, digits, underscores and inner hyphens,"
            + " separated by dots, as RFC 1123 with the underscores of container names), an IPv4 address (four decimal numbers 0-255 without leading zeros) or an IPv6"
            + " address, with or without brackets (no zone id)";

    private static final int MAX_NAME_LENGTH = 253;
    /** RFC 1123's labels, and underscores, which DNS carries and Docker's generated names (db_1) use. */
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?");

    private static final Pattern DIGITS = Pattern.compile("[0-9]+");
    private static final String OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
    private static final Pattern IPV4 = Pattern.compile(OCTET + "(?:\\." + OCTET + "){3}");
    private static final Pattern HEX_GROUP = Pattern.compile("[0-9A-Fa-f]{1,4}");
    private static final int IPV6_GROUPS = 8;

    private HostAddress() {}

    public static boolean isValid(String host) {
        return host != null && (isIpv4(host) || isHostName(host) || isIpv6(unbracketed(host)));
    }

    /**
     * The host as pgjdbc is given it: an IPv6 address in brackets, the form pgjdbc's own URL parser hands on and its
     * host name check expects; anything else as it is.
     */
    public static String forDriver(String host) {
        return isIpv6(unbracketed(host)) ? "[" + unbracketed(host) + "]" : host;
    }

    private static boolean isIpv4(String host) {
        return IPV4.matcher(host).matches();
    }

    /**
     * RFC 1123 lets a label start with a digit, but not the last one: a name whose last label is a number can only
     * be a dotted-decimal address, which {@link #isIpv4} judges.
     */
    private static boolean isHostName(String host) {
        if (host.isEmpty() || host.length() > MAX_NAME_LENGTH) {
            return false;
        }
        String[] labels = host.split("\\.", -1);
        for (String label : labels) {
            if (!LABEL.matcher(label).matches()) {
                return false;
            }
        }
        return !DIGITS.matcher(labels[labels.length - 1]).matches();
    }

    private static String unbracketed(String host) {
        return host.length() > 2 && host.startsWith("[") && host.endsWith("]")
                ? host.substring(1, host.length() - 1)
                : host;
    }

    /** RFC 4291 text: eight hex groups, at most one {@code ::} standing for one or more zero groups, an IPv4 tail. */
    private static boolean isIpv6(String text) {
        int gap = text.indexOf("::");
        if (gap < 0) {
            return groups(text, true) == IPV6_GROUPS;
        }
        if (text.indexOf("::", gap + 1) >= 0) {
            return false;
        }
        String head = text.substring(0, gap);
        String tail = text.substring(gap + 2);
        int headGroups = head.isEmpty() ? 0 : groups(head, false);
        int tailGroups = tail.isEmpty() ? 0 : groups(tail, true);
        return headGroups >= 0 && tailGroups >= 0 && headGroups + tailGroups < IPV6_GROUPS;
    }

    /** How many 16-bit groups a run of colon-separated groups holds (an IPv4 tail counts two); -1 if malformed. */
    private static int groups(String run, boolean mayEndInIpv4) {
        String[] parts = run.split(":", -1);
        int count = 0;
        for (int i = 0; i < parts.length; i++) {
            boolean last = i == parts.length - 1;
            if (last && mayEndInIpv4 && isIpv4(parts[i])) {
                count += 2;
            } else if (HEX_GROUP.matcher(parts[i]).matches()) {
                count++;
            } else {
                return -1;
            }
        }
        return count;
    }
}

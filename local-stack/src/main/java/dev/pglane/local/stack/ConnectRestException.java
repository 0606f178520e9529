package dev.pglane.local.stack;

/** A Connect REST call answered with a status other than 2xx. */
public final class ConnectRestException extends RuntimeException {
    private final int status;
    private final String body;

    ConnectRestException(String request, int status, String body) {
        super(request + " answered " + status + ": " + body);
        this.status = status;
        this.body = body;
    }

    public int status() {
        return status;
    }

    public String body() {
        return body;
    }
}

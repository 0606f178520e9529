package dev.pglane.local.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The client's handling of Connect's 409 answers, against a local HTTP server that answers from a script. */
class ConnectRestClientTest {
    private static final String STALE =
            "{\"error_code\":409,\"message\":\"Cannot complete request momentarily due to stale configuration"
                    + " (typically caused by a concurrent config change)\"}";
    private static final String REBALANCE = "{\"error_code\":409,\"message\":\"Cannot complete request because of a"
            + " conflicting operation (e.g. worker rebalance)\"}";
    private static final String EXISTS = "{\"error_code\":409,\"message\":\"Connector sink already exists\"}";

    private final Deque<Answer> script = new ArrayDeque<>();
    private final AtomicInteger requests = new AtomicInteger();
    private HttpServer server;

    private record Answer(int status, String body) {}

    private ConnectRestClient client() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            Answer answer = script.size() > 1 ? script.poll() : script.peek();
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return new ConnectRestClient("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void aRestartRefusedDuringARebalanceIsAskedAgainUntilItIsTaken() throws IOException {
        script.add(new Answer(409, STALE));
        script.add(new Answer(409, REBALANCE));
        script.add(new Answer(204, ""));
        client().restartTask("sink", 0);
        assertEquals(3, requests.get());
    }

    @Test
    void aConflictThatIsAnAnswerFailsAtOnce() throws IOException {
        script.add(new Answer(409, EXISTS));
        ConnectRestClient client = client();
        ConnectRestException refused = assertThrows(ConnectRestException.class, () -> client.restartTask("sink", 0));
        assertEquals(409, refused.status());
        assertTrue(refused.getMessage().contains("already exists"), refused.getMessage());
        assertEquals(1, requests.get());
    }
}

package dev.pglane.local.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The proxy in front of an echo server: it forwards both ways, breaks live connections when cut, and heals. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TcpProxyTest {
    private ServerSocket echoServer;
    private TcpProxy proxy;

    @BeforeEach
    void startEchoServer() throws IOException {
        echoServer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::echoConnections, "echo-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        proxy = TcpProxy.start("127.0.0.1", echoServer.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echoServer.close();
    }

    @Test
    @DisplayName("bytes go to the server and its answer comes back")
    void forwardsBothWays() throws IOException {
        try (Socket client = connect()) {
            assertEquals("hello", roundTrip(client, "hello"));
            assertEquals("again", roundTrip(client, "again"));
            assertEquals(1, proxy.liveConnections());
        }
    }

    @Test
    @DisplayName("a cut ends live connections and refuses new ones until healed")
    void cutAndHeal() throws IOException {
        try (Socket before = connect()) {
            assertEquals("before", roundTrip(before, "before"));

            proxy.cut();

            assertClosed(before);
            assertEquals(0, proxy.liveConnections());
            try (Socket during = connect()) {
                assertClosed(during);
            }
            assertTrue(proxy.refusedConnections() >= 1, "connections refused while cut");

            proxy.heal();

            try (Socket after = connect()) {
                assertEquals("after", roundTrip(after, "after"));
            }
        }
    }

    /**
     * Latency, not a cap on throughput: chunks sent one after another each come back two delays after they were sent,
     * instead of queueing behind the delays of the chunks before them.
     */
    @Test
    @DisplayName("with a delay, every chunk comes back two delays after it was sent, whatever was sent before it")
    void delaysEveryChunkByTheDelayOnly() throws Exception {
        long delayMs = 250;
        int chunks = 6;
        try (TcpProxy delayed = TcpProxy.start("127.0.0.1", echoServer.getLocalPort(), Duration.ofMillis(delayMs));
                Socket client = new Socket(delayed.host(), delayed.port())) {
            client.setTcpNoDelay(true);
            client.setSoTimeout(10_000);
            long[] sentAt = new long[chunks];
            long[] backAt = new long[chunks];
            Thread reader = new Thread(() -> {
                try {
                    for (int i = 0; i < chunks; i++) {
                        int value = client.getInputStream().read();
                        backAt[value] = System.nanoTime();
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            reader.start();
            for (int i = 0; i < chunks; i++) { // one chunk every 150 ms: each arrives while the one before is held
                sentAt[i] = System.nanoTime();
                client.getOutputStream().write(i);
                client.getOutputStream().flush();
                Thread.sleep(150);
            }
            reader.join(10_000);
            for (int i = 0; i < chunks; i++) {
                long roundTripMs = TimeUnit.NANOSECONDS.toMillis(backAt[i] - sentAt[i]);
                assertTrue(roundTripMs >= 2 * delayMs, "chunk " + i + " came back after " + roundTripMs + " ms");
                // a proxy that holds each chunk before it reads the next sent chunk 2 back after 707 ms
                assertTrue(roundTripMs < 2 * delayMs + 150, "chunk " + i + " came back after " + roundTripMs + " ms");
            }
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(proxy.host(), proxy.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static String roundTrip(Socket socket, String text) throws IOException {
        byte[] sent = text.getBytes(StandardCharsets.UTF_8);
        socket.getOutputStream().write(sent);
        byte[] received = socket.getInputStream().readNBytes(sent.length);
        return new String(received, StandardCharsets.UTF_8);
    }

    /** The peer closed the connection: a read ends (EOF) or fails (reset), or a write fails. */
    private static void assertClosed(Socket socket) {
        assertThrows(IOException.class, () -> {
            if (socket.getInputStream().read() < 0) {
                throw new SocketException("end of stream");
            }
        });
    }

    private void echoConnections() {
        while (!echoServer.isClosed()) {
            try {
                Socket socket = echoServer.accept();
                Thread echo = new Thread(() -> echo(socket), "echo");
                echo.setDaemon(true);
                echo.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void echo(Socket socket) {
        try (socket;
                InputStream in = socket.getInputStream();
                OutputStream out = socket.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException e) {
            // the proxy closed the connection
        }
    }
}

package dev.pglane.local.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP forwarder in this process between a client (a connector) and a server (PostgreSQL) that a test or the soak
 * command controls: {@link #cut()} breaks every live connection and refuses new ones, as a network partition would,
 * until {@link #heal()}.
 *
 * <p>The proxy listens on 127.0.0.1 at a port of its own ({@link #port()}); point the client's host and port there.
 * Each accepted connection becomes one {@link Link}: a connection to the upstream server and one {@link Pump} per
 * direction, each on its own thread, copying bytes as they come. While cut, a new connection is accepted and closed
 * at once, so the client sees a reset rather than a hang: what a client sees when the server's host is unreachable
 * but not what it sees when packets are silently dropped. Per-direction behaviour belongs in {@link Pump}: a proxy
 * started with a delay delivers every chunk it forwards, each way, that long after it arrived, as a network with that
 * one-way latency would (a round trip then costs twice the delay, and chunks sent together arrive together).
 */
public final class TcpProxy implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TcpProxy.class);
    private static final String HOST = "127.0.0.1";

    private final InetSocketAddress upstream;
    private final ServerSocket listener;
    private final long delayNanos;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private volatile boolean cut;
    private volatile boolean closed;

    private TcpProxy(InetSocketAddress upstream, ServerSocket listener, Duration delay) {
        this.upstream = upstream;
        this.listener = listener;
        this.delayNanos = delay.toNanos();
    }

    /** Starts forwarding connections to {@code host:port}; the proxy's own port is {@link #port()}. */
    public static TcpProxy start(String host, int port) {
        return start(host, port, Duration.ZERO);
    }

    /**
     * Starts forwarding connections to {@code host:port}, holding each chunk of bytes read for {@code delay} before
     * writing it on, in both directions.
     */
    public static TcpProxy start(String host, int port, Duration delay) {
        try {
            ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName(HOST));
            TcpProxy proxy = new TcpProxy(new InetSocketAddress(host, port), listener, delay);
            Thread acceptor = new Thread(proxy::acceptLoop, "pglane-proxy-" + listener.getLocalPort() + "-accept");
            acceptor.setDaemon(true);
            acceptor.start();
            log.info("proxy {}:{} -> {}:{}, delay {}", HOST, listener.getLocalPort(), host, port, delay);
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a proxy for " + host + ":" + port, e);
        }
    }

    public String host() {
        return HOST;
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Closes every live connection, both ends, and refuses new ones until {@link #heal()}. */
    public void cut() {
        cut = true;
        int broken = links.size();
        links.forEach(Link::close);
        log.info("proxy {} cut: {} live connections closed", port(), broken);
    }

    /** Forwards new connections again. */
    public void heal() {
        cut = false;
        log.info("proxy {} healed", port());
    }

    /** {@link #cut()} for {@code duration}, then {@link #heal()}, also when interrupted meanwhile. */
    public void cutFor(Duration duration) throws InterruptedException {
        cut();
        try {
            Thread.sleep(duration.toMillis());
        } finally {
            heal();
        }
    }

    public boolean isCut() {
        return cut;
    }

    /** Connections forwarded now. */
    public int liveConnections() {
        return links.size();
    }

    /** Connections forwarded since the start. */
    public long acceptedConnections() {
        return accepted.get();
    }

    /** Connections closed at once because the proxy was cut. */
    public long refusedConnections() {
        return refused.get();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                if (!closed) {
                    log.warn("proxy {} stops accepting", port(), e);
                }
                return;
            }
            if (cut) {
                refused.incrementAndGet();
                closeQuietly(client);
            } else {
                forward(client);
            }
        }
    }

    private void forward(Socket client) {
        Socket server = new Socket();
        try {
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
            server.connect(upstream);
        } catch (IOException e) {
            // the server is down: the client sees its connection closed, as it would see a refused one
            log.debug("proxy {}: upstream {} refused", port(), upstream, e);
            closeQuietly(server);
            closeQuietly(client);
            return;
        }
        accepted.incrementAndGet();
        Link link = new Link(client, server);
        links.add(link);
        if (cut) {
            // cut() ran between the check in acceptLoop and the add: it did not see this link
            link.close();
            return;
        }
        link.start();
    }

    /** Stops accepting and closes every live connection. */
    @Override
    public void close() {
        closed = true;
        closeQuietly(listener);
        links.forEach(Link::close);
    }

    @Override
    public String toString() {
        return "proxy " + HOST + ":" + port() + " -> " + upstream + (cut ? " (cut)" : "");
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            log.debug("closing {}", closeable, e);
        }
    }

    /** One forwarded connection: the client's socket, the upstream socket and a pump each way. */
    private final class Link {
        private final Socket client;
        private final Socket server;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            String name = "pglane-proxy-" + port() + "-" + client.getPort();
            new Pump(client, server, delayNanos, this::close).start(name + "-up");
            new Pump(server, client, delayNanos, this::close).start(name + "-down");
        }

        /** Closing both sockets ends both pumps; safe to call more than once and from any thread. */
        void close() {
            links.remove(this);
            closeQuietly(client);
            closeQuietly(server);
        }
    }

    /** One direction's loop, which ends when the connection does. */
    @FunctionalInterface
    private interface Forwarding {
        void run() throws IOException, InterruptedException;
    }

    /**
     * Runs {@code forwarding} on this thread, then {@code after}: a socket closed by the other direction or by
     * {@link #cut()} ends it quietly, any other failure with a DEBUG line.
     */
    private static void forward(Forwarding forwarding, Runnable after) {
        try {
            forwarding.run();
        } catch (SocketException e) {
            // the other direction or cut() closed the link
        } catch (IOException e) {
            log.debug("proxy pump {} ends", Thread.currentThread().getName(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            after.run();
        }
    }

    /**
     * Copies one direction's bytes until either end closes, then closes the link. Without a delay one thread copies as
     * bytes come; with one, a {@link DelayLine} holds each chunk for the delay.
     */
    private record Pump(Socket from, Socket to, long delayNanos, Runnable closeLink) {
        void start(String name) {
            if (delayNanos == 0) {
                daemon(this::copy, name);
            } else {
                DelayLine line = new DelayLine(this);
                daemon(line::receive, name);
                daemon(line::deliver, name + "-delivery");
            }
        }

        private void copy() {
            forward(
                    () -> {
                        byte[] buffer = new byte[64 * 1024];
                        InputStream in = from.getInputStream();
                        OutputStream out = to.getOutputStream();
                        int read;
                        while ((read = in.read(buffer)) >= 0) {
                            out.write(buffer, 0, read);
                        }
                    },
                    closeLink);
        }

        private static void daemon(Runnable body, String name) {
            Thread thread = new Thread(body, name);
            thread.setDaemon(true);
            thread.start();
        }
    }

    /**
     * One direction of a link with latency: one thread receives chunks and stamps each with when it is due, another
     * delivers each when it is due, in order. A chunk waits for the delay only, not for earlier chunks' delays as well,
     * as on a network with that latency: holding each chunk before reading the next would also cap what a connection
     * carries per round trip, which a pipelined client (every statement of a target transaction, then one Sync) feels
     * as extra round trips.
     */
    private static final class DelayLine {
        /** Chunks of up to 64 KiB in flight, each way: a bound on memory, far above what a delay of a millisecond holds. */
        private static final int MAX_IN_FLIGHT = 256;

        private static final long POLL_MILLIS = 100;

        private record Chunk(long dueNanos, byte[] bytes) {}

        /** Received after the last chunk: the sender closed its side. */
        private static final Chunk END = new Chunk(0, new byte[0]);

        private final Pump pump;
        private final BlockingQueue<Chunk> inFlight = new ArrayBlockingQueue<>(MAX_IN_FLIGHT);

        DelayLine(Pump pump) {
            this.pump = pump;
        }

        void receive() {
            forward(
                    () -> {
                        byte[] buffer = new byte[64 * 1024];
                        InputStream in = pump.from().getInputStream();
                        int read;
                        while ((read = in.read(buffer)) >= 0) {
                            inFlight.put(new Chunk(System.nanoTime() + pump.delayNanos(), Arrays.copyOf(buffer, read)));
                        }
                    },
                    this::endDelivery);
        }

        /** Queues the end, unless the link is closed already: then delivery ends on its own. */
        private void endDelivery() {
            try {
                while (!inFlight.offer(END, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                    if (pump.to().isClosed()) {
                        return;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                pump.closeLink().run();
            }
        }

        void deliver() {
            forward(
                    () -> {
                        OutputStream out = pump.to().getOutputStream();
                        while (true) {
                            Chunk chunk = inFlight.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                            if (chunk == END || (chunk == null && pump.to().isClosed())) {
                                return;
                            }
                            if (chunk != null) {
                                holdUntil(chunk.dueNanos());
                                out.write(chunk.bytes());
                            }
                        }
                    },
                    pump.closeLink());
        }

        /** parkNanos may return early (and is sub-millisecond, unlike Thread.sleep on Java 17): park again until due. */
        private static void holdUntil(long dueNanos) {
            for (long left = dueNanos - System.nanoTime(); left > 0; left = dueNanos - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
        }
    }
}

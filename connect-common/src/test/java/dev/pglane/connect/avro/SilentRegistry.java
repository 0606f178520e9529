package dev.pglane.connect.avro;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A registry that has hung: it accepts connections and reads requests, and never answers. Not a registry: a fault, for
 * the time limits of the calls that ask one.
 */
public final class SilentRegistry implements AutoCloseable {
    private final ServerSocket server;
    private final List<Socket> accepted = new ArrayList<>();

    public SilentRegistry() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "silent-registry");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The Apicurio v2 API's URL on it. */
    public String url() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/apis/registry/v2";
    }

    private void accept() {
        try {
            while (true) {
                Socket socket = server.accept();
                synchronized (accepted) {
                    accepted.add(socket);
                }
                Thread reader = new Thread(() -> drain(socket), "silent-registry-reader");
                reader.setDaemon(true);
                reader.start();
            }
        } catch (IOException e) {
            // closed
        }
    }

    private static void drain(Socket socket) {
        try (InputStream in = socket.getInputStream()) {
            in.transferTo(OutputNowhere.INSTANCE);
        } catch (IOException e) {
            // closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        synchronized (accepted) {
            for (Socket socket : accepted) {
                socket.close();
            }
        }
    }

    private static final class OutputNowhere extends java.io.OutputStream {
        static final OutputNowhere INSTANCE = new OutputNowhere();

        @Override
        public void write(int b) {}

        @Override
        public void write(byte[] b, int off, int len) {}
    }
}

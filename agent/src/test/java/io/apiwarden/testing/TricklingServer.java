package io.apiwarden.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A loopback port that answers every connection with a Redis status line that never ends, one byte at a
 * time: each read a client makes gets a byte well within any socket time-out, and the reply as a whole
 * never arrives. Only a limit on the whole operation ends the wait.
 */
public final class TricklingServer implements AutoCloseable {
    private final ServerSocket listener;
    private final Duration interval;

    public TricklingServer(Duration interval) throws IOException {
        this.interval = interval;
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptAll, "trickling-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    private void acceptAll() {
        try {
            while (true) {
                Socket s = listener.accept();
                Thread t = new Thread(() -> trickle(s), "trickling-connection");
                t.setDaemon(true);
                t.start();
            }
        } catch (IOException closed) {
            // close() ends the loop
        }
    }

    private void trickle(Socket s) {
        try (s;
                OutputStream out = s.getOutputStream()) {
            out.write("+".getBytes(StandardCharsets.US_ASCII));
            while (!listener.isClosed()) {
                out.flush();
                Thread.sleep(interval.toMillis());
                out.write('K');
            }
        } catch (IOException | InterruptedException gone) {
            // the client hung up, or the server closed
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}

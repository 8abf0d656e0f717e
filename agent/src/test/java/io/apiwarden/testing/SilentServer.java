package io.apiwarden.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback port that accepts connections and never says a word: a hung server, or a proxy in front of a
 * dead one. What a client sends is left unread.
 */
public final class SilentServer implements AutoCloseable {
    private final ServerSocket listener;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    public SilentServer() throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(
                () -> {
                    try {
                        while (true) {
                            accepted.add(listener.accept());
                        }
                    } catch (IOException closed) {
                        // close() ends the loop
                    }
                },
                "silent-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** How many connections it has taken. */
    public int connections() {
        return accepted.size();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : accepted) {
            s.close();
        }
    }
}

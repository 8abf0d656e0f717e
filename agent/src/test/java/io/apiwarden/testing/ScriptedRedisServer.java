package io.apiwarden.testing;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A loopback port that speaks just enough RESP to be taken for a Redis: it reads each command a client
 * sends (an array of bulk strings) and writes whatever the test's script answers to it, byte for byte,
 * hostile or not. A script that answers null says nothing to that command; the connection stays open
 * until the client hangs up or the server closes.
 */
public final class ScriptedRedisServer implements AutoCloseable {
    private final ServerSocket listener;
    private final Function<List<String>, byte[]> script;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();

    /** @param script the answer to each command, given as its words (the command's name upper-cased first) */
    public ScriptedRedisServer(Function<List<String>, byte[]> script) throws IOException {
        this.script = script;
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptAll, "scripted-redis");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The answer of a server that says the same to every command. */
    public static Function<List<String>, byte[]> always(String reply) {
        byte[] bytes = reply.getBytes(StandardCharsets.ISO_8859_1);
        return command -> bytes;
    }

    public int port() {
        return listener.getLocalPort();
    }

    public String url() {
        return "redis://127.0.0.1:" + port();
    }

    /** How many connections it has taken. */
    public int connections() {
        return connections.get();
    }

    private void acceptAll() {
        try {
            while (true) {
                Socket s = listener.accept();
                accepted.add(s);
                connections.incrementAndGet();
                Thread t = new Thread(() -> serve(s), "scripted-redis-connection");
                t.setDaemon(true);
                t.start();
            }
        } catch (IOException closed) {
            // close() ends the loop
        }
    }

    private void serve(Socket s) {
        try (s;
                InputStream in = new BufferedInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream()) {
            while (true) {
                List<String> command = readCommand(in);
                if (command == null) {
                    return;
                }
                byte[] reply = script.apply(command);
                if (reply != null) {
                    out.write(reply);
                    out.flush();
                }
            }
        } catch (IOException gone) {
            // the client hung up (as it does on a reply it refuses), or the server closed
        }
    }

    /** One command as its words, or null at the end of the stream. */
    private static List<String> readCommand(InputStream in) throws IOException {
        String header = line(in);
        if (header == null) {
            return null;
        }
        if (!header.startsWith("*")) {
            throw new IOException("not a RESP command: " + header);
        }
        int words = Integer.parseInt(header.substring(1));
        List<String> command = new ArrayList<>(words);
        for (int i = 0; i < words; i++) {
            String length = line(in);
            if (length == null || !length.startsWith("$")) {
                throw new IOException("not a bulk string");
            }
            byte[] word = in.readNBytes(Integer.parseInt(length.substring(1)) + 2);
            String text = new String(word, 0, word.length - 2, StandardCharsets.ISO_8859_1);
            command.add(i == 0 ? text.toUpperCase(Locale.ROOT) : text);
        }
        return command;
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n' && b.length() > 0 && b.charAt(b.length() - 1) == '\r') {
                return b.substring(0, b.length() - 1);
            }
            b.append((char) c);
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : accepted) {
            s.close();
        }
    }
}

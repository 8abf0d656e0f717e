package io.apiwarden.core.token.store.redis;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import redis.clients.jedis.JedisSocketFactory;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Sockets to the store on which every step of an operation ends by the operation's deadline: the name
 * lookup, the connect, the TLS handshake and each read. Socket time-outs alone bound each step, not
 * their sum: a connect, a handshake and a few slow replies could each take the whole time-out.
 * Here every read is given only what is left of the operation's time.
 */
final class DeadlineSockets implements JedisSocketFactory {
    private static final Pattern IP_LITERAL = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}|.*:.*");

    private final String host;
    private final int port;
    /** The JVM's default TLS set-up (its trust store), or null for plain TCP. */
    private final SSLSocketFactory tls;
    /** System.nanoTime() by which the current operation must end; set by the one thread that runs it. */
    private volatile long deadline;

    DeadlineSockets(String host, int port, boolean tls) {
        this.host = host;
        this.port = port;
        // Set up here, once: the JVM's first TLS context takes hundreds of milliseconds to build (trust store,
        // providers), which would eat the first operation's time-out before a byte was sent.
        this.tls = tls ? (SSLSocketFactory) SSLSocketFactory.getDefault() : null;
    }

    /** Sets the deadline of the operation about to run on the sockets this factory made. */
    void deadline(long nanoTime) {
        this.deadline = nanoTime;
    }

    @Override
    public Socket createSocket() throws JedisConnectionException {
        Socket plain = null;
        try {
            IOException failure = new IOException("no address for the host");
            for (InetAddress address : lookUp()) {
                BoundedSocket socket = new BoundedSocket();
                try {
                    socket.setTcpNoDelay(true);
                    socket.setKeepAlive(true);
                    socket.connect(new InetSocketAddress(address, port), remainingMillis());
                    // Every read sets its own; this is for any read that bypasses the stream below.
                    socket.setSoTimeout(remainingMillis());
                    plain = socket;
                    break;
                } catch (IOException e) {
                    socket.close();
                    failure = e;
                }
            }
            if (plain == null) {
                throw failure;
            }
            if (tls == null) {
                return plain;
            }
            SSLSocket ssl = (SSLSocket) tls.createSocket(plain, host, port, true);
            SSLParameters parameters = ssl.getSSLParameters();
            // SSLSocket checks no host name unless told to: without this, any trusted certificate would do.
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            ssl.setSSLParameters(parameters);
            ssl.startHandshake();
            return ssl;
        } catch (IOException | RuntimeException e) {
            closeQuietly(plain);
            throw new JedisConnectionException(e);
        }
    }

    /** The host's addresses; a lookup that outlasts the deadline is left to finish on its own thread. */
    private InetAddress[] lookUp() throws IOException {
        if (IP_LITERAL.matcher(host).matches()) {
            return InetAddress.getAllByName(host);
        }
        FutureTask<InetAddress[]> lookup = new FutureTask<>(() -> InetAddress.getAllByName(host));
        Thread t = new Thread(lookup, "apiwarden-redis-lookup");
        t.setDaemon(true);
        t.setContextClassLoader(null);
        t.start();
        try {
            return lookup.get(remainingNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new SocketTimeoutException("the name lookup did not end in time");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted during the name lookup");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownHostException) {
                throw (UnknownHostException) e.getCause();
            }
            throw new IOException("the name lookup failed", e.getCause());
        }
    }

    private long remainingNanos() throws SocketTimeoutException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new SocketTimeoutException("the store's time-out ran out");
        }
        return left;
    }

    /** What is left, rounded up to a whole millisecond (0 would mean no limit to a socket). */
    private int remainingMillis() throws SocketTimeoutException {
        return (int) Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(remainingNanos() + 999_999));
    }

    private static void closeQuietly(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException | RuntimeException ignored) {
                // closing after a failure: the failure is what gets reported
            }
        }
    }

    /**
     * A socket whose reads each wait at most what is left of the deadline. A TLS socket layered over it
     * reads through {@link #getInputStream()} too, so the handshake is bounded as well.
     */
    private final class BoundedSocket extends Socket {
        private InputStream in;

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in = new FilterInputStream(super.getInputStream()) {
                    @Override
                    public int read() throws IOException {
                        setSoTimeout(remainingMillis());
                        return super.read();
                    }

                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        setSoTimeout(remainingMillis());
                        return super.read(b, off, len);
                    }
                };
            }
            return in;
        }
    }
}

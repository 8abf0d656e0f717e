package io.apiwarden.clients.huc.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.call.Deadline;
import io.apiwarden.core.call.Decision;
import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.BlockingWait;
import io.apiwarden.core.engine.BodyPeek;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.CallTarget;
import io.apiwarden.core.engine.Exchange;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.engine.JudgedAttempt;
import io.apiwarden.core.engine.RecordedBody;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.SocketException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One managed {@code HttpURLConnection} call, driven by a {@link CallDriver} on the app's thread when the
 * app first asks for the response: each attempt is a JDK connection of its own ({@link ManagedRequest#take}),
 * given the app's settings, the attempt's headers and the body the app wrote. The app's {@code disconnect()}
 * ends a wait at once.
 *
 * <p>Redirects the app's connection would follow are followed here ({@link Redirects}): each attempt's
 * connection follows none itself. A hop that stays in the API is the next attempt, with the same token; one
 * that leaves it goes through a JDK connection with the app's settings and no header of the agent's, which
 * follows any further hop itself, as without the agent.
 */
final class HucExchange implements Exchange.Blocking<HucExchange.Answer> {

    /** What the app reads its response from: the final attempt's connection, and its body when the agent read the start of it. */
    static final class Answer {
        final HttpURLConnection connection;
        final InputStream peekedBody;

        Answer(HttpURLConnection connection, InputStream peekedBody) {
            this.connection = connection;
            this.peekedBody = peekedBody;
        }
    }

    private final Warden warden;
    private final ManagedRequest request;
    private final AppSettings settings;
    private final Proxy proxy;
    /** The body the app wrote, or null when it wrote none. */
    private final byte[] body;

    private final CallDriver<Answer> driver;
    // The request being managed, as redirect hops in the API change it.
    private URL current;
    private String method;
    /** Whether the request still carries the app's body and request properties (a POST redirected to a GET does not). */
    private boolean keepsRequest = true;

    private int hops;

    HucExchange(Warden warden, ManagedRequest request, AppSettings settings, URL url, Proxy proxy, byte[] body) {
        this.warden = warden;
        this.request = request;
        this.settings = settings;
        this.proxy = proxy;
        this.body = body;
        this.current = url;
        this.method = settings.method;
        // HttpURLConnection has no limit for a whole call: its time-outs bound each connect and each read of
        // every attempt, as the app set them (docs/configuration.md).
        this.driver = new CallDriver<>(
                warden,
                new CallTarget(method, url.toString(), url.getProtocol(), url.getHost(), url.getPort(), url.getPath()),
                null);
    }

    Answer run() throws IOException, InterruptedException {
        return driver.run(this);
    }

    private boolean hasBody() {
        return keepsRequest && body != null;
    }

    @Override
    public boolean hasHeader(String name) {
        return keepsRequest && settings.hasProperty(name);
    }

    /** The JDK sends again a body it holds itself; one the app streams, it cannot: that one is recorded. */
    @Override
    public boolean bodyRepeatable() {
        return !hasBody() || !settings.streams();
    }

    @Override
    public boolean expectContinue() {
        return hasBody() && hasHeader("Expect");
    }

    @Override
    public Exception timedOut() {
        // No deadline is ever set (see the constructor).
        return null;
    }

    @Override
    public int status(Answer response) {
        try {
            return response.connection.getResponseCode();
        } catch (IOException e) {
            return 0;
        }
    }

    @Override
    public Function<String, List<String>> headers(Answer response) {
        return ResponseHeaders.of(response.connection);
    }

    @Override
    public Attempt.Blocking<Answer> send(AttemptHeaders headers, Duration timeout, Judge judge) throws IOException {
        HttpURLConnection real = request.take(current);
        request.sending(real);
        boolean withBody = hasBody();
        settings.applyTo(real, method, keepsRequest, withBody, false);
        headers.forEach(real::setRequestProperty);
        if (withBody) {
            writeBody(real);
        }
        real.getResponseCode();
        return new HucAttempt(real, judge);
    }

    /** Writes the app's body; a streamed one is recorded as it goes, and a resend writes the recording. */
    private void writeBody(HttpURLConnection real) throws IOException {
        RecordedBody recording = settings.streams() ? driver.recordBody(settings.fixedLength) : null;
        try (OutputStream out = real.getOutputStream()) {
            if (recording != null && recording.isComplete()) {
                // Read-only views: written through a channel, which copies without reaching their arrays.
                WritableByteChannel channel = Channels.newChannel(out);
                for (ByteBuffer b : recording.buffers()) {
                    while (b.hasRemaining()) {
                        channel.write(b);
                    }
                }
                return;
            }
            RecordedBody.Take take = recording == null ? null : recording.begin();
            if (take != null) {
                take.add(body, 0, body.length);
            }
            try {
                out.write(body);
            } catch (IOException | RuntimeException e) {
                if (take != null) {
                    take.abandon();
                }
                throw e;
            }
            if (take != null) {
                take.complete();
            }
        }
    }

    @Override
    public <T> T await(CompletableFuture<T> future, Deadline deadline, String what) throws IOException {
        return BlockingWait.await(future, deadline, new Disconnect(), what);
    }

    @Override
    public void sleep(Duration delay) throws IOException {
        BlockingWait.sleep(warden.scheduler(), delay, new Disconnect());
    }

    /** The app's {@code disconnect()}, for one wait: the call then fails as a read on a closed socket does. */
    private final class Disconnect implements BlockingWait.Cancel {
        @Override
        public CompletableFuture<?> listen() {
            return request.disconnected;
        }

        @Override
        public void stopListening() {
            // The signal is the connection's own, for its whole life.
        }

        @Override
        public void throwIfCancelled() throws IOException {
            if (request.disconnected.isDone()) {
                throw new SocketException("Socket closed");
            }
        }
    }

    /** One attempt's answer, classified (a bounded prefix of its body read when it must be) and judged. */
    private final class HucAttempt extends JudgedAttempt<Answer> implements Attempt.Blocking<Answer>, Judge.BodyPrefix {
        private final HttpURLConnection real;
        private final int status;
        private InputStream peeked;
        private boolean followed;
        /** A hop out of the API, which the app's settings follow without the agent. */
        private Redirects.Hop leaving;

        HucAttempt(HttpURLConnection real, Judge judge) throws IOException {
            this.real = real;
            this.status = real.getResponseCode();
            Redirects.Hop hop = settings.followRedirects && hops < Redirects.maxHops()
                    ? Redirects.hop(status, real.getHeaderField("Location"), current, method)
                    : null;
            Verdict head = hop == null ? null : warden.classifier().fromHead(status, headers());
            if (head != Verdict.SUCCESS) {
                judge(judge, this, OnTheWire.AS_PREPARED);
                return;
            }
            judged(head, Decision.returnToApp());
            URL t = hop.target;
            if (warden.scope().contains(t.getProtocol(), t.getHost(), t.getPort(), t.getPath())) {
                hops++;
                current = t;
                method = hop.method;
                keepsRequest &= hop.keepsRequest;
                followed = true;
            } else {
                leaving = hop;
            }
        }

        @Override
        public byte[] read(int limit) throws IOException {
            InputStream in = status >= 400 ? real.getErrorStream() : real.getInputStream();
            if (in == null) {
                return new byte[0];
            }
            return BodyPeek.peek(in, limit, warden.config().maxErrorBodyWait(), whole -> peeked = whole);
        }

        @Override
        public int status() {
            return status;
        }

        @Override
        public String protocolVersion() {
            String statusLine = real.getHeaderField(0);
            return statusLine != null && statusLine.startsWith("HTTP/1.0") ? "1.0" : "1.1";
        }

        @Override
        public Function<String, List<String>> headers() {
            return ResponseHeaders.of(real);
        }

        @Override
        public String retryAfter() {
            return real.getHeaderField("Retry-After");
        }

        @Override
        public boolean followedRedirect() {
            return followed;
        }

        @Override
        public Answer deliver() throws IOException {
            if (leaving == null) {
                return new Answer(real, peeked);
            }
            discard();
            return new Answer(leave(leaving), null);
        }

        @Override
        public void discard() {
            // Read to its end by the JDK when short, so the connection goes back to its keep-alive cache.
            try {
                InputStream in =
                        peeked != null ? peeked : status >= 400 ? real.getErrorStream() : real.getInputStream();
                if (in != null) {
                    in.close();
                }
            } catch (IOException | RuntimeException e) {
                real.disconnect();
            }
        }
    }

    /** Sends the hop out of the API as the app's own connection would, with none of the agent's headers. */
    private HttpURLConnection leave(Redirects.Hop hop) throws IOException {
        HttpURLConnection out = RawConnections.openHttp(hop.target, proxy);
        request.sending(out);
        boolean withBody = hasBody() && hop.keepsRequest;
        settings.applyTo(out, hop.method, keepsRequest && hop.keepsRequest, withBody, settings.followRedirects);
        if (withBody) {
            try (OutputStream o = out.getOutputStream()) {
                o.write(body);
            }
        }
        out.getResponseCode();
        return out;
    }
}

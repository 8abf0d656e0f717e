package io.apiwarden.telemetry;

import io.opentelemetry.sdk.common.CompletableResultCode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;

/**
 * What one exporter's exports taught about where it sends, and what that means for the app.
 *
 * <p>While the app runs: the first failed attempt is said at once (the exporter's own retries, up
 * to ~8 s after an export that itself waits for the batch delay, used to put the warning ~15 s
 * after start, so a short run never said why). At exit: the exporter no longer retries, and a
 * destination the exports have shown to fail is not waited for at all: its items are dropped, and
 * one line says how many and why. A destination that answers still gets the last items.
 */
final class ExportWatch {
    /**
     * How long the exit's look at an endpoint no export has reached yet may take: one TCP handshake,
     * a single round trip, which stays under 250 ms between any two places on Earth (the longest
     * measured round trips are ~200 ms). A reachable collector costs the app that one round trip more
     * at exit; a silent one costs this instead of the whole {@link ExportGuard#EXIT_FLUSH_LIMIT}.
     */
    static final Duration EXIT_PROBE_LIMIT = Duration.ofMillis(250);

    private final String what;
    /** Where an OTLP exporter sends, or null for another exporter (the console's). */
    private final URI endpoint;

    private final String destination;
    private final String setting;
    private final String noneSetting;
    private final Consumer<String> warn;
    private final Consumer<String> info;
    private final Clock clock;
    /** Why the last attempt failed, or null: none failed yet, or the last went through. */
    private volatile String failing;

    private volatile boolean exiting;
    /** Some export went through: the destination is known to take them. */
    private volatile boolean reached;

    private final AtomicBoolean told = new AtomicBoolean();
    private final AtomicLong droppedAtExit = new AtomicLong();
    /** Our result of each export not yet settled, with its item count and when it began (epoch ms). */
    private final Map<CompletableResultCode, long[]> inFlight = new ConcurrentHashMap<>();

    /**
     * @param what {@code spans} or {@code metrics}
     * @param destination where the exporter sends: an OTLP endpoint (a URL), or the exporter's name
     * @param setting the setting that says where: {@code otel.exporter.otlp.endpoint}, say
     * @param warn where a first telling goes; {@code info} where a later one does
     */
    ExportWatch(
            String what,
            String destination,
            String setting,
            Consumer<String> warn,
            Consumer<String> info,
            Clock clock) {
        this.what = what;
        this.endpoint = httpUri(destination);
        this.destination = endpoint != null ? UrlRedaction.redact(destination) : destination;
        this.setting = setting;
        this.noneSetting = "otel." + (what.equals("spans") ? "traces" : "metrics") + ".exporter=none";
        this.warn = warn;
        this.info = info;
        this.clock = clock;
    }

    /**
     * The exporter's retry decision, asked after each failed attempt: the failure is noted (and said,
     * the first time) as it happens, not when the retries are over; no retry once the JVM is exiting.
     */
    boolean retryAfter(IOException failure) {
        failed(why(failure));
        return !exiting && isTransient(failure);
    }

    /**
     * As the exporter's own default: a TLS failure will not mend by itself, and neither will the
     * sender's own refusals (an answer too large, an unknown encoding), which are not the JDK's.
     */
    private static boolean isTransient(IOException failure) {
        return !(failure instanceof SSLException)
                && failure.getClass().getName().startsWith("java.");
    }

    /**
     * Runs one export of {@code items} items through {@code send}. The result handed back is ours,
     * so that at exit an export stuck in the exporter (retrying, or waiting on a silent host) can be
     * given up without waiting for it.
     */
    CompletableResultCode export(int items, Supplier<CompletableResultCode> send) {
        if (exiting && failing != null) {
            droppedAtExit.addAndGet(items);
            return CompletableResultCode.ofFailure();
        }
        CompletableResultCode ours = new CompletableResultCode();
        inFlight.put(ours, new long[] {items, clock.millis()});
        CompletableResultCode theirs;
        try {
            theirs = send.get();
        } catch (RuntimeException e) {
            theirs = CompletableResultCode.ofExceptionalFailure(e);
        }
        CompletableResultCode result = theirs;
        result.whenComplete(() -> {
            if (result.isSuccess()) {
                reached = true;
                failing = null;
            } else {
                failed(why(result.getFailureThrowable()));
            }
            settle(ours, result.isSuccess());
        });
        return ours;
    }

    private void settle(CompletableResultCode ours, boolean delivered) {
        long[] export = inFlight.remove(ours);
        if (export == null) {
            return; // given up at exit, and counted then
        }
        if (delivered) {
            ours.succeed();
        } else {
            if (exiting) {
                droppedAtExit.addAndGet(export[0]);
            }
            ours.fail();
        }
    }

    private void failed(String why) {
        failing = why;
        // At exit the exit line says it, with the count: one line, not two.
        if (!exiting && told.compareAndSet(false, true)) {
            warn.accept(what + " could not be sent to " + destination + ": " + why
                    + "; they are dropped and the app is not affected. " + whatToDo() + " Said once.");
        }
    }

    private String whatToDo() {
        return "Point " + setting + " at your collector, or set " + noneSetting + " to send none.";
    }

    /** Whether an export in flight was handed over at {@code millis} or before: a loop, not a stream (exit path). */
    private boolean unansweredSince(long millis) {
        for (long[] export : inFlight.values()) {
            if (export[1] <= millis) {
                return true;
            }
        }
        return false;
    }

    /**
     * The JVM is exiting: no more retries. A destination the exports showed to fail, or that has
     * left an export unanswered for longer than the whole exit may take, or that no export has
     * reached and that does not take a connection now, is not waited for: what is in flight is
     * given up now, and what comes after is dropped at once.
     */
    void exiting() {
        exiting = true;
        long now = clock.millis();
        if (failing == null && unansweredSince(now - ExportGuard.EXIT_FLUSH_LIMIT.toMillis())) {
            failing = "it has not answered an export for over " + ExportGuard.EXIT_FLUSH_LIMIT.toMillis() + " ms";
        }
        if (failing == null && !reached && endpoint != null) {
            // Nothing learnt yet (a short run: its spans meet the exporter only now). A refused or
            // silent endpoint is found by one connection, without loading the exporter's encoders.
            failing = unreachable(endpoint);
        }
        if (failing != null) {
            giveUpInFlight();
        }
    }

    /** Why nothing takes a connection at the endpoint's host and port, or null when something does. */
    static String unreachable(URI endpoint) {
        if (!needsNoLookUp(endpoint.getHost())) {
            // A name would be looked up first, with no bound the probe could set (a DNS server out of reach
            // takes seconds a try): unknown, and the exit's bounded flush decides instead.
            return null;
        }
        int port = endpoint.getPort() != -1
                ? endpoint.getPort()
                : "https".equalsIgnoreCase(endpoint.getScheme()) ? 443 : 80;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(endpoint.getHost(), port), (int) EXIT_PROBE_LIMIT.toMillis());
            return null;
        } catch (SocketTimeoutException e) {
            return "it took no connection within " + EXIT_PROBE_LIMIT.toMillis() + " ms";
        } catch (IOException | RuntimeException e) {
            return why(e);
        }
    }

    /** Whether connecting to {@code host} needs no DNS look-up: an IP address, or localhost (the hosts file). */
    static boolean needsNoLookUp(String host) {
        return host != null
                && (host.equalsIgnoreCase("localhost")
                        || host.startsWith("[")
                        || host.matches("\\d{1,3}(\\.\\d{1,3}){3}"));
    }

    /** The endpoint as a URI to connect to, or null when it is not an http(s) URL (an exporter's name). */
    private static URI httpUri(String destination) {
        try {
            URI uri = new URI(destination);
            boolean http = "http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme());
            return http && uri.getHost() != null ? uri : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /** The exit's wait is over: what is still in flight is given up, and one line says what was dropped and why. */
    void exited() {
        giveUpInFlight();
        long dropped = droppedAtExit.get();
        if (dropped == 0) {
            return;
        }
        String why = failing != null
                ? failing
                : "it did not answer within " + ExportGuard.EXIT_FLUSH_LIMIT.toMillis() + " ms";
        String line = dropped + " " + (dropped == 1 ? what.substring(0, what.length() - 1) : what)
                + " dropped at exit, not sent to " + destination + ": " + why
                + "; the app's exit did not wait for them.";
        if (told.compareAndSet(false, true)) {
            warn.accept(line + " " + whatToDo());
        } else {
            info.accept(line);
        }
    }

    private void giveUpInFlight() {
        for (CompletableResultCode ours : inFlight.keySet()) {
            long[] export = inFlight.remove(ours);
            if (export != null) {
                droppedAtExit.addAndGet(export[0]);
                ours.fail();
            }
        }
    }

    /** Why an export failed, in words, from what the exporter threw; never the exception's own message. */
    static String why(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
                return "its host name does not resolve";
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException) {
                return "nothing is listening there (connection refused)";
            }
            if (t instanceof HttpTimeoutException) {
                return "it did not answer in time";
            }
            if (t instanceof SSLException) {
                return "TLS failed (" + t.getClass().getSimpleName() + ")";
            }
            if (t instanceof IOException) {
                return "the connection failed (" + t.getClass().getSimpleName() + ")";
            }
        }
        // The OTLP exporters fail an export that was answered with an error status with an exception of their own.
        return failure == null ? "the export failed" : "it answered with an HTTP error (is it an OTLP/HTTP endpoint?)";
    }

    /** Exports given up or failed since the exit began, in items: what the exit line counts. */
    long droppedAtExit() {
        return droppedAtExit.get();
    }

    /** Exports handed to the exporter and not settled yet. */
    int inFlight() {
        return inFlight.size();
    }
}

package io.apiwarden.core.engine;

import io.apiwarden.core.call.Deadline;
import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.time.DelayScheduler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * A client that exists only in memory: scripted responses, every attempt's headers recorded,
 * waits on the test's scheduler. What a real adapter does, reduced to what the engine relies on.
 */
final class FakeExchange implements Exchange.Blocking<FakeExchange.Reply>, Exchange.Async<FakeExchange.Reply> {
    /** A response of the fake client. */
    static final class Reply {
        final int status;
        final Map<String, String> headers;
        final String body;
        boolean closed;

        Reply(int status, Map<String, String> headers, String body) {
            this.status = status;
            this.headers = headers;
            this.body = body;
        }

        List<String> header(String name) {
            for (Map.Entry<String, String> h : headers.entrySet()) {
                if (h.getKey().equalsIgnoreCase(name)) {
                    return List.of(h.getValue());
                }
            }
            return List.of();
        }
    }

    private final Deque<Reply> script = new ArrayDeque<>();
    private final DelayScheduler timer;
    final List<Map<String, String>> sent = new ArrayList<>();
    final List<Duration> timeouts = new ArrayList<>();
    final List<Reply> discarded = new ArrayList<>();
    /** As the JDK client's face: a future the app makes from the call's, cancelled, cancels the call. */
    boolean madeFuturesCancelTheCall;

    final List<Duration> sleeps = new ArrayList<>();
    String appAuthorization;
    /** What the client says it saw of each attempt on the wire (a redirect out of the API, the app's own Authorization). */
    OnTheWire seenOnTheWire = OnTheWire.AS_PREPARED;

    boolean repeatable = true;
    /**
     * A streamed body, in the pieces the app's code hands them over, for a call whose body the
     * client cannot send twice ({@code repeatable = false}): recorded through {@link #recordingFor}.
     */
    final List<String> streamedBody = new ArrayList<>();
    /** The length the client declares for the streamed body, or -1. */
    long declaredLength = -1;
    /** Whether the app's code ends its streamed body (false: still streaming when the response came). */
    boolean streamEnds = true;
    /** What each attempt sent as its body. */
    final List<String> sentBodies = new ArrayList<>();

    private CallDriver<Reply> recordingFor;
    /** When set, asynchronous attempts complete only when the test completes this. */
    CompletableFuture<Void> wire;
    /** Whether attempts are plain futures, handed over through {@code whenComplete}, as some adapters' are. */
    boolean plainAttemptFutures;
    /** Where the driver's continuations run: at once, unless a test queues them to run them later. */
    Executor completions = Runnable::run;

    FakeExchange(DelayScheduler timer) {
        this.timer = timer;
    }

    /** Records the streamed body in {@code driver}'s recording, as an adapter does. */
    FakeExchange recordingFor(CallDriver<Reply> driver) {
        recordingFor = driver;
        return this;
    }

    FakeExchange reply(int status, String body, String... headerPairs) {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        for (int i = 0; i < headerPairs.length; i += 2) {
            headers.put(headerPairs[i], headerPairs[i + 1]);
        }
        script.add(new Reply(status, headers, body));
        return this;
    }

    @Override
    public boolean hasHeader(String name) {
        return name.equalsIgnoreCase("Authorization") && appAuthorization != null;
    }

    @Override
    public boolean bodyRepeatable() {
        return repeatable;
    }

    @Override
    public boolean expectContinue() {
        return false;
    }

    @Override
    public Attempt.Blocking<Reply> send(AttemptHeaders headers, Duration timeout, Judge judge) throws IOException {
        Map<String, String> copy = new java.util.LinkedHashMap<>();
        headers.forEach(copy::put);
        sent.add(copy);
        timeouts.add(timeout);
        sendBody();
        Reply reply = script.poll();
        if (reply == null) {
            throw new IOException("no more scripted replies");
        }
        return new FakeAttempt(reply, judge);
    }

    @Override
    public CompletableFuture<Attempt.Async<Reply>> sendAsync(AttemptHeaders headers, Duration timeout, Judge judge) {
        CompletableFuture<Void> gate = wire == null ? CompletableFuture.completedFuture(null) : wire;
        CompletableFuture<Attempt.Async<Reply>> attempt =
                plainAttemptFutures ? new CompletableFuture<>() : new HandOverFuture<Attempt.Async<Reply>>() {};
        Map<String, String> copy = new java.util.LinkedHashMap<>();
        headers.forEach(copy::put);
        gate.thenRun(() -> {
            sent.add(copy);
            timeouts.add(timeout);
            sendBody();
            Reply reply = script.poll();
            if (reply == null) {
                attempt.completeExceptionally(new IOException("no more scripted replies"));
            } else {
                attempt.complete(new FakeAttempt(reply, judge));
            }
        });
        return attempt;
    }

    /** What a client does with the streamed body: sends the app's pieces through the recording's tee, or the recording. */
    private void sendBody() {
        if (repeatable || streamedBody.isEmpty()) {
            return;
        }
        RecordedBody recording = recordingFor == null ? null : recordingFor.recordBody(declaredLength);
        StringBuilder body = new StringBuilder();
        if (recording != null && recording.isComplete()) {
            for (java.nio.ByteBuffer b : recording.buffers()) {
                body.append(StandardCharsets.UTF_8.decode(b));
            }
        } else {
            RecordedBody.Take take = recording == null ? null : recording.begin();
            for (String piece : streamedBody) {
                java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(piece.getBytes(StandardCharsets.UTF_8));
                if (take != null) {
                    take.add(bytes);
                }
                body.append(StandardCharsets.UTF_8.decode(bytes));
            }
            if (take != null && streamEnds) {
                take.complete();
            }
        }
        sentBodies.add(body.toString());
    }

    @Override
    public <T> T await(CompletableFuture<T> future, Deadline deadline, String what) {
        return future.isDone() && !future.isCompletedExceptionally() ? future.getNow(null) : null;
    }

    @Override
    public void sleep(Duration delay) throws InterruptedException {
        sleeps.add(delay);
        timer.sleep(delay);
    }

    @Override
    public Exception timedOut() {
        return new IOException("timed out");
    }

    @Override
    public DelayScheduler timer() {
        return timer;
    }

    @Override
    public Executor completions() {
        return completions;
    }

    @Override
    public boolean madeFuturesCancelTheCall() {
        return madeFuturesCancelTheCall;
    }

    @Override
    public int status(Reply response) {
        return response.status;
    }

    @Override
    public Function<String, List<String>> headers(Reply response) {
        return response::header;
    }

    private final class FakeAttempt extends JudgedAttempt<Reply>
            implements Attempt.Blocking<Reply>, Attempt.Async<Reply> {
        private final Reply reply;

        FakeAttempt(Reply reply, Judge judge) {
            this.reply = reply;
            judge(judge, limit -> reply.body.getBytes(StandardCharsets.UTF_8), seenOnTheWire);
        }

        @Override
        public int status() {
            return reply.status;
        }

        @Override
        public String protocolVersion() {
            return "1.1";
        }

        @Override
        public Function<String, List<String>> headers() {
            return reply::header;
        }

        @Override
        public String retryAfter() {
            List<String> v = reply.header("Retry-After");
            return v.isEmpty() ? null : v.get(0);
        }

        @Override
        public Reply deliver() {
            return reply;
        }

        @Override
        public CompletionStage<Reply> deliverAsync() {
            return CompletableFuture.completedFuture(reply);
        }

        @Override
        public void discard() {
            reply.closed = true;
            discarded.add(reply);
        }
    }
}

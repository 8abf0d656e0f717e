package io.apiwarden.adapters;

import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One way an app makes calls through one HTTP client ({@code send}, {@code sendAsync},
 * {@code execute}, {@code enqueue}, a subscription...), reduced to what {@link ClientAdapterContract}
 * needs: make a call and see what the app got, start one and cancel it as the app would.
 *
 * <p>A face is plain client code: it never wires the agent in itself. In process, the contract's
 * subclass hands it a client managed in library mode; in an app started with the agent, the same
 * face gets a client the app built, which the agent manages. Faces must not depend on JUnit: they
 * run in those apps too.
 */
public interface ClientFace extends AutoCloseable {

    /** How a request's body is made. */
    enum Body {
        NONE,
        /** A body the client itself can send again (a string, an array). */
        REPEATABLE,
        /** A body the client can send once only: a stream, a publisher, written as it is produced. */
        STREAMED
    }

    /** A request as the app makes it. */
    record Call(String method, String url, String body, Body kind) {
        public static Call get(String url) {
            return new Call("GET", url, null, Body.NONE);
        }

        public static Call post(String url, String body, Body kind) {
            return new Call("POST", url, body, kind);
        }
    }

    /** What the app got: the status and the whole body as text. */
    record Reply(int status, String body) {}

    /** A call under way. */
    interface Running {
        /** Completes with what the app got, or with what its client raised (a cancellation included). */
        CompletableFuture<Reply> outcome();

        /**
         * Cancels the call as the app would with this client: {@code cancel()} on the request, the
         * call or the future, disposing the subscription, or interrupting the thread blocked in the call.
         */
        void cancel();
    }

    /** Whether the app's call holds none of the app's threads while it is under way (a future, a callback, a subscription). */
    boolean async();

    /** Starts a call. A blocking face runs it on a thread of its own, as an app thread would. */
    Running start(Call call);

    /** Makes a call and waits for what the app got. */
    default Reply call(Call call) throws Exception {
        return start(call).outcome().get(30, TimeUnit.SECONDS);
    }

    /**
     * How many times the client itself sends again a call that the agent answered with the API's
     * rate-limit refusal, as it would without the agent (Apache HttpClient's retry strategy: once).
     */
    default int ownRetriesOfARateLimit() {
        return 0;
    }

    /**
     * How many of the client's own threads are busy with calls now, when the client can say (OkHttp's
     * dispatcher can); empty when it cannot.
     */
    default OptionalInt busyClientThreads() {
        return OptionalInt.empty();
    }

    /** Frees what the client holds (pools, threads). */
    @Override
    void close();
}

package io.apiwarden.core.engine;

import io.apiwarden.core.call.Deadline;
import io.apiwarden.core.time.DelayScheduler;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * One HTTP client's side of one managed call: the adapter seam of the {@link CallDriver}. The
 * driver decides what happens (token, headers, classification, resend, waits, telemetry); an
 * exchange only knows how its client does each step. Adding a client means writing one of these.
 *
 * <p>This is the request part both faces share. A client sends through one face or both:
 * {@link Blocking} on the caller's thread ({@link CallDriver#run}), {@link Async} holding no
 * thread ({@link CallDriver#runAsync}); an adapter implements only the face its client has.
 *
 * <p>An exchange may follow the call's request as it changes (a redirect hop the agent follows
 * itself): the driver asks for {@link #hasHeader} before every attempt, and for
 * {@link #bodyRepeatable} when it decides on each response.
 *
 * <p>A body the client cannot send twice can still be resent when the exchange records it as
 * the first attempt sends it ({@link CallDriver#recordBody}) and sends the recording on a resend:
 * the driver resends only once the recording is whole, and says why not otherwise.
 *
 * @param <R> the response type the app gets from its client
 */
public interface Exchange<R> {

    /** Whether the request being managed carries header {@code name} of the app's own. */
    boolean hasHeader(String name);

    /**
     * Whether the client itself can send the request being managed again with the same body (no
     * body, a string, an array, a file). Asked when a response has been classified, while the
     * attempt's request is still the one being managed; when false, the driver looks at the call's
     * {@link RecordedBody}, if the exchange made one.
     */
    boolean bodyRepeatable();

    /** Whether the request asks the server for {@code 100 Continue} first (for the attempt's span). */
    boolean expectContinue();

    /** What the client raises when the app's time limit ran out before an attempt; null when the client enforces it itself. */
    Exception timedOut();

    /** The status of a response the app gets, for the call's span and meters. */
    int status(R response);

    /** The values of a header of a response the app gets, any case of its name. */
    Function<String, List<String>> headers(R response);

    /**
     * The blocking face: the client sends on the caller's thread, and the driver waits there.
     *
     * @param <R> the response type the app gets from its client
     */
    interface Blocking<R> extends Exchange<R> {

        /**
         * Sends one attempt, blocking the calling thread: the request being managed with
         * {@code headers} set (replacing the app's values of those names) and, when not null,
         * {@code timeout} as its own time-out. The response is classified and judged by
         * {@code judge} before this returns, so the exchange can tell what to do with its body.
         */
        Attempt.Blocking<R> send(AttemptHeaders headers, Duration timeout, Judge judge)
                throws IOException, InterruptedException;

        /**
         * Waits on the calling thread for {@code future} (a token), no longer than {@code deadline}
         * allows and as the client lets its calls be interrupted or cancelled.
         *
         * @param what what is awaited, for an error message
         * @return its value, or null when it failed or the wait ended first
         */
        <T> T await(CompletableFuture<T> future, Deadline deadline, String what)
                throws IOException, InterruptedException;

        /** Blocks the calling thread for {@code delay}, as the client lets its calls be interrupted or cancelled. */
        void sleep(Duration delay) throws IOException, InterruptedException;
    }

    /**
     * The asynchronous face: the client sends without holding any thread while the request is on
     * the wire, and the driver schedules its waits on {@link #timer}.
     *
     * @param <R> the response type the app gets from its client
     */
    interface Async<R> extends Exchange<R> {

        /** Sends one attempt as {@link Blocking#send} does, without holding any thread while it is on the wire. */
        CompletableFuture<? extends Attempt.Async<R>> sendAsync(AttemptHeaders headers, Duration timeout, Judge judge);

        /** Where asynchronous waits are scheduled: the client's own timer when it has one (an event loop must never block). */
        DelayScheduler timer();

        /** Where the app's future is completed, and asynchronous steps that may run the app's code go on. */
        Executor completions();

        /**
         * Whether a future the app makes from the call's future cancels the call when cancelled with {@code
         * cancel(true)} ({@link DerivedFuture}), as the client's own futures do: the JDK client's, from JDK 16 on.
         * The other faces hand the app a future or callback of their own, made from the call's internally.
         */
        default boolean madeFuturesCancelTheCall() {
            return false;
        }
    }
}

package io.apiwarden.core.engine;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.Verdict;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * What one attempt of an {@link Exchange} brought back, classified and judged: the part both
 * faces share, and how each face hands the response to the app.
 *
 * @param <R> the response type the app gets from its client
 */
public interface Attempt<R> {

    int status();

    /** The HTTP version of the response: {@code 1.0}, {@code 1.1} or {@code 2}. */
    String protocolVersion();

    /** The values of a response header, any case of its name. */
    Function<String, List<String>> headers();

    /** The response's {@code Retry-After}, or null. */
    String retryAfter();

    Verdict verdict();

    /** What the {@link Judge} decided for this response; {@link Decision#returnToApp()} when it was not asked. */
    Decision decision();

    /**
     * Whether the exchange followed a redirect itself and now manages the next hop, which the
     * driver sends with the same token as the next attempt.
     */
    default boolean followedRedirect() {
        return false;
    }

    /**
     * Whether the response can still go to the app after a refresh failed; when not (its body
     * was too long to hold), the request is sent once more, with no second refresh.
     */
    boolean canHandBack();

    /** Frees what the response holds (its connection) when it does not go to the app; never throws. */
    void discard();

    /**
     * An attempt of the blocking face ({@link Exchange.Blocking}).
     *
     * @param <R> the response type the app gets from its client
     */
    interface Blocking<R> extends Attempt<R> {
        /** The response as the app gets it, blocking until it is there. */
        R deliver() throws IOException, InterruptedException;
    }

    /**
     * An attempt of the asynchronous face ({@link Exchange.Async}).
     *
     * @param <R> the response type the app gets from its client
     */
    interface Async<R> extends Attempt<R> {
        /** The response as the app gets it, without blocking. */
        CompletionStage<R> deliverAsync();

        /**
         * The response as the app gets it when it is there at once, with no future around it (one object less per
         * call); null when it is not, and {@link #deliverAsync} hands it over.
         */
        default R deliveredNow() {
            return null;
        }
    }
}

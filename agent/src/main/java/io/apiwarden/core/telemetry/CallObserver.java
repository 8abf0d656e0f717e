package io.apiwarden.core.telemetry;

import io.apiwarden.core.classify.Verdict;

/** One logical managed call, across all its attempts and waits. */
public interface CallObserver {
    CallObserver NOOP = new CallObserver() {
        @Override
        public AttemptObserver attempt(boolean expectContinue) {
            return AttemptObserver.NOOP;
        }

        @Override
        public void end(int status, Verdict verdict, Throwable failure) {}

        @Override
        public Scope current() {
            return Scope.NONE;
        }
    };

    /** Makes the call's span the agent's current one, so that a token refresh it starts nests under it. */
    Scope current();

    /** Starts the next physical attempt; the first is attempt 0, resends count up from 1. */
    AttemptObserver attempt(boolean expectContinue);

    /**
     * The call waited {@code waited} at the gate of the API's global rate limit before its next
     * attempt; {@code first}: it then went first, its answer deciding for the others.
     */
    default void gateWaited(java.time.Duration waited, boolean first) {}

    /**
     * An answer to this call closed the gate of the API's global rate limit for {@code window}: a
     * refusal, or an answer saying nothing is left of the quota.
     */
    default void gateClosed(java.time.Duration window) {}

    /** The call's tokens are sent with {@code scheme} ({@code DPoP}); told only when it is not {@code Bearer}. */
    default void tokenScheme(String scheme) {}

    /**
     * Ends the call with what the app got: the final status and verdict, or the failure (then
     * status is 0 and verdict null).
     */
    void end(int status, Verdict verdict, Throwable failure);
}

package io.apiwarden.core.call;

import java.time.Duration;

/** What to do with a managed response. */
public final class Decision {
    /** The kind of step. */
    public enum Action {
        /** Hand the response to the app. */
        RETURN,
        /** Refresh the token (or take the one another caller already got) and resend once. */
        REFRESH_AND_RESEND,
        /**
         * Wait {@link #delay()} and resend: retry number {@link #retry()} for a global rate limit; or, when
         * {@link #resendsWithNonce()}, resend at once with the nonce the API asked for (DPoP). The client's
         * response is dropped either way.
         */
        WAIT_AND_RESEND
    }

    static final Decision RETURN = new Decision(Action.RETURN, Duration.ZERO, 0, null);
    static final Decision REFRESH = new Decision(Action.REFRESH_AND_RESEND, Duration.ZERO, 0, null);
    /**
     * The answer came from outside the API (a redirect the client followed): the app's, and it says
     * nothing about the API's rate limit either. No reason code, as for any answer the agent lets be.
     */
    static final Decision FROM_OUTSIDE_THE_API = new Decision(Action.RETURN, Duration.ZERO, 0, null);
    /**
     * One of the spec's two errors, from outside the API (a redirect the client followed took the final
     * URL out of its scope): the app's, never resent, and not the API's refusal either.
     */
    static final Decision LEFT_THE_API = notResent("left_the_api");
    /** The response goes to the app because the next wait would outlive the app's own time limit. */
    static final Decision RETURN_AT_DEADLINE = notResent("deadline");
    /** The request body cannot be sent twice. */
    static final Decision BODY_NOT_REPEATABLE = notResent("body_not_repeatable");
    /** The request body could not be sent twice and was longer than the agent records to send it again. */
    static final Decision BODY_TOO_LARGE_TO_REPLAY = notResent("body_too_large_to_replay");
    /** The request body was being recorded, but had not been sent whole when the response came. */
    static final Decision BODY_NOT_FINISHED = notResent("body_not_finished");
    /** The app set its own Authorization: a new token of the agent's would not be sent. */
    static final Decision APP_AUTHORIZATION = notResent("app_authorization");
    /** No refresh is possible: no refresh token or token endpoint, or refreshing stopped after a permanent refusal. */
    static final Decision NO_REFRESH = notResent("no_refresh");
    /** The call was refreshed and resent once already. */
    static final Decision REFRESHED_ALREADY = notResent("refreshed_already");
    /** This request was refused right after a refresh with this very token: its rights, not its age. */
    static final Decision REFUSED_FOR_RIGHTS = notResent("refused_for_rights");
    /** The rate-limit retries of the call are spent. */
    static final Decision RETRIES_SPENT = notResent("retries_spent");
    /**
     * The next wait would make the call's waits (at the gate and backing off) longer than the whole
     * back-off of one call: 2 + 4 + 8 + 16 + 32 s by default, the spec's bound.
     */
    static final Decision WAITS_SPENT = notResent("waits_spent");
    /** DPoP: the API asked for a nonce; the call is resent at once, with it, once. */
    static final Decision NONCE_RESEND = new Decision(Action.WAIT_AND_RESEND, Duration.ZERO, 0, "use_dpop_nonce");
    /** DPoP: the API asked for a nonce again, after the call was resent with one. */
    static final Decision NONCE_RESENT_ALREADY = notResent("nonce_resent_already");
    /** The JVM's rate-limit resends are spent for now ({@code apiwarden.throttle.retry-budget.*}). */
    static final Decision RETRY_BUDGET_SPENT = notResent("retry_budget");

    private final Action action;
    private final Duration delay;
    private final int retry;
    private final String reason;

    private Decision(Action action, Duration delay, int retry, String reason) {
        this.action = action;
        this.delay = delay;
        this.retry = retry;
        this.reason = reason;
    }

    private static Decision notResent(String reason) {
        return new Decision(Action.RETURN, Duration.ZERO, 0, reason);
    }

    /** Whether the answer came from outside the API: the throttle gate must not learn from it. */
    public boolean fromOutsideTheApi() {
        return this == FROM_OUTSIDE_THE_API || this == LEFT_THE_API;
    }

    /** Whether this is the one resend with the API's DPoP nonce: at once, with the same token, not a rate-limit retry. */
    public boolean resendsWithNonce() {
        return this == NONCE_RESEND;
    }

    /** The response goes to the app. */
    public static Decision returnToApp() {
        return RETURN;
    }

    static Decision waitAndResend(Duration delay, int retry, String reason) {
        return new Decision(Action.WAIT_AND_RESEND, delay, retry, reason);
    }

    public Action action() {
        return action;
    }

    public Duration delay() {
        return delay;
    }

    /** The 1-based retry number of a wait; 0 otherwise. */
    public int retry() {
        return retry;
    }

    /**
     * Why the wait is as long as it is ({@code backoff} or {@code retry-after}); for a response
     * of the spec's two errors that goes to the app, why it was not resent ({@code deadline},
     * {@code refused_for_rights}, ...: see {@code docs/telemetry.md}); null otherwise.
     */
    public String reason() {
        return reason;
    }

    @Override
    public String toString() {
        return this == NONCE_RESEND
                ? "RESEND(use_dpop_nonce)"
                : action == Action.WAIT_AND_RESEND
                        ? action + "(retry " + retry + " after " + delay + ", " + reason + ")"
                        : action.toString();
    }
}

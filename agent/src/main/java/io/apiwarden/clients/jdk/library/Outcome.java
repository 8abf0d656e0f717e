package io.apiwarden.clients.jdk.library;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.Verdict;
import java.net.http.HttpResponse.ResponseInfo;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * What one attempt produced, in place of the app's body type: either the app's body (the
 * response goes to the app), or a decision to resend, with the error body held back when the
 * app may still need it (a refresh that fails hands the app the original response).
 */
final class Outcome<T> {
    final Verdict verdict;
    final Decision decision;
    /** The app's body, when {@link #delivered}. */
    final T body;

    final boolean delivered;
    /** The response line and headers, for a later replay. */
    final ResponseInfo info;
    /**
     * The error body held back for a later replay, or null. Null after a refresh decision means
     * the body was too long to hold: should the refresh fail, the request is sent once more
     * (with no second refresh) so that the app gets the API's answer whole.
     */
    final List<List<ByteBuffer>> held;
    /** Where to follow a redirect hop, or null. */
    final RedirectRule.Hop redirect;

    private Outcome(
            Verdict verdict,
            Decision decision,
            T body,
            boolean delivered,
            ResponseInfo info,
            List<List<ByteBuffer>> held,
            RedirectRule.Hop redirect) {
        this.verdict = verdict;
        this.decision = decision;
        this.body = body;
        this.delivered = delivered;
        this.info = info;
        this.held = held;
        this.redirect = redirect;
    }

    static <T> Outcome<T> delivered(Verdict verdict, T body) {
        return new Outcome<>(verdict, null, body, true, null, null, null);
    }

    static <T> Outcome<T> resend(Verdict verdict, Decision decision, ResponseInfo info, List<List<ByteBuffer>> held) {
        return new Outcome<>(verdict, decision, null, false, info, held, null);
    }

    static <T> Outcome<T> redirect(RedirectRule.Hop hop) {
        return new Outcome<>(Verdict.SUCCESS, null, null, false, null, null, hop);
    }
}

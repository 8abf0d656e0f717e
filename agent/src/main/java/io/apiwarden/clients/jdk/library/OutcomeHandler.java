package io.apiwarden.clients.jdk.library;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.ResponseClassifier;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.log.AgentLog;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscriber;
import java.net.http.HttpResponse.BodySubscribers;
import java.net.http.HttpResponse.ResponseInfo;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * Wraps the app's {@link BodyHandler} for one attempt of a managed call.
 *
 * <p>A success streams straight into the app's own subscriber. An error whose meaning status and
 * headers settle is either handed to the app (when it is final) or drained (when it is resent).
 * Only an error whose body may change the verdict, or one that a refresh may still hand back to
 * the app, is read into memory, and at most {@link ResponseClassifier#BODY_PEEK_LIMIT} of it, for at most
 * {@code apiwarden.classify.max-body-wait}.
 */
final class OutcomeHandler<T> implements BodyHandler<Outcome<T>> {
    private final BodyHandler<T> app;
    private final ResponseClassifier classifier;
    private final Judge decider;
    /** How the app's client follows redirects, or null when the JDK does it (or nobody does). */
    private final RedirectRule redirects;

    private final String method;
    private final java.net.URI uri;
    /** The bound on holding an error body ({@link io.apiwarden.core.engine.BodyPeek}). */
    private final Duration bodyWait;

    OutcomeHandler(
            BodyHandler<T> app,
            ResponseClassifier classifier,
            Judge decider,
            RedirectRule redirects,
            String method,
            java.net.URI uri,
            Duration bodyWait) {
        this.app = app;
        this.classifier = classifier;
        this.decider = decider;
        this.redirects = redirects;
        this.method = method;
        this.uri = uri;
        this.bodyWait = bodyWait;
    }

    @Override
    public BodySubscriber<Outcome<T>> apply(ResponseInfo info) {
        Verdict verdict;
        Decision decision = null;
        RedirectRule.Hop hop = null;
        try {
            verdict = classifier.fromHead(info.statusCode(), new HeaderValues(info.headers()));
            if (verdict == Verdict.SUCCESS && redirects != null) {
                hop = redirects.hop(info.statusCode(), info.headers(), uri, method);
            } else if (verdict != null && verdict != Verdict.SUCCESS) {
                decision = decider.decide(verdict, retryAfter(info));
            }
        } catch (RuntimeException e) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "outcome-handler",
                    "a response could not be classified; it goes to the app as is",
                    e);
            return deliver(info, Verdict.SUCCESS);
        }
        // The app's own handler is called outside the guard: what it throws is the app's to see, once.
        if (hop != null) {
            return BodySubscribers.replacing(Outcome.redirect(hop));
        }
        if (verdict == Verdict.SUCCESS) {
            return deliver(info, verdict);
        }
        if (verdict == null) {
            return new PeekingSubscriber<>(info, app, classifier, decider, null, bodyWait);
        }
        switch (decision.action()) {
            case WAIT_AND_RESEND:
                return BodySubscribers.replacing(Outcome.resend(verdict, decision, info, null));
            case REFRESH_AND_RESEND:
                return new PeekingSubscriber<>(
                        info, app, classifier, decider, Outcome.resend(verdict, decision, info, null), bodyWait);
            default:
                return deliver(info, verdict);
        }
    }

    /** The response's {@code Retry-After}, or null. */
    static String retryAfter(ResponseInfo info) {
        return firstValue(info.headers(), "Retry-After");
    }

    /** The first value of a header, or null: the JDK's {@code firstValue} makes a stream and an optional per look. */
    static String firstValue(HttpHeaders headers, String name) {
        List<String> values = headers.allValues(name);
        return values.isEmpty() ? null : values.get(0);
    }

    private BodySubscriber<Outcome<T>> deliver(ResponseInfo info, Verdict verdict) {
        return BodySubscribers.mapping(app.apply(info), new Delivered<T>(verdict));
    }

    /** The app's body as the attempt's outcome; a class, not a lambda, for the reason {@link HeaderValues} gives. */
    private static final class Delivered<T> implements Function<T, Outcome<T>> {
        private final Verdict verdict;

        Delivered(Verdict verdict) {
            this.verdict = verdict;
        }

        @Override
        public Outcome<T> apply(T body) {
            return Outcome.delivered(verdict, body);
        }
    }
}

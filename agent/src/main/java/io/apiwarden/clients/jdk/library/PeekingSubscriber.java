package io.apiwarden.clients.jdk.library;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.ResponseClassifier;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.engine.BodyPeek;
import io.apiwarden.core.engine.Judge;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscriber;
import java.net.http.HttpResponse.ResponseInfo;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Reads an error body into memory, bounded by {@link ResponseClassifier#BODY_PEEK_LIMIT}.
 *
 * <p>Two uses: to classify an error whose status and headers did not settle its meaning
 * ({@code pending == null}), and to hold the body of a response that will be resent after a
 * refresh, in case the refresh fails and the app must get it after all. A body to classify
 * that outgrows the bound goes to the app, which gets every byte: first the ones read, then the
 * rest. A held body that outgrows it is cut: the call is resent after the refresh all the same,
 * and if the refresh fails the call asks the API once more for the app (see {@link Outcome#held}).
 * A body not whole within the bound on holding an error body ({@link BodyPeek}) is treated as one
 * that outgrew the size bound: the app gets the head of a slow error at once, judged by its status.
 */
final class PeekingSubscriber<T> implements BodySubscriber<Outcome<T>> {
    private final ResponseInfo info;
    private final BodyHandler<T> app;
    private final ResponseClassifier classifier;
    private final Judge decider;
    private final Outcome<T> pending;
    private final CompletableFuture<Outcome<T>> result = new CompletableFuture<>();
    private final List<List<ByteBuffer>> chunks = new ArrayList<>();
    private long size;
    private Flow.Subscription upstream;
    private RelaySubscription passThrough;
    /** The body of a response that is resent anyway was too long to hold: the rest is not read. */
    private boolean cut;

    private final BodyPeek.Watch watch;

    /**
     * @param pending the outcome already decided (a refresh) whose body is to be held, or null to classify from the body
     */
    PeekingSubscriber(
            ResponseInfo info,
            BodyHandler<T> app,
            ResponseClassifier classifier,
            Judge decider,
            Outcome<T> pending,
            Duration bodyWait) {
        this.info = info;
        this.app = app;
        this.classifier = classifier;
        this.decider = decider;
        this.pending = pending;
        this.watch = BodyPeek.Watch.start(bodyWait);
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        upstream = subscription;
        subscription.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> item) {
        if (cut) {
            return;
        }
        if (passThrough != null) {
            passThrough.onUpstreamNext(item);
            return;
        }
        chunks.add(item);
        for (ByteBuffer b : item) {
            size += b.remaining();
        }
        boolean tooLong = size > ResponseClassifier.BODY_PEEK_LIMIT || watch.over();
        if (tooLong && pending != null) {
            // A refresh and resend are decided whatever the body says: holding it was only for a
            // refresh that fails, and a body this long (or slow) is not held. The call then asks the API again.
            cut = true;
            chunks.clear();
            upstream.cancel();
            result.complete(Outcome.resend(pending.verdict, pending.decision, info, null));
            return;
        }
        if (tooLong) {
            // Too long (or slow) to hold: the body rules cannot apply, and the response is final.
            Verdict verdict = pending != null ? pending.verdict : classifier.fromStatus(info.statusCode());
            if (pending == null) {
                decider.decide(verdict, OutcomeHandler.retryAfter(info));
            }
            BodySubscriber<T> appSubscriber = app.apply(info);
            passThrough = new RelaySubscription(appSubscriber, new ArrayList<>(chunks), upstream);
            chunks.clear();
            appSubscriber.getBody().whenComplete((body, failure) -> {
                if (failure != null) {
                    result.completeExceptionally(failure);
                } else {
                    result.complete(Outcome.delivered(verdict, body));
                }
            });
            passThrough.start();
            return;
        }
        upstream.request(1);
    }

    @Override
    public void onError(Throwable throwable) {
        if (cut) {
            return;
        }
        if (passThrough != null) {
            passThrough.onUpstreamError(throwable);
        } else {
            result.completeExceptionally(throwable);
        }
    }

    @Override
    public void onComplete() {
        if (cut) {
            return;
        }
        if (passThrough != null) {
            passThrough.onUpstreamComplete();
            return;
        }
        try {
            if (pending != null) {
                result.complete(Outcome.resend(pending.verdict, pending.decision, info, chunks));
                return;
            }
            Verdict verdict = classifier.fromBody(info.statusCode(), bytes(), (int) size);
            Decision decision = decider.decide(verdict, OutcomeHandler.retryAfter(info));
            if (decision.action() == Decision.Action.RETURN) {
                replay(app, info, chunks).whenComplete((body, failure) -> {
                    if (failure != null) {
                        result.completeExceptionally(failure);
                    } else {
                        result.complete(Outcome.delivered(verdict, body));
                    }
                });
            } else {
                result.complete(Outcome.resend(
                        verdict,
                        decision,
                        info,
                        decision.action() == Decision.Action.REFRESH_AND_RESEND ? chunks : null));
            }
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
    }

    @Override
    public CompletionStage<Outcome<T>> getBody() {
        return result;
    }

    /** Feeds a held body into a fresh subscriber of the app's handler. */
    static <T> CompletionStage<T> replay(BodyHandler<T> app, ResponseInfo info, List<List<ByteBuffer>> body) {
        BodySubscriber<T> subscriber = app.apply(info);
        new RelaySubscription(subscriber, body, null).start();
        return subscriber.getBody();
    }

    private byte[] bytes() {
        byte[] all = new byte[(int) size];
        int at = 0;
        for (List<ByteBuffer> item : chunks) {
            for (ByteBuffer b : item) {
                ByteBuffer view = b.duplicate();
                int n = view.remaining();
                view.get(all, at, n);
                at += n;
            }
        }
        return all;
    }
}

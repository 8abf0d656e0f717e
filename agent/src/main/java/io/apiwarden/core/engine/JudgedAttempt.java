package io.apiwarden.core.engine;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.classify.Verdict;

/**
 * The part of an {@link Attempt} every adapter shares: the verdict on its response and the
 * decision about it, asked of the {@link Judge} in one way. An adapter says how its client reads a
 * response's head ({@link #status}, {@link #headers}, {@link #retryAfter}) and, when it must, a
 * prefix of its body; this keeps what the engine made of them.
 *
 * @param <R> the response type the app gets from its client
 */
public abstract class JudgedAttempt<R> implements Attempt<R> {
    // Volatile: an asynchronous client may judge on one thread what the engine reads on another.
    private volatile Verdict verdict;
    private volatile Decision decision;

    /**
     * Classifies the response from its head (and {@code body}, when the head leaves the verdict
     * open) and decides about it, weighing what the adapter saw {@code wire}. Called once the
     * adapter can read the head.
     */
    protected final void judge(Judge judge, Judge.BodyPrefix body, OnTheWire wire) {
        Verdict v = judge.classify(status(), headers(), body);
        verdict = v;
        decision = judge.decide(v, retryAfter(), wire);
    }

    /** Keeps a verdict and decision reached elsewhere (as the response arrived, or as the agent failed). */
    protected final void judged(Verdict verdict, Decision decision) {
        this.verdict = verdict;
        this.decision = decision;
    }

    @Override
    public final Verdict verdict() {
        return verdict;
    }

    /** Null until judged. */
    @Override
    public final Decision decision() {
        return decision;
    }

    /** True unless the adapter can lose the response while it is held (a body too long to hold). */
    @Override
    public boolean canHandBack() {
        return true;
    }
}

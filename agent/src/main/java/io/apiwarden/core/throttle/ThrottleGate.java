package io.apiwarden.core.throttle;

import io.apiwarden.core.time.DelayScheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The API's rate limit is global: once one call is refused, every call is refused until the window
 * ends. This gate makes the JVM's calls act on that: closed for the window, the calls that start
 * wait here instead of being sent; when the window ends, one call goes first (a retry that is due,
 * else the call that has waited longest); its answer opens the gate for everyone, or a refusal
 * closes it for the next window.
 *
 * <ul>
 *   <li>Open, {@link #enter} costs one volatile read and returns a shared, completed pass.
 *   <li>A call waiting here has not been refused: its retries are not spent. It never waits
 *       longer than it may ({@code mayWait}: what is left of its whole back-off and of the app's
 *       own time limit), then goes to the API itself; a call that cannot wait out the window goes
 *       at once, and gets the API's answer rather than a time-out here.
 *   <li>A window is never longer than {@code longestWindow} ({@code apiwarden.backoff.max-delay}),
 *       whoever claims it (a refusal's {@code Retry-After}, an exhausted {@code RateLimit} header,
 *       another JVM of the fleet): no header or message closes the gate for a day or a year. And
 *       the API's answer to a call that went through while the gate was closed opens it at once:
 *       the API has just shown that the window was not what it was said to be.
 *   <li>Waiting holds no thread: a pass is a future, completed by whoever opens the gate or by the
 *       scheduler. Cancelling that future gives up the place.
 * </ul>
 * Every pass that was given must be reported back once: {@link #refused}, {@link #answered} or
 * {@link #abandoned}; a pass given by an open gate needs it only when the answer closes the gate.
 */
public final class ThrottleGate {
    /** A call's way through the gate: how long it waited, and whether it goes first after a window. */
    public static final class Pass {
        private final boolean first;
        private final Duration waited;
        /** Which closing of the gate this pass went through; {@link #NOT_CLOSED} for the open gate's. */
        private final long closing;

        Pass(boolean first, Duration waited, long closing) {
            this.first = first;
            this.waited = waited;
            this.closing = closing;
        }

        /** Whether this call was sent first after a window, its answer deciding for the others. */
        public boolean first() {
            return first;
        }

        /** How long it waited at the gate. */
        public Duration waited() {
            return waited;
        }

        @Override
        public String toString() {
            return "Pass{" + (first ? "first, " : "") + "waited " + waited.toMillis() + " ms}";
        }
    }

    private static final long NOT_CLOSED = -1;
    private static final Pass OPEN = new Pass(false, Duration.ZERO, NOT_CLOSED);
    private static final CompletableFuture<Pass> OPEN_NOW = CompletableFuture.completedFuture(OPEN);

    private final Clock clock;
    private final DelayScheduler scheduler;
    private final Duration longestWindow;
    private final Object lock = new Object();

    /** The hot path's only read: false while no window is known. */
    private volatile boolean closed;

    private Instant opensAt = Instant.MIN;
    /**
     * Counts the refusals and announcements that closed the gate or held it closed. A pass
     * remembers the count it was given under, so that an answer can tell whether its call was sent
     * after the latest of them (it then speaks for the window) or before (a late answer, which does not).
     */
    private long closings;
    /** When the latest of those came: every call sent before it was sent no later. */
    private Instant lastClosedAt = Instant.MIN;

    private Pass firstInFlight;
    /**
     * Whether a timer is set for the end of the window. Only calls waiting here need one: a refused
     * call comes back by its own back-off, so a JVM with one caller never sets a timer at all.
     */
    private boolean windowTimerSet;

    private DelayScheduler.Scheduled windowEnd;
    /** Retries whose own wait is over go before calls that have not been sent yet. */
    private final Deque<Waiter> retries = new ArrayDeque<>();

    private final Deque<Waiter> fresh = new ArrayDeque<>();

    /**
     * @param longestWindow the longest any window closes the gate ({@code apiwarden.backoff.max-delay}):
     *                      a longer claim is cut to it
     */
    public ThrottleGate(Clock clock, DelayScheduler scheduler, Duration longestWindow) {
        if (longestWindow.isNegative()) {
            throw new IllegalArgumentException("the longest window of a throttle gate cannot be negative");
        }
        this.clock = clock;
        this.scheduler = scheduler;
        this.longestWindow = longestWindow;
    }

    /**
     * A call that has not been sent yet asks to go.
     *
     * @param mayWait the longest this call may wait here: what is left of its whole back-off and of
     *                the app's own time limit for it. A call that cannot wait out the window goes at once.
     */
    public CompletableFuture<Pass> enter(Duration mayWait) {
        return closed ? join(false, mayWait) : OPEN_NOW;
    }

    /** A refused call whose own back-off is over asks to go again; {@code mayWait} as for {@link #enter}. */
    public CompletableFuture<Pass> enterRetry(Duration mayWait) {
        return closed ? join(true, mayWait) : OPEN_NOW;
    }

    /**
     * The API refused {@code pass}'s call for the global rate limit: closed for {@code window} from
     * now (the server's {@code Retry-After}, else the refused call's own back-off).
     *
     * <p>A late refusal, of a call sent before the gate last closed, whose window counted from that
     * closing ends no later than the gate does, says nothing new and leaves the gate as it is, as a late
     * success does: had the call been refused as it was sent, its window would be over by then. Taking
     * the later end of every overlapping refusal instead held the gate past the limit's end by the
     * latency of the calls in flight plus the rounding of the server's whole seconds, window after
     * window, until calls held there spent their whole back-off; and a straggler refused just after the
     * window's end closed it again. Should the gate's end be too early, the one call that goes first is
     * refused and closes the gate again. A late refusal with a longer window closes it as any other.
     *
     * @return the window the gate closed for: {@code window}, cut to the longest one; null for a late
     *         refusal, which left the gate as it was
     */
    public Duration refused(Pass pass, Duration window) {
        Duration closedFor = bounded(window);
        List<Waiter> release;
        synchronized (lock) {
            if (pass == firstInFlight) {
                firstInFlight = null;
            }
            Instant now = clock.instant();
            boolean late = closed
                    && pass != null
                    && pass.closing != closings
                    && !lastClosedAt.plus(closedFor).isAfter(opensAt);
            if (late) {
                closedFor = null;
            } else {
                closeUntil(now, closedFor);
            }
            release = releaseFirstIfDue();
        }
        complete(release);
        armWindowTimer();
        return closedFor;
    }

    /**
     * The API answered {@code pass}'s call without a rate-limit refusal. When the answer announced
     * that nothing remains of the window, {@code exhaustedFor} is how long until it resets (else null):
     * the gate closes for it before anyone is refused. {@code pass} is null for a call that went without
     * one (its wait here ended with the app's time limit): its answer speaks only once the window is over.
     *
     * @return the window the gate closed for ({@code exhaustedFor}, cut to the longest one), or null
     */
    public Duration answered(Pass pass, Duration exhaustedFor) {
        Duration closedFor = exhaustedFor == null || exhaustedFor.isNegative() || exhaustedFor.isZero()
                ? null
                : bounded(exhaustedFor);
        if (!closed && closedFor == null) {
            return null;
        }
        List<Waiter> release;
        synchronized (lock) {
            Instant now = clock.instant();
            if (pass == firstInFlight) {
                firstInFlight = null;
            }
            if (closedFor != null) {
                closeUntil(now, closedFor);
                release = releaseFirstIfDue();
            } else if (!now.isBefore(opensAt) || (pass != null && pass != OPEN && pass.closing == closings)) {
                // An answer after the window ended, whoever sent it, or to a call sent through the gate
                // since it last closed: the limit has let go, whatever the window was said to be.
                release = open();
            } else {
                // Sent before the gate closed and answered late: says nothing about the window.
                release = List.of();
            }
        }
        complete(release);
        armWindowTimer();
        return closedFor;
    }

    /**
     * Another JVM of the fleet was refused: the limit holds for {@code window} more. Closes the gate
     * as this JVM's own refusal would, without one of its calls having been refused.
     *
     * @return the window the gate closed for ({@code window}, cut to the longest one), or null when
     *         there was none to close for
     */
    public Duration heard(Duration window) {
        if (window.isNegative() || window.isZero()) {
            return null;
        }
        Duration closedFor = bounded(window);
        List<Waiter> release;
        synchronized (lock) {
            closeUntil(clock.instant(), closedFor);
            release = releaseFirstIfDue();
        }
        complete(release);
        armWindowTimer();
        return closedFor;
    }

    /** {@code window}, no longer than the longest window the gate closes for. */
    private Duration bounded(Duration window) {
        return window.compareTo(longestWindow) > 0 ? longestWindow : window;
    }

    /** {@code pass}'s call ended with no answer (an I/O failure, cancelled): another call goes first instead. */
    public void abandoned(Pass pass) {
        if (pass == OPEN) {
            return;
        }
        List<Waiter> release;
        synchronized (lock) {
            if (pass != firstInFlight) {
                return;
            }
            firstInFlight = null;
            release = releaseFirstIfDue();
        }
        complete(release);
        armWindowTimer();
    }

    /** Whether calls wait here now (a window is known, or its first call is out). */
    public boolean isClosed() {
        return closed;
    }

    /** When the known window ends; {@link Instant#MIN} when none is. */
    public Instant opensAt() {
        synchronized (lock) {
            return opensAt;
        }
    }

    /** How many calls wait here now. */
    public int waiting() {
        synchronized (lock) {
            return retries.size() + fresh.size();
        }
    }

    private CompletableFuture<Pass> join(boolean retry, Duration mayWait) {
        Waiter w;
        synchronized (lock) {
            if (!closed) {
                return OPEN_NOW;
            }
            Instant now = clock.instant();
            if (!now.isBefore(opensAt) && firstInFlight == null) {
                firstInFlight = new Pass(true, Duration.ZERO, closings);
                return CompletableFuture.completedFuture(firstInFlight);
            }
            if (mayWait.isNegative() || mayWait.isZero() || opensAt.isAfter(now.plus(mayWait))) {
                // Waiting would end in a time-out here, or at the same refusal later: the API answers now.
                return CompletableFuture.completedFuture(new Pass(false, Duration.ZERO, closings));
            }
            w = new Waiter(now);
            (retry ? retries : fresh).addLast(w);
        }
        // Outside the lock: a scheduler that runs the task at once must not find the lock held.
        armWindowTimer();
        w.timeout = scheduler.schedule(mayWait, () -> waitedLongest(w));
        if (w.future.isDone()) {
            // Released before its timer was set.
            cancelTimeout(w);
        }
        w.future.whenComplete((p, failure) -> {
            if (w.future.isCancelled()) {
                giveUp(w);
            }
        });
        return w.future;
    }

    private void waitedLongest(Waiter w) {
        long closing;
        synchronized (lock) {
            if (!retries.remove(w) && !fresh.remove(w)) {
                return;
            }
            // Read with the removal: a refusal in between would make the pass look sent after it.
            closing = closings;
        }
        // It goes to the API itself; its answer counts like any other.
        w.future.complete(new Pass(false, Duration.between(w.since, clock.instant()), closing));
    }

    private void giveUp(Waiter w) {
        synchronized (lock) {
            retries.remove(w);
            fresh.remove(w);
        }
        cancelTimeout(w);
    }

    /** Under the lock. A timer already set fires early and sets itself again for the rest. */
    private void closeUntil(Instant now, Duration window) {
        Instant until = now.plus(window);
        if (until.isAfter(opensAt)) {
            opensAt = until;
        }
        lastClosedAt = now;
        closings++;
        closed = true;
    }

    /** Sets a timer for the end of the window, unless one is set or nobody waits. */
    private void armWindowTimer() {
        Duration wait;
        synchronized (lock) {
            wait = Duration.between(clock.instant(), opensAt);
            // A window that is over needs no timer: its first call's answer, or the next call to come, moves things on.
            if (windowTimerSet
                    || !closed
                    || wait.isNegative()
                    || wait.isZero()
                    || (retries.isEmpty() && fresh.isEmpty())) {
                return;
            }
            windowTimerSet = true;
        }
        DelayScheduler.Scheduled t = scheduler.schedule(wait, this::windowEnded);
        synchronized (lock) {
            windowEnd = windowTimerSet ? t : null;
        }
    }

    private void windowEnded() {
        List<Waiter> release;
        synchronized (lock) {
            windowTimerSet = false;
            windowEnd = null;
            release = releaseFirstIfDue();
        }
        complete(release);
        // The window grew while the timer ran, or the call that went first was refused: wait for the next end.
        armWindowTimer();
    }

    /** Under the lock: when the window is over and no call is out first, the next waiter goes. */
    private List<Waiter> releaseFirstIfDue() {
        Instant now = clock.instant();
        if (!closed || now.isBefore(opensAt) || firstInFlight != null) {
            return List.of();
        }
        Waiter next = retries.isEmpty() ? fresh.pollFirst() : retries.pollFirst();
        if (next == null) {
            // No one waits: the next call to come goes first.
            return List.of();
        }
        firstInFlight = new Pass(true, Duration.between(next.since, now), closings);
        next.pass = firstInFlight;
        return List.of(next);
    }

    /** Under the lock: open for everyone. */
    private List<Waiter> open() {
        closed = false;
        opensAt = Instant.MIN;
        firstInFlight = null;
        if (windowEnd != null) {
            windowEnd.cancel();
            windowEnd = null;
        }
        windowTimerSet = false;
        List<Waiter> all = new ArrayList<>(retries.size() + fresh.size());
        all.addAll(retries);
        all.addAll(fresh);
        retries.clear();
        fresh.clear();
        Instant now = clock.instant();
        for (Waiter w : all) {
            w.pass = new Pass(false, Duration.between(w.since, now), NOT_CLOSED);
        }
        return all;
    }

    /** Outside the lock: the callers' continuations may run right here. */
    private void complete(List<Waiter> released) {
        for (Waiter w : released) {
            cancelTimeout(w);
            if (!w.future.complete(w.pass) && w.pass.first) {
                // Cancelled in the meantime: someone else must go first.
                abandoned(w.pass);
            }
        }
    }

    private static void cancelTimeout(Waiter w) {
        DelayScheduler.Scheduled t = w.timeout;
        if (t != null) {
            t.cancel();
        }
    }

    private static final class Waiter {
        final Instant since;
        final CompletableFuture<Pass> future = new CompletableFuture<>();
        volatile DelayScheduler.Scheduled timeout;
        Pass pass;

        Waiter(Instant since) {
            this.since = since;
        }
    }

    @Override
    public String toString() {
        synchronized (lock) {
            return "ThrottleGate{" + (closed ? "closed until " + opensAt : "open") + ", waiting "
                    + (retries.size() + fresh.size()) + "}";
        }
    }
}

package io.apiwarden.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.core.Warden;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.RecordingTelemetry;
import io.apiwarden.testing.TestWardens;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The asynchronous face's own objects: the call's future that ends the call however it is completed, and the
 * attempt's future that hands its outcome straight to the next step ({@link HandOverFuture}).
 */
class AsyncRunTest {
    private static final String RATE_LIMIT = "API rate limit exceeded (global)";

    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTimer scheduler = FakeTimer.onTestTime(clock);
    private final RecordingTelemetry telemetry = new RecordingTelemetry();
    private final FakeExchange client = new FakeExchange(scheduler);

    private CompletableFuture<FakeExchange.Reply> runAsync() {
        Warden warden = new Warden(
                TestWardens.config(
                        "apiwarden.base-url", "https://api.example/v1",
                        "apiwarden.refresh-token", "refresh-0",
                        "apiwarden.token-url", "https://auth.example/token",
                        "apiwarden.access-token", "access-0"),
                new FakeTokenEndpoint(),
                scheduler,
                clock,
                telemetry);
        return new CallDriver<FakeExchange.Reply>(
                        warden, CallTarget.of("GET", URI.create("https://api.example/v1/items")), null)
                .runAsync(client);
    }

    @Test
    void anAttemptIsHandedOverOnceWhetherItSettlesBeforeOrAfter() {
        List<String> seen = new ArrayList<>();
        HandOverFuture<String> early = new HandOverFuture<>() {};
        early.complete("early");
        HandOverFuture.handOver(early, (a, e) -> seen.add(a));
        HandOverFuture<String> late = new HandOverFuture<>() {};
        HandOverFuture.handOver(late, (a, e) -> seen.add(a));
        late.complete("late");
        late.complete("again");

        assertThat(seen).containsExactly("early", "late");
    }

    @Test
    void aFailureIsHandedOverAsItWasGivenAndACancelAsACancellation() {
        List<Throwable> seen = new ArrayList<>();
        IOException refused = new IOException("refused");
        HandOverFuture<String> failed = new HandOverFuture<>() {};
        HandOverFuture.handOver(failed, (a, e) -> seen.add(e));
        failed.completeExceptionally(refused);
        HandOverFuture<String> cancelled = new HandOverFuture<>() {};
        HandOverFuture.handOver(cancelled, (a, e) -> seen.add(e));
        cancelled.cancel(true);
        cancelled.complete("too late");

        assertThat(seen).hasSize(2);
        assertThat(seen.get(0)).isSameAs(refused);
        assertThat(seen.get(1)).isInstanceOf(CancellationException.class);
    }

    @Test
    void aSecondStepAndAPlainFutureGoThroughWhenComplete() {
        List<String> seen = new ArrayList<>();
        HandOverFuture<String> twice = new HandOverFuture<>() {};
        HandOverFuture.handOver(twice, (a, e) -> seen.add("first " + a));
        HandOverFuture.handOver(twice, (a, e) -> seen.add("second " + a));
        twice.complete("done");
        CompletableFuture<String> plain = new CompletableFuture<>();
        HandOverFuture.handOver(plain, (a, e) -> seen.add("plain " + a));
        plain.complete("done");

        assertThat(seen).containsExactlyInAnyOrder("first done", "second done", "plain done");
    }

    @Test
    void aStepThatThrowsStopsNeitherTheCompletionNorTheCallsEnd() throws Exception {
        client.wire = new CompletableFuture<>();
        client.reply(200, "done");

        CompletableFuture<FakeExchange.Reply> result = runAsync();
        HandOverFuture.handOver(result, (r, e) -> {
            throw new IllegalStateException("the app's subscriber failed");
        });
        client.wire.complete(null);

        assertThat(result.get().body).isEqualTo("done");
        assertThat(telemetry.ended).containsExactly("200 SUCCESS");
    }

    @Test
    void attemptsThatArePlainFuturesAreHandedOverThroughWhenComplete() throws Exception {
        client.plainAttemptFutures = true;
        client.reply(429, RATE_LIMIT).reply(200, "done");

        CompletableFuture<FakeExchange.Reply> result = runAsync();
        scheduler.runDue();

        assertThat(result.get().body).isEqualTo("done");
        assertThat(telemetry.ended).containsExactly("200 SUCCESS");
    }

    @Test
    void cancellingTheCallEndsTheAttemptInFlightAndTheCallOnce() {
        client.wire = new CompletableFuture<>();
        client.reply(200, "late");

        CompletableFuture<FakeExchange.Reply> result = runAsync();
        result.cancel(true);
        result.cancel(true);
        client.wire.complete(null);

        assertThat(telemetry.attemptsFailed).containsExactly("CancellationException");
        assertThat(telemetry.ended).containsExactly("failed CancellationException");
    }

    @Test
    void theAppCompletingTheCallsFutureItselfEndsTheCallOnce() throws Exception {
        client.wire = new CompletableFuture<>();
        client.reply(200, "from the API");

        CompletableFuture<FakeExchange.Reply> byTheApp = runAsync();
        byTheApp.completeAsync(() -> new FakeExchange.Reply(204, java.util.Map.of(), "the app's"), Runnable::run);
        client.wire.complete(null);

        assertThat(byTheApp.get().body).isEqualTo("the app's");
        assertThat(telemetry.ended).containsExactly("204 SUCCESS");
        assertThat(client.discarded)
                .as("the API's late answer is let go, never handed over")
                .singleElement()
                .satisfies(late -> assertThat(late.body).isEqualTo("from the API"));
    }

    @Test
    void aStepThatThrowsAnErrorStillEndsTheCall() throws Exception {
        client.wire = new CompletableFuture<>();
        client.reply(200, "done");

        CompletableFuture<FakeExchange.Reply> result = runAsync();
        HandOverFuture.handOver(result, (r, e) -> {
            throw new AssertionError("the app's subscriber failed badly");
        });
        client.wire.complete(null);

        assertThat(result.get().body).isEqualTo("done");
        assertThat(telemetry.ended).containsExactly("200 SUCCESS");
    }

    @Test
    void cancellingAFutureMadeFromTheCallsCancelsTheCallAsTheJdkClientsOwnFuturesDo() {
        client.wire = new CompletableFuture<>();
        client.reply(200, "late");

        client.madeFuturesCancelTheCall = true;

        CompletableFuture<FakeExchange.Reply> call = runAsync();
        CompletableFuture<String> body = call.thenApply(r -> r.body).thenApply(String::trim);
        assertThat(body.cancel(true)).isTrue();
        client.wire.complete(null);

        assertThat(body.isCancelled()).isTrue();
        assertThat(call.isCancelled()).isTrue();
        assertThat(telemetry.attemptsFailed).containsExactly("CancellationException");
        assertThat(telemetry.ended).containsExactly("failed CancellationException");
    }

    @Test
    void aMadeFutureCancelledOnAFaceWhoseClientDoesNotPassItOnLeavesTheCallGoing() throws Exception {
        client.wire = new CompletableFuture<>();
        client.reply(200, "done");

        CompletableFuture<FakeExchange.Reply> call = runAsync();
        call.thenApply(r -> r.body).cancel(true);
        client.wire.complete(null);

        assertThat(call.get().body).isEqualTo("done");
        assertThat(telemetry.ended).containsExactly("200 SUCCESS");
    }

    @Test
    void cancellingAMadeFutureWithoutInterruptingLeavesTheCallGoing() throws Exception {
        client.reply(200, "done");
        client.wire = new CompletableFuture<>();
        client.madeFuturesCancelTheCall = true;

        CompletableFuture<FakeExchange.Reply> call = runAsync();
        CompletableFuture<String> body = call.thenApply(r -> r.body);
        body.cancel(false);
        // Cancelled already: a later cancel(true) of it is no cancel of a pending future, and passes nothing on.
        body.cancel(true);
        client.wire.complete(null);

        assertThat(call.get().body).isEqualTo("done");
        assertThat(telemetry.ended).containsExactly("200 SUCCESS");
    }

    @Test
    void aValueCannotBeForcedIntoTheCallsFutureAsWithTheJdkClientsOwn() {
        CompletableFuture<FakeExchange.Reply> result = runAsync();

        assertThatThrownBy(() -> result.obtrudeValue(null)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> result.obtrudeException(new IOException()))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}

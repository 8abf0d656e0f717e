package io.apiwarden.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.core.Warden;
import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.token.TokenRefreshException;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.RecordingTelemetry;
import io.apiwarden.testing.TestWardens;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The engine on its own, through an in-memory client: every rule of a managed call, on both
 * faces, with the clock and the timer in the test's hands (nothing ever waits).
 */
class CallDriverTest {
    private static final String INVALID_TOKEN = "{\"message\":\"OAuth invalid token\"}";
    private static final String RATE_LIMIT = "API rate limit exceeded (global)";

    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTimer scheduler = FakeTimer.onTestTime(clock);
    private final FakeTokenEndpoint tokens = new FakeTokenEndpoint();
    private final RecordingTelemetry telemetry = new RecordingTelemetry();
    private final FakeExchange client = new FakeExchange(scheduler);

    private Warden warden(String... extra) {
        String[] props = new String[8 + extra.length];
        String[] base = {
            "apiwarden.base-url",
            "https://api.example/v1",
            "apiwarden.refresh-token",
            "refresh-0",
            "apiwarden.token-url",
            "https://auth.example/token",
            "apiwarden.access-token",
            "access-0"
        };
        System.arraycopy(base, 0, props, 0, 8);
        System.arraycopy(extra, 0, props, 8, extra.length);
        return new Warden(TestWardens.config(props), tokens, scheduler, clock, telemetry);
    }

    private CallDriver<FakeExchange.Reply> call(Warden warden, Duration appTimeout) {
        return new CallDriver<>(warden, CallTarget.of("POST", URI.create("https://api.example/v1/items")), appTimeout);
    }

    @Test
    void sendsTheBearerAndTheRequestIdOnEveryAttemptAndReturnsASuccessAtOnce() throws Exception {
        client.reply(401, INVALID_TOKEN).reply(200, "done");

        FakeExchange.Reply reply = call(warden("apiwarden.request-id.header", "X-Request-Id"), null)
                .run(client);

        assertThat(reply.body).isEqualTo("done");
        assertThat(client.sent)
                .extracting(h -> h.get("Authorization"))
                .containsExactly("Bearer access-0", "Bearer access-1");
        assertThat(client.sent.get(0).get("X-Request-Id"))
                .isNotNull()
                .isEqualTo(client.sent.get(1).get("X-Request-Id"));
        assertThat(client.discarded).hasSize(1);
        assertThat(telemetry.ended).containsExactly("200 SUCCESS");
    }

    @Test
    void refreshesOnceAndHandsTheSecondRefusalToTheAppWithItsReason() throws Exception {
        client.reply(401, INVALID_TOKEN).reply(401, INVALID_TOKEN);

        FakeExchange.Reply reply = call(warden(), null).run(client);

        assertThat(reply.status).isEqualTo(401);
        assertThat(tokens.requests()).isEqualTo(1);
        assertThat(client.sent).hasSize(2);
        assertThat(telemetry.decisions).containsExactly("REFRESH_AND_RESEND", "RETURN refreshed_already");
    }

    @Test
    void aFailedRefreshHandsTheAppTheRefusalItHad() throws Exception {
        tokens.failingWith(new TokenRefreshException("refused", false));
        client.reply(401, INVALID_TOKEN);

        FakeExchange.Reply reply = call(warden(), null).run(client);

        assertThat(reply.status).isEqualTo(401);
        assertThat(reply.closed).isFalse();
        assertThat(client.sent).hasSize(1);
    }

    @Test
    void waitsOutTheRateLimitAtMostFiveTimesDoublingEachWait() throws Exception {
        for (int i = 0; i < 6; i++) {
            client.reply(429, RATE_LIMIT);
        }

        FakeExchange.Reply reply =
                call(warden("apiwarden.backoff.initial-delay", "1s"), null).run(client);

        assertThat(reply.status).isEqualTo(429);
        assertThat(client.sleeps)
                .containsExactly(
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(4),
                        Duration.ofSeconds(8),
                        Duration.ofSeconds(16));
        assertThat(client.discarded).hasSize(5);
        assertThat(telemetry.decisions.get(5)).isEqualTo("RETURN retries_spent");
    }

    @Test
    void aBodyThatCannotBeSentTwiceIsNotResentAndSaysWhy() throws Exception {
        client.repeatable = false;
        client.reply(429, RATE_LIMIT);

        FakeExchange.Reply reply = call(warden(), null).run(client);

        assertThat(reply.status).isEqualTo(429);
        assertThat(client.sleeps).isEmpty();
        assertThat(telemetry.decisions).containsExactly("RETURN body_not_repeatable");
    }

    @Test
    void aStreamedBodyRecordedWholeIsResentAfterARefreshWithTheSameBytes() throws Exception {
        streamed("{\"name\":", "\"a\"}");
        client.reply(401, INVALID_TOKEN).reply(200, "done");
        CallDriver<FakeExchange.Reply> driver = call(warden(), null);

        FakeExchange.Reply reply = driver.run(client.recordingFor(driver));

        assertThat(reply.body).isEqualTo("done");
        assertThat(tokens.requests()).isEqualTo(1);
        assertThat(client.sentBodies).containsExactly("{\"name\":\"a\"}", "{\"name\":\"a\"}");
        assertThat(telemetry.decisions).containsExactly("REFRESH_AND_RESEND", "RETURN");
    }

    @Test
    void aStreamedBodyRecordedWholeIsResentAfterEachRateLimitWaitOnBothFaces() throws Exception {
        streamed("part one, ", "part two");
        client.reply(429, RATE_LIMIT).reply(429, RATE_LIMIT).reply(200, "done");
        CallDriver<FakeExchange.Reply> driver = call(warden("apiwarden.backoff.initial-delay", "1s"), null);

        CompletableFuture<FakeExchange.Reply> result = driver.runAsync(client.recordingFor(driver));
        scheduler.runDue();
        scheduler.runDue();

        assertThat(result.get().body).isEqualTo("done");
        assertThat(client.sentBodies).containsExactly("part one, part two", "part one, part two", "part one, part two");
    }

    @Test
    void aStreamedBodyOverTheBoundIsNotResentAndSaysWhyWhetherDeclaredOrCounted() throws Exception {
        streamed("0123456789", "0123456789");
        client.declaredLength = 20;
        client.reply(401, INVALID_TOKEN);
        CallDriver<FakeExchange.Reply> declared = call(warden("apiwarden.resend.max-recorded-body", "19"), null);

        assertThat(declared.run(client.recordingFor(declared)).status).isEqualTo(401);

        client.declaredLength = -1;
        client.reply(429, RATE_LIMIT);
        CallDriver<FakeExchange.Reply> counted = call(warden("apiwarden.resend.max-recorded-body", "19"), null);

        assertThat(counted.run(client.recordingFor(counted)).status).isEqualTo(429);
        assertThat(tokens.requests()).isZero();
        assertThat(client.sleeps).isEmpty();
        assertThat(telemetry.decisions)
                .containsExactly("RETURN body_too_large_to_replay", "RETURN body_too_large_to_replay");
        assertThat(client.sentBodies).containsExactly("01234567890123456789", "01234567890123456789");
    }

    @Test
    void aBodyStillStreamingWhenTheResponseCameIsNotResentAndSaysWhy() throws Exception {
        streamed("the start of it");
        client.streamEnds = false;
        client.reply(401, INVALID_TOKEN);
        CallDriver<FakeExchange.Reply> driver = call(warden(), null);

        assertThat(driver.run(client.recordingFor(driver)).status).isEqualTo(401);
        assertThat(tokens.requests()).isZero();
        assertThat(telemetry.decisions).containsExactly("RETURN body_not_finished");
    }

    @Test
    void withRecordingOffAStreamedBodyIsNotRepeatableAsBefore() throws Exception {
        streamed("body");
        client.reply(401, INVALID_TOKEN);
        CallDriver<FakeExchange.Reply> driver = call(warden("apiwarden.resend.max-recorded-body", "0"), null);

        assertThat(driver.run(client.recordingFor(driver)).status).isEqualTo(401);
        assertThat(driver.recordBody(-1)).isNull();
        assertThat(telemetry.decisions).containsExactly("RETURN body_not_repeatable");
    }

    @Test
    void theRecordingIsDroppedWhenTheCallEnds() throws Exception {
        streamed("body");
        client.reply(200, "done");
        CallDriver<FakeExchange.Reply> driver = call(warden(), null);
        RecordedBody recording = driver.recordBody(-1);

        driver.run(client.recordingFor(driver));

        assertThat(recording.isComplete()).isFalse();
        assertThat(recording.length()).isZero();
        assertThat(recording.replay()).isEqualTo(io.apiwarden.core.call.BodyReplay.NOT_FINISHED);
    }

    private void streamed(String... pieces) {
        client.repeatable = false;
        client.streamedBody.addAll(List.of(pieces));
    }

    @Test
    void noWaitOutlivesTheAppsOwnLimitAndEachAttemptGetsWhatIsLeft() throws Exception {
        client.reply(429, RATE_LIMIT).reply(429, RATE_LIMIT);

        FakeExchange.Reply reply = call(warden("apiwarden.backoff.initial-delay", "1s"), Duration.ofMillis(2500))
                .run(client);

        assertThat(reply.status).isEqualTo(429);
        assertThat(client.sleeps).containsExactly(Duration.ofSeconds(1));
        assertThat(client.timeouts).containsExactly(Duration.ofMillis(2500), Duration.ofMillis(1500));
        assertThat(telemetry.decisions.get(1)).isEqualTo("RETURN deadline");
    }

    @Test
    void theAppsOwnAuthorizationIsLeftAloneAndNotRefreshed() throws Exception {
        client.appAuthorization = "Bearer apps-own";
        client.reply(401, INVALID_TOKEN);

        call(warden(), null).run(client);

        assertThat(client.sent.get(0)).doesNotContainKey("Authorization");
        assertThat(tokens.requests()).isZero();
        assertThat(telemetry.decisions).containsExactly("RETURN app_authorization");
    }

    @Test
    void theAppsAuthorizationTheClientSawOnTheWireIsNotRefreshedAndSaysWhy() throws Exception {
        client.seenOnTheWire = OnTheWire.APP_AUTHORIZATION;
        client.reply(401, INVALID_TOKEN);

        FakeExchange.Reply reply = call(warden(), null).runAsync(client).get();

        assertThat(reply.status).isEqualTo(401);
        assertThat(tokens.requests()).isZero();
        assertThat(telemetry.decisions).containsExactly("RETURN app_authorization");
    }

    @Test
    void aRefusalFromOutsideTheApiAfterARedirectGoesToTheAppWithNothingCountedAndSaysWhy() throws Exception {
        client.seenOnTheWire = OnTheWire.LEFT_THE_API;
        client.reply(429, RATE_LIMIT);

        FakeExchange.Reply reply = call(warden(), null).run(client);

        assertThat(reply.status).isEqualTo(429);
        assertThat(client.sleeps).isEmpty();
        assertThat(telemetry.decisions).containsExactly("RETURN left_the_api");
    }

    @Test
    void anotherHostsAnswersAfterARedirectTellTheGateNothing() throws Exception {
        Warden warden = warden();
        client.seenOnTheWire = OnTheWire.LEFT_THE_API;
        client.reply(429, RATE_LIMIT);
        call(warden, null).run(client);
        assertThat(warden.throttleGate().isClosed())
                .as("another host's 429 closes no gate of the API's")
                .isFalse();

        // Longer than the call may wait (its whole back-off), so it goes through the closed gate at once:
        // an answer of the API's to it would open the gate.
        warden.throttleGate().heard(Duration.ofMinutes(4));
        client.reply(200, "elsewhere");
        call(warden, null).run(client);
        assertThat(warden.throttleGate().isClosed())
                .as("another host's 200 does not say the API's window ended")
                .isTrue();
    }

    @Test
    void aFailureOnTheWireEndsTheCallWithIt() {
        assertThatThrownBy(() -> call(warden(), null).run(client)).isInstanceOf(IOException.class);
        assertThat(telemetry.ended).containsExactly("failed IOException");
    }

    @Test
    void asyncWaitsAreScheduledOnTheAdaptersTimerHoldingNoThread() throws Exception {
        client.reply(429, RATE_LIMIT).reply(429, RATE_LIMIT).reply(200, "done");

        CompletableFuture<FakeExchange.Reply> result =
                call(warden("apiwarden.backoff.initial-delay", "1s"), null).runAsync(client);

        assertThat(result).isNotDone();
        assertThat(scheduler.waiting()).isEqualTo(1);
        scheduler.runDue();
        assertThat(result).isNotDone();
        scheduler.runDue();
        assertThat(result.get().body).isEqualTo("done");
        assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
        assertThat(client.sleeps).isEmpty();
        assertThat(telemetry.ended).containsExactly("200 SUCCESS");
    }

    @Test
    void asyncRefreshesOnceThenResendsWithTheNewToken() throws Exception {
        client.reply(401, INVALID_TOKEN).reply(200, "done");

        FakeExchange.Reply reply = call(warden(), null).runAsync(client).get();

        assertThat(reply.body).isEqualTo("done");
        assertThat(client.sent)
                .extracting(h -> h.get("Authorization"))
                .containsExactly("Bearer access-0", "Bearer access-1");
    }

    @Test
    void cancellingTheAppsFutureStopsThePendingResend() {
        client.reply(429, RATE_LIMIT).reply(200, "never sent");

        CompletableFuture<FakeExchange.Reply> result = call(warden(), null).runAsync(client);
        result.cancel(true);

        assertThat(scheduler.givenUp()).isEqualTo(1);
        scheduler.runDue();
        assertThat(client.sent).hasSize(1);
        assertThat(telemetry.ended).containsExactly("failed CancellationException");
    }

    @Test
    void cancellingTheAppsFutureCancelsTheAttemptInFlight() {
        client.wire = new CompletableFuture<>();
        client.reply(200, "late");

        CompletableFuture<FakeExchange.Reply> result = call(warden(), null).runAsync(client);
        result.cancel(true);
        client.wire.complete(null);

        assertThat(result).isCancelled();
        assertThat(telemetry.ended).hasSize(1);
    }
}

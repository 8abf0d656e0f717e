package io.apiwarden.core.telemetry.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.clients.jdk.library.WardenHttpClient;
import io.apiwarden.core.Warden;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.TestWardens;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's JFR events as a recording holds them: a managed JDK client in library mode meets an expired token
 * and then the global rate limit, under an in-process recording, and the events are read back from its file.
 */
class JfrEventsTest {
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTokenEndpoint tokens = new FakeTokenEndpoint();

    @Test
    void aRefreshAResendAWaitAndAGateClosingAreRecordedWithoutATokenInAnyField(@TempDir Path dir) throws Exception {
        List<RecordedEvent> events;
        try (MockWebServer server = new MockWebServer();
                FakeTimer timer = FakeTimer.atOnce(clock)) {
            server.start(0);
            server.enqueue(response(401, "expired"));
            server.enqueue(response(200, "user"));
            server.enqueue(response(429, "slow down"));
            server.enqueue(response(200, "user"));
            Warden warden = TestWardens.warden(
                    TestWardens.config(
                            "apiwarden.base-url",
                            server.url("/api/v1").toString(),
                            "apiwarden.access-token",
                            "access-0",
                            "apiwarden.refresh-token",
                            "refresh-0",
                            "apiwarden.token-url",
                            server.url("/auth/token").toString()),
                    tokens,
                    timer,
                    clock);
            HttpClient client = WardenHttpClient.wrap(HttpClient.newHttpClient(), warden);
            HttpRequest get =
                    HttpRequest.newBuilder(server.url("/api/v1/user").uri()).build();

            Path file = dir.resolve("calls.jfr");
            try (Recording recording = new Recording()) {
                recording.enable("apiwarden.TokenRefresh");
                recording.enable("apiwarden.Resend");
                recording.enable("apiwarden.Wait");
                recording.enable("apiwarden.GateClosed");
                recording.start();
                assertThat(client.send(get, BodyHandlers.ofString()).statusCode())
                        .isEqualTo(200);
                assertThat(client.send(get, BodyHandlers.ofString()).statusCode())
                        .isEqualTo(200);
                recording.stop();
                recording.dump(file);
            }
            events = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().startsWith("apiwarden."))
                    .collect(Collectors.toList());
        }

        RecordedEvent refresh = only(events, "apiwarden.TokenRefresh");
        assertThat(refresh.getString("api")).isEqualTo("default");
        assertThat(refresh.getString("grant")).isEqualTo("refresh_token");
        assertThat(refresh.getString("result")).isEqualTo("success");
        assertThat(refresh.getBoolean("adopted")).isFalse();
        assertThat(refresh.getString("tokenHost")).isNotBlank();

        assertThat(of(events, "apiwarden.Resend"))
                .extracting(e -> e.getString("reason") + " " + e.getInt("attempt") + " " + e.getString("method"))
                .containsExactly("invalid_token 1 GET", "global_rate_limit 1 GET");

        RecordedEvent wait = only(events, "apiwarden.Wait");
        assertThat(wait.getString("kind")).isEqualTo("backoff");
        assertThat(wait.getString("reason")).isEqualTo("backoff");
        assertThat(wait.getDuration("waited")).isEqualTo(Duration.ofSeconds(2));

        RecordedEvent gate = only(events, "apiwarden.GateClosed");
        assertThat(gate.getString("source")).isEqualTo("answer");
        assertThat(gate.getDuration("window")).isEqualTo(Duration.ofSeconds(2));

        for (RecordedEvent e : events) {
            assertThat(e.toString()).doesNotContain("access-0", "access-1", "refresh-0", "refresh-1");
        }
    }

    private static List<RecordedEvent> of(List<RecordedEvent> events, String name) {
        return events.stream()
                .filter(e -> e.getEventType().getName().equals(name))
                .collect(Collectors.toList());
    }

    private static RecordedEvent only(List<RecordedEvent> events, String name) {
        List<RecordedEvent> found = of(events, name);
        assertThat(found).as(name + " in " + events).hasSize(1);
        return found.get(0);
    }

    private static MockResponse response(int code, String body) {
        return new MockResponse.Builder().code(code).body(body).build();
    }
}

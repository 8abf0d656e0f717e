package io.apiwarden.clients.jdk.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.engine.AttemptHeaders;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The request an attempt sends: the app's, with the agent's headers in place of the app's values, nothing else changed. */
class AttemptRequestTest {
    private final HttpRequest app = HttpRequest.newBuilder(URI.create("https://api.example.com/v1/orders"))
            .header("authorization", "Bearer the-apps")
            .header("X-Trace-Me", "1")
            .header("Accept", "a")
            .header("Accept", "b")
            .timeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .expectContinue(true)
            .POST(BodyPublishers.ofString("{}"))
            .build();

    @Test
    void theAgentsHeadersReplaceTheAppsValuesAndEverythingElseIsTheApps() {
        AttemptHeaders agent = new AttemptHeaders();
        agent.accept("Authorization", "Bearer the-agents");
        agent.accept("traceparent", "00-abc-def-01");

        HttpRequest attempt = new AttemptRequest(app, new LastAttemptHeaders().merge(app.headers(), agent), null, null);

        assertThat(attempt.headers().allValues("Authorization")).containsExactly("Bearer the-agents");
        // The app's spelling, as the builder kept it (the map's keys compare without case: look at the spelling).
        assertThat(attempt.headers().map().keySet()).anyMatch("authorization"::equals);
        assertThat(attempt.headers().allValues("traceparent")).containsExactly("00-abc-def-01");
        assertThat(attempt.headers().allValues("accept")).isEqualTo(List.of("a", "b"));
        assertThat(attempt.headers().firstValue("X-Trace-Me")).hasValue("1");
        assertThat(attempt.method()).isEqualTo("POST");
        assertThat(attempt.uri()).isEqualTo(app.uri());
        assertThat(attempt.timeout()).hasValue(Duration.ofSeconds(5));
        assertThat(attempt.version()).hasValue(HttpClient.Version.HTTP_1_1);
        assertThat(attempt.expectContinue()).isTrue();
        assertThat(attempt.bodyPublisher()).isEqualTo(app.bodyPublisher());
        assertThat(attempt.toString()).isEqualTo(app.toString()).doesNotContain("Bearer");
        // The app's own request is left as it was.
        assertThat(app.headers().allValues("Authorization")).containsExactly("Bearer the-apps");
    }

    @Test
    void anAttemptsOwnTimeOutAndBodyTakeThePlaceOfTheApps() {
        HttpRequest.BodyPublisher replay = BodyPublishers.ofString("{\"again\":true}");

        HttpRequest attempt = new AttemptRequest(app, app.headers(), Duration.ofMillis(1200), replay);

        assertThat(attempt.timeout()).hasValue(Duration.ofMillis(1200));
        assertThat(attempt.bodyPublisher()).containsSame(replay);
        assertThat(attempt.headers().map()).isEqualTo(app.headers().map());
    }

    @Test
    void theMergedHeadersAreReusedOnlyWhileTheAppsAndTheAgentsAreTheSame() {
        LastAttemptHeaders last = new LastAttemptHeaders();
        AttemptHeaders agent = new AttemptHeaders();
        agent.accept("Authorization", "Bearer the-agents");
        java.net.http.HttpHeaders first = last.merge(app.headers(), agent);
        HttpRequest sameHeaders = HttpRequest.newBuilder(app.uri())
                .header("authorization", "Bearer the-apps")
                .header("X-Trace-Me", "1")
                .header("Accept", "a")
                .header("Accept", "b")
                .build();

        assertThat(last.merge(sameHeaders.headers(), agent)).isSameAs(first);

        AttemptHeaders refreshed = new AttemptHeaders();
        refreshed.accept("Authorization", "Bearer a-new-one");
        assertThat(last.merge(app.headers(), refreshed).allValues("Authorization"))
                .containsExactly("Bearer a-new-one");
        HttpRequest otherHeaders =
                HttpRequest.newBuilder(app.uri()).header("Accept", "c").build();
        java.net.http.HttpHeaders other = last.merge(otherHeaders.headers(), refreshed);
        assertThat(other.map()).containsOnlyKeys("Accept", "Authorization");
        assertThat(other.allValues("accept")).containsExactly("c");
    }
}

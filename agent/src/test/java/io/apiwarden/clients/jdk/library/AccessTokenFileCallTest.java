package io.apiwarden.clients.jdk.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.secret.KubernetesSecretMount;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.TestWardens;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sidecar keeps the access token in a mounted file and no token URL is configured: the API refuses the old token
 * before the check interval has passed, and the call is resent once with the token the file holds now.
 */
class AccessTokenFileCallTest {
    @TempDir
    Path folder;

    private final MockWebServer server = new MockWebServer();
    private final MutableClock clock = MutableClock.atEpochDay();
    private KubernetesSecretMount mount;
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        server.start(0);
        mount = new KubernetesSecretMount(folder);
        Path file = mount.mount("access-token", "file-token-1");
        client = WardenHttpClient.wrap(
                HttpClient.newHttpClient(),
                TestWardens.warden(
                        TestWardens.config(
                                "apiwarden.base-url", server.url("/api").toString(),
                                "apiwarden.access-token-file", file.toString()),
                        null,
                        FakeTimer.atOnce(clock),
                        clock));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private int call() throws Exception {
        return client.send(
                        HttpRequest.newBuilder(server.url("/api/orders").uri()).build(), BodyHandlers.ofString())
                .statusCode();
    }

    @Test
    void aRefusedTokenIsReplacedByTheFilesNewOneOnTheResend() throws Exception {
        mount.update("access-token", "file-token-2");
        server.enqueue(new MockResponse.Builder().code(401).build());
        server.enqueue(new MockResponse.Builder().code(200).build());

        assertThat(call()).isEqualTo(200);
        assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer file-token-1");
        assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer file-token-2");
    }

    @Test
    void withNothingNewInTheFileTheAppGetsTheRefusalAfterOneAttempt() throws Exception {
        server.enqueue(new MockResponse.Builder().code(401).build());

        assertThat(call()).isEqualTo(401);
        assertThat(server.getRequestCount()).isEqualTo(1);
    }
}

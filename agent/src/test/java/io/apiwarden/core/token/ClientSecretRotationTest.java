package io.apiwarden.core.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.apiwarden.core.secret.KubernetesSecretMount;
import io.apiwarden.core.secret.ReloadableSecret;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.MutableClock;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client secret rotated as Kubernetes does it (the {@code ..data} link swap) while calls wait for tokens: the
 * token service accepts only the newest secret, the agent follows the file on an injected clock.
 */
class ClientSecretRotationTest {
    private static final Duration INTERVAL = Duration.ofSeconds(5);

    @TempDir
    Path folder;

    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTimer scheduler = FakeTimer.atOnce(clock);
    private final HttpClient client = HttpClient.newHttpClient();
    private final MockWebServer server = new MockWebServer();
    /** The one secret the token service accepts. */
    private final AtomicReference<String> accepted = new AtomicReference<>("secret-1");
    /** The secret each token request carried. */
    private final List<String> sent = new CopyOnWriteArrayList<>();

    private final AtomicInteger issued = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                String basic = request.getHeaders().get("Authorization").substring("Basic ".length());
                String pair = new String(Base64.getDecoder().decode(basic), StandardCharsets.UTF_8);
                String secret = URLDecoder.decode(pair.substring(pair.indexOf(':') + 1), StandardCharsets.UTF_8);
                sent.add(secret);
                return secret.equals(accepted.get())
                        ? json(
                                200,
                                "{\"access_token\":\"a-" + issued.incrementAndGet() + "\",\"token_type\":\"Bearer\"}")
                        : json(401, "{\"error\":\"invalid_client\"}");
            }
        });
        server.start(0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder()
                .code(code)
                .addHeader("Content-Type", "application/json")
                .body(body)
                .build();
    }

    private HttpTokenEndpoint endpoint(ReloadableSecret<String> secret) {
        return HttpTokenEndpoint.of(
                server.url("/token").uri(),
                Grant.clientCredentials(null),
                new SecretAuthenticator("svc-orders", secret, ClientAuthentication.BASIC),
                Duration.ofSeconds(5),
                () -> client,
                scheduler,
                clock);
    }

    private ReloadableSecret<String> follow(Path file) throws Exception {
        return ReloadableSecret.open(
                "apiwarden.client-secret-file",
                file,
                bytes -> new String(bytes, StandardCharsets.UTF_8).trim(),
                clock,
                INTERVAL);
    }

    private static List<String> tokensOf(List<CompletableFuture<AccessToken>> calls) {
        List<String> tokens = new ArrayList<>();
        calls.forEach(c -> tokens.add(c.join().value()));
        return tokens;
    }

    @Test
    void callsWaitingForATokenGetOneMadeWithTheNewSecretAfterASwap() throws Exception {
        KubernetesSecretMount mount = new KubernetesSecretMount(folder);
        TokenManager tokens =
                new TokenManager(endpoint(follow(mount.mount("client-secret", "secret-1"))), null, null, null, clock);
        AccessToken first = tokens.tokenForRequest().join();

        // Rotated at the token service and in the Secret: the agent has not looked yet.
        accepted.set("secret-2");
        mount.update("client-secret", "secret-2");
        List<CompletableFuture<AccessToken>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(tokens.tokenAfterRejection(first));
        }

        assertThat(tokensOf(calls)).containsOnly("a-2");
        // The refusal of the old secret had the file read at once, and the request made once more.
        assertThat(sent).containsExactly("secret-1", "secret-1", "secret-2");

        // The next rotation is seen by the look after the check interval: no refusal at all.
        accepted.set("secret-3");
        mount.update("client-secret", "secret-3");
        clock.advance(INTERVAL);
        AccessToken second = calls.get(0).join();
        calls.clear();
        for (int i = 0; i < 20; i++) {
            calls.add(tokens.tokenAfterRejection(second));
        }

        assertThat(tokensOf(calls)).containsOnly("a-3");
        assertThat(sent).containsExactly("secret-1", "secret-1", "secret-2", "secret-3");
        assertThat(tokens.lastFailure()).isNull();
    }

    @Test
    void aRefusalOfASecretFileThatDidNotChangeIsReportedOnceAndDoesNotLastForGood() throws Exception {
        KubernetesSecretMount mount = new KubernetesSecretMount(folder);
        accepted.set("another");
        HttpTokenEndpoint endpoint = endpoint(follow(mount.mount("client-secret", "secret-1")));

        Throwable t = catchThrowable(() -> endpoint.refresh("x").join());

        assertThat(t.getCause()).isInstanceOf(TokenRefreshException.class);
        assertThat(((TokenRefreshException) t.getCause()).permanent()).isFalse();
        assertThat(t.getCause().getMessage()).contains("invalid_client").doesNotContain("secret-1");
        assertThat(sent).containsExactly("secret-1");
    }

    @Test
    void aSecretSetAsAValueIsRefusedForGoodAsBefore() {
        accepted.set("another");
        HttpTokenEndpoint endpoint = endpoint(ReloadableSecret.fixed("apiwarden.client-secret", "secret-1"));

        Throwable t = catchThrowable(() -> endpoint.refresh("x").join());

        assertThat(((TokenRefreshException) t.getCause()).permanent()).isTrue();
        assertThat(sent).containsExactly("secret-1");
    }
}

package io.apiwarden.core.dpop;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.secret.KubernetesSecretMount;
import io.apiwarden.core.secret.ReloadableSecret;
import io.apiwarden.core.telemetry.RefreshObserver;
import io.apiwarden.core.token.AccessToken;
import io.apiwarden.core.token.ClientAuthenticator;
import io.apiwarden.core.token.Grant;
import io.apiwarden.core.token.HttpTokenEndpoint;
import io.apiwarden.core.token.Htu;
import io.apiwarden.core.token.TokenManager;
import io.apiwarden.core.token.TokenSharing;
import io.apiwarden.core.token.store.InMemoryTokenStore;
import io.apiwarden.testing.DpopServer;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.MutableClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.Base64;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs sharing one token store while their DPoP key file is replaced, each seeing the new file at its own time (a
 * kubelet updates each pod's mount on its own): every call goes with a token proved by the key it is bound to, and
 * a JVM never takes from the store a token bound to a key it does not hold.
 */
@Timeout(20)
class DpopKeyRotationFleetTest {
    private static final Duration INTERVAL = Duration.ofSeconds(5);

    @TempDir
    Path folder;

    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTimer scheduler = FakeTimer.onTestTime(clock);
    private final InMemoryTokenStore store = new InMemoryTokenStore(clock);
    private final DpopServer server = new DpopServer(clock::instant);
    private final MockWebServer http = new MockWebServer();
    private final HttpClient client = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        http.setDispatcher(server);
        http.start(0);
    }

    @AfterEach
    void stop() {
        http.close();
    }

    /** One JVM: its own view of the key file, its own DPoP, the fleet's store. */
    private final class Jvm {
        final KubernetesSecretMount mount;
        final Dpop dpop;
        final TokenManager tokens;

        Jvm(String name, String firstKey) throws Exception {
            mount = new KubernetesSecretMount(Files.createDirectories(folder.resolve(name)));
            Path file = mount.mount("dpop.pem", firstKey);
            dpop = Dpop.create(
                    ReloadableSecret.open(
                            "apiwarden.dpop.key-file", file, pem -> DpopKey.parse(pem, null), clock, INTERVAL),
                    clock,
                    LatestNonce.local(),
                    LatestNonce.local());
            HttpTokenEndpoint endpoint = HttpTokenEndpoint.of(
                    http.url(DpopServer.TOKEN_PATH).uri(),
                    Grant.clientCredentials(null),
                    ClientAuthenticator.NONE,
                    Duration.ofSeconds(5),
                    () -> client,
                    scheduler,
                    clock);
            endpoint.proveWith(dpop);
            tokens = new TokenManager(
                    endpoint,
                    null,
                    null,
                    null,
                    clock,
                    () -> RefreshObserver.NOOP,
                    TokenSharing.through(store, scheduler, Runnable::run));
        }

        /** A call to the API with {@code token}, as the engine makes it: its status. */
        int call(AccessToken token) throws Exception {
            URI api = http.url("/api/orders").uri();
            HttpRequest.Builder request = HttpRequest.newBuilder(api);
            dpop.authorize("GET", Htu.of(api), token, request::header);
            return client.send(request.GET().build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        }
    }

    @Test
    void aJvmOnTheOldKeyAsksForItsOwnTokenAndTakesTheFleetsOnceItReadsTheNewKey() throws Exception {
        String keyA = pem();
        Jvm first = new Jvm("first", keyA);
        Jvm second = new Jvm("second", keyA);
        AccessToken a1 = first.tokens.tokenForRequest().join();
        AccessToken secondsA1 = second.tokens.tokenForRequest().join();
        assertThat(secondsA1.value()).isEqualTo(a1.value());
        assertThat(server.tokenRequests()).isEqualTo(1);

        // The first JVM's mount has the new key; the second's not yet.
        String keyB = pem();
        first.mount.update("dpop.pem", keyB);
        clock.advance(Duration.ofSeconds(3600 - 59));
        // Inside the refresh window: the call goes with the token held, proved with its own key, while the first
        // JVM asks for a token bound to the new key.
        AccessToken held = first.tokens.tokenForRequest().join();
        assertThat(first.call(held)).isEqualTo(200);
        AccessToken b = first.tokens.tokenAfterRejection(a1).join();
        assertThat(b.value()).isNotEqualTo(a1.value());
        assertThat(first.call(b)).isEqualTo(200);

        // The store now holds a token of key B: the second JVM, still on A, does not take it, and asks for its own.
        AccessToken a2 = second.tokens.tokenAfterRejection(secondsA1).join();
        assertThat(a2.value()).isNotIn(a1.value(), b.value());
        assertThat(second.call(a2)).isEqualTo(200);
        assertThat(server.tokenRequests()).isEqualTo(3);

        // Its mount catches up: the next token request of the first JVM (on B) leaves the A token in the store alone,
        // and the second JVM, finding a token of a key it does not know, reads its file at once and takes it.
        second.mount.update("dpop.pem", keyB);
        AccessToken b2 = first.tokens.tokenAfterRejection(b).join();
        AccessToken taken = second.tokens.tokenAfterRejection(a2).join();
        assertThat(taken.value()).isEqualTo(b2.value());
        assertThat(second.call(taken)).isEqualTo(200);
        assertThat(server.tokenRequests()).isEqualTo(4);
        assertThat(server.refusals()).isEmpty();
    }

    private static String pem() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder()
                        .encodeToString(g.generateKeyPair().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
    }
}

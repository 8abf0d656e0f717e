package io.apiwarden.clients.huc.library;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.core.Warden;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.TestWardens;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLSocketFactory;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the app sees of a managed {@code HttpURLConnection} beyond the contract: the JDK's behaviour where it matters. */
class WardenHttpUrlConnectionTest {
    private final MockWebServer server = new MockWebServer();
    private final MutableClock clock = MutableClock.atEpochDay();

    private Warden warden(String baseUrl) {
        return TestWardens.warden(
                TestWardens.config("apiwarden.base-url", baseUrl, "apiwarden.access-token", "access-0"),
                new FakeTokenEndpoint(),
                FakeTimer.atOnce(clock),
                clock);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void anHttpsUrlOfTheApiGetsAnHttpsConnectionOfTheAgentsAndAnyOtherUrlTheJdksOwn() throws Exception {
        Warden warden = warden("https://api.example.com/api/v1");
        SSLSocketFactory appFactory = (SSLSocketFactory) SSLSocketFactory.getDefault();

        HttpURLConnection api = WardenHttpUrlConnection.open(new URL("https://api.example.com/api/v1/user"), warden);
        ((HttpsURLConnection) api).setSSLSocketFactory(appFactory);

        assertThat(api).isInstanceOf(ManagedHttpsConnection.class);
        assertThat(((HttpsURLConnection) api).getSSLSocketFactory()).isSameAs(appFactory);
        assertThat(WardenHttpUrlConnection.open(new URL("https://other.example.com/api/v1/user"), warden)
                        .getClass()
                        .getName())
                .startsWith("sun.net.www.protocol.https.");
        assertThat(WardenHttpUrlConnection.open(new URL("http://api.example.com/api/v1/user"), warden)
                        .getClass()
                        .getName())
                .startsWith("sun.net.www.protocol.http.");
        assertThatThrownBy(() -> WardenHttpUrlConnection.open(new URL("file:/tmp/x"), warden))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("http and https URLs");
    }

    @Test
    void whatTheAppSetsAndWritesAfterConnectingGoesOutWithTheTokenAndTheResponseReadsAsTheJdks() throws Exception {
        server.enqueue(new MockResponse.Builder()
                .code(201)
                .addHeader("X-Reply", "yes")
                .body("made")
                .build());
        server.start(0);
        Warden warden = warden(server.url("/api/v1").toString());
        byte[] body = "{\"name\":\"a\"}".getBytes(StandardCharsets.UTF_8);

        HttpURLConnection c =
                WardenHttpUrlConnection.open(server.url("/api/v1/items").url(), warden);
        c.setRequestMethod("PUT");
        c.setDoOutput(true);
        c.setRequestProperty("X-App", "mine");
        c.setFixedLengthStreamingMode(body.length);
        c.connect();
        assertThatThrownBy(() -> c.setRequestProperty("X-Late", "no")).isInstanceOf(IllegalStateException.class);
        try (OutputStream out = c.getOutputStream()) {
            out.write(body);
        }

        assertThat(c.getResponseCode()).isEqualTo(201);
        assertThat(c.getHeaderField("x-reply")).isEqualTo("yes");
        assertThat(c.getRequestProperty("X-App")).isEqualTo("mine");
        try (InputStream in = c.getInputStream()) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("made");
        }
        assertThatThrownBy(c::getOutputStream).isInstanceOf(java.net.ProtocolException.class);
        RecordedRequest sent = server.takeRequest();
        assertThat(sent.getMethod()).isEqualTo("PUT");
        assertThat(sent.getHeaders().get("X-App")).isEqualTo("mine");
        assertThat(sent.getHeaders().get("Authorization")).isEqualTo("Bearer access-0");
        assertThat(sent.getHeaders().get("Content-Length")).isEqualTo(String.valueOf(body.length));
        assertThat(sent.getBody().utf8()).isEqualTo("{\"name\":\"a\"}");
    }

    @Test
    void anErrorBodyTheAgentReadToClassifyReachesTheAppWholeThroughTheErrorStream() throws IOException {
        server.enqueue(new MockResponse.Builder()
                .code(403)
                .body("{\"error\":\"forbidden\"}")
                .build());
        server.start(0);
        Warden warden = warden(server.url("/api/v1").toString());

        HttpURLConnection c =
                WardenHttpUrlConnection.open(server.url("/api/v1/secret").url(), warden);

        assertThat(c.getErrorStream()).as("before the response, as the JDK's").isNull();
        assertThat(c.getResponseCode()).isEqualTo(403);
        assertThatThrownBy(c::getInputStream).isInstanceOf(IOException.class);
        try (InputStream in = c.getErrorStream()) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("{\"error\":\"forbidden\"}");
        }
    }
}

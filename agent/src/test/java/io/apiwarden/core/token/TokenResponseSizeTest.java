package io.apiwarden.core.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.MutableClock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okio.Buffer;
import org.junit.jupiter.api.Test;

/** A token response is read up to {@link HttpTokenEndpoint#MAX_RESPONSE_BYTES}, and no further. */
class TokenResponseSizeTest {
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTimer scheduler = FakeTimer.atOnce(clock);
    private final HttpClient client = HttpClient.newHttpClient();

    private TokenRefreshException failure(URI tokenUrl) {
        HttpTokenEndpoint endpoint =
                new HttpTokenEndpoint(tokenUrl, null, null, Duration.ofSeconds(20), () -> client, scheduler, clock);
        Throwable t = catchThrowable(() -> endpoint.refresh("rt-1").join());
        assertThat(t).hasCauseInstanceOf(TokenRefreshException.class);
        return (TokenRefreshException) t.getCause();
    }

    /** A token response padded past the cap with spaces, which JSON allows anywhere between tokens. */
    private static Buffer paddedTokenResponse(int size) {
        String json = "{\"access_token\":\"at-1\"}";
        return new Buffer().writeUtf8(" ".repeat(size - json.length())).writeUtf8(json);
    }

    @Test
    void aResponseOverTheCapFailsOnceNamingTheLimitAndTheUrl() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.enqueue(new MockResponse.Builder()
                    .code(200)
                    .body(paddedTokenResponse(HttpTokenEndpoint.MAX_RESPONSE_BYTES + 1))
                    .build());
            server.start(0);

            TokenRefreshException e = failure(server.url("/token").uri());

            assertThat(e.permanent()).isFalse();
            assertThat(e.getMessage()).contains("64 KiB", server.url("/token").toString(), "apiwarden.token-url");
            assertThat(server.getRequestCount()).as("not retried").isEqualTo(1);
        }
    }

    @Test
    void aChunkedResponseWithoutALengthIsCutTheSameWay() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.enqueue(new MockResponse.Builder()
                    .code(200)
                    .chunkedBody(paddedTokenResponse(1024 * 1024), 8192)
                    .build());
            server.start(0);

            assertThat(failure(server.url("/token").uri()).getMessage()).contains("64 KiB");
        }
    }

    @Test
    void aResponseOfExactlyTheCapIsRead() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.enqueue(new MockResponse.Builder()
                    .code(200)
                    .body(paddedTokenResponse(HttpTokenEndpoint.MAX_RESPONSE_BYTES))
                    .build());
            server.start(0);
            HttpTokenEndpoint endpoint = new HttpTokenEndpoint(
                    server.url("/token").uri(), null, null, Duration.ofSeconds(20), () -> client, scheduler, clock);

            assertThat(endpoint.refresh("rt-1").join().accessToken()).isEqualTo("at-1");
        }
    }

    @Test
    void anEndlessResponseIsStoppedAndItsConnectionClosed() throws Exception {
        // The server would send 32 MiB, more than loopback socket buffers hold: only the client hanging up stops it
        // sooner.
        long wouldSend = 32L * 1024 * 1024;
        AtomicLong sent = new AtomicLong();
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            listener.setSoTimeout(20_000);
            Thread writer = new Thread(() -> streamUntilHangUp(listener, wouldSend, sent), "endless-token-response");
            writer.start();

            TokenRefreshException e = failure(URI.create("http://127.0.0.1:" + listener.getLocalPort() + "/token"));

            writer.join(20_000);
            assertThat(writer.isAlive()).isFalse();
            assertThat(e.getMessage()).contains("64 KiB");
            assertThat(sent.get())
                    .as("bytes the server got out before the client hung up")
                    .isLessThan(wouldSend);
        }
    }

    private static void streamUntilHangUp(ServerSocket listener, long limit, AtomicLong sent) {
        byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, (byte) ' ');
        byte[] chunkHeader = (Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        try (Socket s = listener.accept();
                OutputStream out = s.getOutputStream()) {
            s.getInputStream().read(new byte[8192]);
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            while (sent.get() < limit) {
                out.write(chunkHeader);
                out.write(chunk);
                out.write('\r');
                out.write('\n');
                sent.addAndGet(chunk.length);
            }
        } catch (IOException expected) {
            // The client closed the connection: what the test waits for.
        }
    }
}

package io.apiwarden.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Integration tests whose app JVM talks to {@link FakeOAuthApi} on a local MockWebServer. */
abstract class AgainstFakeApi {
    final MockWebServer server = new MockWebServer();
    final FakeOAuthApi api = new FakeOAuthApi();

    @BeforeEach
    void startApi() throws Exception {
        server.setDispatcher(api);
        server.start(0);
    }

    @AfterEach
    void stopApi() {
        server.close();
    }

    String url(String path) {
        return server.url(path).toString();
    }

    /**
     * Runs {@code app}'s {@code main} into a 3 s rate-limit window that is closed already: the app fires one
     * call ({@code fire:URL}), which the API refuses, and waits ({@code await:FILE}) until the agent's
     * Prometheus endpoint says the limit holds, which it says only once the gate has closed; then it runs
     * {@code callers} followed by the API's {@code /user} URL ({@code both:20:}, say).
     */
    AgentJvm.Result runIntoAClosedGate(AgentJvm app, Class<?> main, Path dir, String callers) throws Exception {
        api.rateLimitWindowMillis = 3000;
        String user = url("/api/v1/user");
        Path go = dir.resolve("go");
        int prometheus = AgentMetrics.freePort();
        CompletableFuture<AgentJvm.Result> run = app.property("apiwarden.access-token", FakeOAuthApi.ISSUED_TOKEN)
                .property("apiwarden.backoff.initial-delay", "1s")
                .property("apiwarden.metrics.prometheus.port", Integer.toString(prometheus))
                .runInBackground(main, "fire:" + user, "await:" + go, callers + user);
        AgentMetrics.awaitLine(prometheus, "apiwarden_throttled{api=\"default\"} 1.0", run);
        Files.createFile(go);
        return run.get(2, TimeUnit.MINUTES);
    }
}

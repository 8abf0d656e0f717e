package io.apiwarden.it;

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
}

package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.apps.SeveralClientsApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two named APIs on two local servers, each with its own token service and global rate limit, called by one app
 * through JDK {@code HttpClient} and OkHttp: each API gets only its own bearer, a revocation on one refreshes only
 * that one, and a rate-limit window on one holds none of the other's calls. Apache HttpClient 5 and Reactor Netty
 * then call both: each call gets its own API's bearer, and a call to neither goes as the app sent it.
 */
class SeveralApisAgentIT {
    private final MockWebServer paymentsServer = new MockWebServer();
    private final MockWebServer crmServer = new MockWebServer();
    private final FakeOAuthApi payments = new FakeOAuthApi();
    private final FakeOAuthApi crm = new FakeOAuthApi();
    private Path configFile;

    @BeforeEach
    void start() throws Exception {
        payments.issuedToken = "payments-access-1b2c";
        payments.revocable = true;
        crm.issuedToken = "crm-access-9e8d";
        crm.revocable = true;
        paymentsServer.setDispatcher(payments);
        paymentsServer.start(0);
        crmServer.setDispatcher(crm);
        crmServer.start(0);
    }

    @AfterEach
    void stop() {
        paymentsServer.close();
        crmServer.close();
        if (configFile != null) {
            try {
                Files.deleteIfExists(configFile);
            } catch (java.io.IOException e) {
                // a temporary file; the OS cleans it up
            }
        }
    }

    private static String url(MockWebServer server, String path) {
        return server.url(path).toString();
    }

    private AgentJvm app() throws Exception {
        configFile = Files.createTempFile("apiwarden-several-apis-", ".properties");
        Files.writeString(configFile, "apiwarden.log.level=debug\n");
        AgentJvm jvm = new AgentJvm()
                .property("apiwarden.api.payments.base-url", url(paymentsServer, "/api/v1"))
                .property("apiwarden.api.payments.auth-url", url(paymentsServer, "/auth"))
                .property("apiwarden.api.payments.refresh-token", "payments-refresh-77aa")
                .property("apiwarden.api.crm.base-url", url(crmServer, "/api/v1"))
                .property("apiwarden.api.crm.auth-url", url(crmServer, "/auth"))
                .property("apiwarden.api.crm.refresh-token", "crm-refresh-33bb")
                // Tuning both APIs take from the unnamed property.
                .property("apiwarden.backoff.initial-delay", "100ms")
                // An agent-wide setting set only in the configuration file: the log level.
                .property("apiwarden.config-file", configFile.toString())
                .property("otel.traces.exporter", "logging")
                .property("otel.metrics.exporter", "none")
                .property("otel.logs.exporter", "none");
        for (String lib : List.of("okhttp5", "httpclient5", "reactor-netty")) {
            try (Stream<Path> jars = Files.list(AgentJvm.itLib(lib))) {
                jars.sorted().forEach(jvm::classPath);
            }
        }
        return jvm;
    }

    @Test
    void eachApiHasItsOwnTokensRefreshesAndRateLimitWindow() throws Exception {
        crm.rateLimitWindowMillis = 3000;
        String paymentsUser = url(paymentsServer, "/api/v1/user");
        String crmUser = url(crmServer, "/api/v1/user");

        AgentJvm.Result r = app().run(
                        SeveralClientsApp.class,
                        "jdk:" + paymentsUser,
                        "okhttp:" + paymentsUser,
                        // Opens the CRM's 3 s window: the call waits it out at the CRM's gate, meanwhile...
                        "fire:" + crmUser,
                        // ...payments answers at once, through both clients, however its token changes.
                        "jdk:" + url(paymentsServer, "/revoke"),
                        "okhttp:" + paymentsUser,
                        "jdk:" + paymentsUser,
                        // After the CRM's window: two more clients, routed call by call.
                        "wait:",
                        "apache:" + url(paymentsServer, "/api/v1/apache"),
                        "netty:" + url(paymentsServer, "/api/v1/netty"),
                        "apache:" + url(crmServer, "/api/v1/apache"),
                        "netty:" + url(crmServer, "/api/v1/netty"),
                        "apache:" + url(crmServer, "/elsewhere"),
                        "netty:" + url(paymentsServer, "/elsewhere"));

        assertThat(r.stdout)
                .as(r.toString())
                .containsExactly(
                        "STATUS 200 user",
                        "STATUS 200 user",
                        "STATUS 200 revoked",
                        "STATUS 200 user",
                        "STATUS 200 user",
                        "FIRED 200",
                        "STATUS 200 user",
                        "STATUS 200 user",
                        "STATUS 200 user",
                        "STATUS 200 user",
                        "STATUS 200 other",
                        "STATUS 200 other");
        assertThat(payments.tokenRequests)
                .as("one at the start, one after the revocation")
                .hasSize(2);
        assertThat(crm.tokenRequests)
                .as("the revocation on payments is not the CRM's")
                .hasSize(1);
        assertThat(payments.tokenRequests.get(0).getBody().utf8()).contains("payments-refresh-77aa");
        assertThat(crm.tokenRequests.get(0).getBody().utf8()).contains("crm-refresh-33bb");
        assertThat(authorizations(payments.apiRequests))
                .as("payments sees only its own bearers")
                .allSatisfy(a -> assertThat(a).startsWith("Bearer payments-access-1b2c-"));
        assertThat(authorizations(crm.apiRequests))
                .as("the CRM sees only its own bearer")
                .allSatisfy(a -> assertThat(a).isEqualTo("Bearer crm-access-9e8d-1"));
        long crmResent = crm.apiArrivalNanos.get(1);
        assertThat(arrivals(payments, "/api/v1/user"))
                .as("every payments call after the CRM's window opened arrived before the CRM's window let its call go")
                .allSatisfy(t -> assertThat(t).isLessThan(crmResent));
        assertThat(paths(crm.apiRequests))
                .as("refused once, sent again when the window ended; then Apache's and Reactor Netty's")
                .containsExactly("/api/v1/user", "/api/v1/user", "/api/v1/apache", "/api/v1/netty");
        assertThat(paths(payments.apiRequests)).contains("/api/v1/apache", "/api/v1/netty");
        assertThat(authorizations(payments.otherRequests))
                .as("a call to no API goes as the app sent it")
                .containsExactly("null");
        assertThat(authorizations(crm.otherRequests)).containsExactly("null");
        assertThat(r.stderr).as("spans name their API").anyMatch(l -> l.contains("apiwarden.api=payments"));
        assertThat(r.stderr).anyMatch(l -> l.contains("apiwarden.api=crm"));
        assertThat(r.stderr)
                .as("debug, from the configuration file, and each API's lines name it")
                .anyMatch(l -> l.contains("DEBUG [api payments] access token refreshed"))
                .anyMatch(l -> l.contains("DEBUG [api crm] access token refreshed"));
        assertThat(r.all()).doesNotContain("payments-access-1b2c-", "crm-access-9e8d-", "payments-refresh-77aa");
    }

    private static List<String> paths(List<RecordedRequest> requests) {
        return requests.stream().map(q -> q.getUrl().encodedPath()).toList();
    }

    /** When each request to {@code path} arrived. */
    private static List<Long> arrivals(FakeOAuthApi api, String path) {
        List<Long> arrivals = new ArrayList<>();
        for (int i = 0; i < api.apiRequests.size(); i++) {
            if (api.apiRequests.get(i).getUrl().encodedPath().equals(path)) {
                arrivals.add(api.apiArrivalNanos.get(i));
            }
        }
        return arrivals;
    }

    private static List<String> authorizations(List<RecordedRequest> requests) {
        return requests.stream()
                .map(q -> String.valueOf(q.getHeaders().get("Authorization")))
                .toList();
    }
}

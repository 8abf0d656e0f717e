package io.apiwarden.it;

import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring Boot 3.5 fat jar (Boot's nested-jar class loader, Boot's auto-configured clients) started with the
 * agent, once with Boot's default choice of clients and once with the JDK client chosen through Boot's settings.
 * In each run every client posts twice: after the API revoked the access token, and into the global rate limit.
 * Everything asserted is what the API received, beside the status the app saw.
 */
class SpringBootAgentIT extends AgainstFakeApi {
    private static final String STALE_TOKEN = "stale-access-b007ed";
    private static final String REFRESH_TOKEN = "first-refresh-5e7a1c";
    private static final List<String> CLIENTS = List.of("RestClient", "RestTemplate", "WebClient");
    /** The agent's first back-off; the default (1 s) would only make the test slower. */
    private static final long BACKOFF_MILLIS = 100;

    @Test
    void withApacheHttpClient5AndWebfluxOnTheClassPath() throws Exception {
        AgentJvm.Result r = runApp();

        assertEveryCallEnded200(r);
        // Boot prefers Apache HttpClient 5 for RestClient and RestTemplate, Reactor Netty for WebClient.
        assertServerReceived(Map.of("RestClient", "Apache-HttpClient/", "RestTemplate", "Apache-HttpClient/",
                "WebClient", "ReactorNetty/"));
        assertThat(managedClients(r)).as(r.toString()).containsExactlyInAnyOrder("Apache HttpClient 5", "Reactor Netty");
    }

    @Test
    void withTheJdkClientChosenThroughBootsSettings() throws Exception {
        AgentJvm.Result r = runApp("--spring.http.client.factory=jdk", "--spring.http.reactiveclient.connector=jdk");

        assertEveryCallEnded200(r);
        assertServerReceived(Map.of("RestClient", "Java-http-client/", "RestTemplate", "Java-http-client/",
                "WebClient", "Java-http-client/"));
        assertThat(managedClients(r)).as(r.toString()).containsExactly("java.net.http.HttpClient");
    }

    private AgentJvm.Result runApp(String... bootArgs) throws Exception {
        api.revocable = true;
        List<String> args = new ArrayList<>(List.of(bootArgs));
        args.add("--api.origin=" + url("").replaceAll("/$", ""));
        return new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.access-token", STALE_TOKEN)
                .property("apiwarden.refresh-token", REFRESH_TOKEN)
                .property("apiwarden.backoff.initial-delay", BACKOFF_MILLIS + "ms")
                .runJar(appJar(), args.toArray(String[]::new));
    }

    private static Path appJar() {
        String jar = System.getProperty("apiwarden.it.app-jar");
        if (jar == null) {
            throw new IllegalStateException("apiwarden.it.app-jar is not set: run the integration tests through Maven (./mvnw verify)");
        }
        return Paths.get(jar);
    }

    private static void assertEveryCallEnded200(AgentJvm.Result r) {
        assertThat(r.exitCode).as(r.toString()).isZero();
        List<String> expected = new ArrayList<>();
        for (String client : CLIENTS) {
            for (String scenario : List.of("expired-token", "rate-limit")) {
                expected.add("{\"client\":\"" + client + "\",\"scenario\":\"" + scenario + "\",\"status\":200,\"body\":\"user\"}");
            }
        }
        assertThat(r.stdout).as(r.toString()).filteredOn(l -> l.startsWith("{")).containsExactlyElementsOf(expected);
        assertThat(r.all()).doesNotContain(FakeOAuthApi.ISSUED_TOKEN, REFRESH_TOKEN, STALE_TOKEN);
    }

    /**
     * Each client's POST after the token was revoked reached the API twice with the same body, the second time
     * with a token of its own refresh; its POST into the rate limit twice, a back-off apart, with that token.
     * Three refreshes in all: one per revoked token, none for the rate limit.
     */
    private void assertServerReceived(Map<String, String> userAgentByClient) {
        Set<String> bearers = new HashSet<>();
        for (String client : CLIENTS) {
            String expiredBody = body(client, "expired-token");
            List<Integer> expired = arrivals(expiredBody);
            assertThat(expired).as("requests with %s", expiredBody).hasSize(2);
            RecordedRequest refused = api.apiRequests.get(expired.get(0));
            RecordedRequest resent = api.apiRequests.get(expired.get(1));
            String fresh = resent.getHeaders().get("Authorization");
            assertThat(fresh).as(client).startsWith("Bearer " + FakeOAuthApi.ISSUED_TOKEN + "-")
                    .isNotEqualTo(refused.getHeaders().get("Authorization"));
            assertThat(bearers.add(fresh)).as("%s got a token of its own", client).isTrue();

            String limitedBody = body(client, "rate-limit");
            List<Integer> limited = arrivals(limitedBody);
            assertThat(limited).as("requests with %s", limitedBody).hasSize(2);
            assertThat(limited).extracting(i -> api.apiRequests.get(i).getHeaders().get("Authorization"))
                    .as(client).containsOnly(fresh);
            long gap = api.apiArrivalNanos.get(limited.get(1)) - api.apiArrivalNanos.get(limited.get(0));
            assertThat(gap).as("%s resent after the back-off", client)
                    .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(BACKOFF_MILLIS));

            assertThat(IntStream.concat(expired.stream().mapToInt(i -> i), limited.stream().mapToInt(i -> i))
                    .mapToObj(i -> api.apiRequests.get(i).getHeaders().get("User-Agent")))
                    .as("the client library under %s", client).allMatch(ua -> ua.startsWith(userAgentByClient.get(client)));
        }
        assertThat(api.tokenRequests).hasSize(3);
        assertThat(api.issuedCount()).isEqualTo(3);
        assertThat(api.apiRequests).hasSize(12);
    }

    private static String body(String client, String scenario) {
        return "{\"client\":\"" + client + "\",\"scenario\":\"" + scenario + "\"}";
    }

    /** Indexes in the order of arrival of the API requests whose body is this one. */
    private List<Integer> arrivals(String body) {
        return IntStream.range(0, api.apiRequests.size()).filter(i -> body.equals(api.apiRequests.get(i).getBody().utf8()))
                .boxed().collect(Collectors.toList());
    }

    /** The clients the agent's start-up lines say it manages. */
    private static List<String> managedClients(AgentJvm.Result r) {
        return r.agentLog().stream().filter(l -> l.contains("managing calls to"))
                .map(l -> l.replaceAll(".* through (.*) \\(the app .*", "$1")).collect(Collectors.toList());
    }
}

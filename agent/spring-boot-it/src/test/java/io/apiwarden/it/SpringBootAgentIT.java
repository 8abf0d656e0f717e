package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

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
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * A Spring Boot 3.5 fat jar (Boot's nested-jar class loader, Boot's auto-configured clients) started with the
 * agent: with Boot's own choice of client libraries (Apache HttpClient 5 and Reactor Netty on the class path),
 * with the JDK client chosen through Boot's settings, and with Reactor Netty chosen for {@code RestClient} and
 * {@code RestTemplate} too (Boot's choice when Apache HttpClient 5 is not on the class path); the first run also
 * through {@code new RestTemplate()} and a Spring Cloud OpenFeign client on Feign's default client, both over
 * {@code HttpURLConnection}, which the agent manages in the JDK's URL handlers. In each run each
 * client posts a JSON body after the API revoked the access token, posts into the global rate limit, and posts
 * a body Spring can write once only after a revocation. What is asserted is what the API received, beside the
 * status the app saw.
 */
class SpringBootAgentIT extends AgainstFakeApi {
    private static final String STALE_TOKEN = "stale-access-b007ed";
    private static final String REFRESH_TOKEN = "first-refresh-5e7a1c";
    private static final List<String> BOOT_CLIENTS = List.of("RestClient", "RestTemplate", "WebClient");
    /** Boot's clients, then {@code new RestTemplate()} and Spring Cloud OpenFeign's default client. */
    private static final List<String> WITH_HTTP_URL_CONNECTION =
            List.of("RestClient", "RestTemplate", "WebClient", "new RestTemplate()", "OpenFeign");
    /** The agent's first back-off; the default (1 s) would only make the test slower. */
    private static final long BACKOFF_MILLIS = 100;

    private static final String APACHE = "Apache-HttpClient/";
    private static final String REACTOR_NETTY = "ReactorNetty/";
    private static final String JDK = "Java-http-client/";
    /** HttpURLConnection's own, when the app sets none. */
    private static final String HTTP_URL_CONNECTION = "Java/";

    /** Also {@code new RestTemplate()} and Spring Cloud OpenFeign's default client: {@code HttpURLConnection} under both. */
    @Test
    void withApacheHttpClient5AndWebfluxOnTheClassPath() throws Exception {
        AgentJvm.Result r = runApp("--scenes.http-url-connection=true");

        assertCalls(
                r,
                WITH_HTTP_URL_CONNECTION,
                Map.of(
                        "RestClient",
                        APACHE,
                        "RestTemplate",
                        APACHE,
                        "WebClient",
                        REACTOR_NETTY,
                        "new RestTemplate()",
                        HTTP_URL_CONNECTION,
                        "OpenFeign",
                        HTTP_URL_CONNECTION));
        assertThat(managedClients(r))
                .as(r.toString())
                .containsExactlyInAnyOrder("Apache HttpClient 5", "Reactor Netty", "HttpURLConnection");
    }

    @Test
    void withTheJdkClientChosenThroughBootsSettings() throws Exception {
        AgentJvm.Result r = runApp("--spring.http.client.factory=jdk", "--spring.http.reactiveclient.connector=jdk");

        assertCalls(r, BOOT_CLIENTS, Map.of("RestClient", JDK, "RestTemplate", JDK, "WebClient", JDK));
        assertThat(managedClients(r)).as(r.toString()).containsExactly("java.net.http.HttpClient");
    }

    @Test
    void withReactorNettyUnderEveryClient() throws Exception {
        AgentJvm.Result r = runApp("--spring.http.client.factory=reactor");

        assertCalls(
                r,
                BOOT_CLIENTS,
                Map.of("RestClient", REACTOR_NETTY, "RestTemplate", REACTOR_NETTY, "WebClient", REACTOR_NETTY));
        assertThat(managedClients(r)).as(r.toString()).containsExactly("Reactor Netty");
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
            throw new IllegalStateException(
                    "apiwarden.it.app-jar is not set: run the integration tests through Maven (./mvnw verify)");
        }
        return Paths.get(jar);
    }

    /**
     * What the app printed and what the API received, client by client: each POST after a revocation reached
     * the API twice with the same body, the second time with a token of its own refresh; the POST into the
     * rate limit twice, a back-off apart, with that token; the POST of a body Spring writes once only, as the
     * first (the agent recorded it as it went out). One refresh per revocation, none for the rate limit.
     */
    private void assertCalls(AgentJvm.Result r, List<String> clients, Map<String, String> userAgentByClient) {
        assertThat(r.exitCode).as(r.toString()).isZero();
        List<String> expected = new ArrayList<>();
        for (String client : clients) {
            expected.add(outcome(client, "expired-token", 200, "user"));
            expected.add(outcome(client, "rate-limit", 200, "user"));
            expected.add(outcome(client, "expired-token-stream", 200, "user"));
        }
        assertThat(r.stdout).as(r.toString()).filteredOn(l -> l.startsWith("{")).containsExactlyElementsOf(expected);
        assertThat(r.all()).doesNotContain(FakeOAuthApi.ISSUED_TOKEN, REFRESH_TOKEN, STALE_TOKEN);
        // A resend releases the app's buffer once: released twice, Reactor's discard hook logs this with its stack
        // trace.
        assertThat(r.all()).as(r.toString()).doesNotContain("IllegalReferenceCountException");

        Set<String> freshTokens = new HashSet<>();
        for (String client : clients) {
            String fresh = assertRefreshedAndResent(client, "expired-token", freshTokens);

            List<Integer> limited = arrivals(client, "rate-limit");
            assertThat(limited).as("%s's requests into the rate limit", client).hasSize(2);
            assertThat(limited)
                    .extracting(i -> authorization(api.apiRequests.get(i)))
                    .as(client)
                    .containsOnly(fresh);
            long gap = api.apiArrivalNanos.get(limited.get(1)) - api.apiArrivalNanos.get(limited.get(0));
            assertThat(gap)
                    .as("%s resent after the back-off", client)
                    .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(BACKOFF_MILLIS));

            assertRefreshedAndResent(client, "expired-token-stream", freshTokens);

            assertThat(api.apiRequests)
                    .filteredOn(q -> body(q).contains("\"client\":\"" + client + "\""))
                    .extracting(q -> q.getHeaders().get("User-Agent"))
                    .as("the client library under %s", client)
                    .allMatch(ua -> ua.startsWith(userAgentByClient.get(client)));
        }
        assertThat(api.tokenRequests).hasSize(freshTokens.size());
        assertThat(api.issuedCount()).isEqualTo(freshTokens.size());
    }

    /** The two requests of a POST refused for its revoked token and resent after a refresh; returns the new bearer. */
    private String assertRefreshedAndResent(String client, String scenario, Set<String> freshTokens) {
        List<Integer> sent = arrivals(client, scenario);
        assertThat(sent).as("%s's requests for %s", client, scenario).hasSize(2);
        String fresh = authorization(api.apiRequests.get(sent.get(1)));
        assertThat(fresh)
                .as(client)
                .startsWith("Bearer " + FakeOAuthApi.ISSUED_TOKEN + "-")
                .isNotEqualTo(authorization(api.apiRequests.get(sent.get(0))));
        assertThat(sent)
                .extracting(i -> api.apiRequests.get(i).getHeaders().get("Content-Type"))
                .as(client)
                .containsOnly("application/json");
        assertThat(freshTokens.add(fresh))
                .as("%s got a token of its own for %s", client, scenario)
                .isTrue();
        return fresh;
    }

    private static String outcome(String client, String scenario, int status, String body) {
        return "{\"client\":\"" + client + "\",\"scenario\":\"" + scenario + "\",\"status\":" + status + ",\"body\":\""
                + body + "\"}";
    }

    /** Indexes, in the order of arrival, of the API requests whose body is the app's JSON for this call. */
    private List<Integer> arrivals(String client, String scenario) {
        String json = "{\"client\":\"" + client + "\",\"scenario\":\"" + scenario + "\"}";
        return IntStream.range(0, api.apiRequests.size())
                .filter(i -> json.equals(body(api.apiRequests.get(i))))
                .boxed()
                .collect(Collectors.toList());
    }

    private static String body(RecordedRequest request) {
        return request.getBody() == null ? "" : request.getBody().utf8();
    }

    private static String authorization(RecordedRequest request) {
        return request.getHeaders().get("Authorization");
    }

    /** The clients the agent's start-up lines say it manages. */
    private static List<String> managedClients(AgentJvm.Result r) {
        return r.agentLog().stream()
                .filter(l -> l.contains("managing calls to"))
                .map(l -> l.replaceAll(".* through (.*) \\(the app .*", "$1"))
                .collect(Collectors.toList());
    }
}

package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.apps.SecondAgent;
import io.apiwarden.it.apps.UnmanagedClientsApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calls to the API through clients the agent does not manage, in an app started with the agent: each
 * client is named in one warning however many calls it makes, calls elsewhere are never warned about,
 * and the managed client's calls go on as before.
 */
class UnmanagedClientWarningIT extends AgainstFakeApi {
    private static final String TOKEN = FakeOAuthApi.ISSUED_TOKEN;
    private static final String REFRESH_TOKEN = "first-refresh-9b8a7";

    /** Another origin: the API's warnings never concern it. */
    private final MockWebServer elsewhere = new MockWebServer();

    @BeforeEach
    void startElsewhere() throws Exception {
        elsewhere.setDispatcher(new mockwebserver3.Dispatcher() {
            @Override
            public MockResponse dispatch(mockwebserver3.RecordedRequest request) {
                return new MockResponse.Builder().code(200).body("elsewhere").build();
            }
        });
        elsewhere.start(0);
    }

    @AfterEach
    void stopElsewhere() {
        elsewhere.close();
    }

    private AgentJvm app() throws Exception {
        AgentJvm jvm = new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.access-token", TOKEN)
                .property("apiwarden.refresh-token", REFRESH_TOKEN)
                // HttpURLConnection is the unmanaged client of these cases: watched while its module is off.
                .property("apiwarden.instrumentation.http-url-connection.enabled", "false");
        try (Stream<Path> jars = Files.list(AgentJvm.itLib("httpclient4"))) {
            jars.sorted().forEach(jvm::classPath);
        }
        return jvm;
    }

    private static List<String> warningsAbout(AgentJvm.Result r, String client) {
        return r.agentLog().stream()
                .filter(l -> l.contains(" WARN ") && l.contains("through " + client + ","))
                .toList();
    }

    @Test
    void anotherAgentRetransformingAWatchedClassKeepsItWorking(@TempDir Path dir) throws Exception {
        String api = url("/api/v1/user");
        Path secondAgent = dir.resolve("second-agent.jar");
        java.util.jar.Manifest manifest = new java.util.jar.Manifest();
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Premain-Class", SecondAgent.class.getName());
        manifest.getMainAttributes().putValue("Can-Retransform-Classes", "true");
        // The agent's class is on the app's class path already; its jar needs only the manifest.
        try (java.util.jar.JarOutputStream jar =
                new java.util.jar.JarOutputStream(Files.newOutputStream(secondAgent), manifest)) {
            jar.flush();
        }

        AgentJvm.Result r = app().jvmArg("-javaagent:" + secondAgent)
                .run(
                        UnmanagedClientsApp.class,
                        "url:" + api,
                        "retransform:sun.net.www.protocol.http.HttpURLConnection",
                        "url:" + api,
                        "url:" + url("/elsewhere"));

        // Woven when it was first defined, the class is woven again on retransformation: the JVM would refuse
        // bytes without the members it was given, and the second agent's call would fail.
        assertThat(r.exitCode).as(r.toString()).isZero();
        assertThat(r.stdout)
                .containsExactly(
                        "STATUS 401 {\"message\":\"OAuth invalid token\"}",
                        "RETRANSFORMED sun.net.www.protocol.http.HttpURLConnection",
                        "STATUS 401 {\"message\":\"OAuth invalid token\"}",
                        "STATUS 200 other");
        assertThat(warningsAbout(r, "HttpURLConnection")).as(r.toString()).hasSize(1);
    }

    @Test
    void httpUrlConnectionToTheApiIsNamedOnceHoweverManyCallsItMakes() throws Exception {
        String api = url("/api/v1/user");

        AgentJvm.Result r = app().run(
                        UnmanagedClientsApp.class,
                        "url:" + api,
                        "url:" + api,
                        "url:" + api,
                        "jdk:" + api,
                        "apache4:" + api,
                        "url:" + api);

        assertThat(r.exitCode).as(r.toString()).isZero();
        assertThat(r.stdout)
                .containsExactly(
                        "STATUS 401 {\"message\":\"OAuth invalid token\"}",
                        "STATUS 401 {\"message\":\"OAuth invalid token\"}",
                        "STATUS 401 {\"message\":\"OAuth invalid token\"}",
                        "STATUS 200 user",
                        "STATUS 200 user",
                        "STATUS 401 {\"message\":\"OAuth invalid token\"}");
        assertThat(warningsAbout(r, "HttpURLConnection"))
                .as(r.toString())
                .singleElement()
                .asString()
                .contains("a call to " + origin()
                        + " went out through HttpURLConnection, which the agent does not manage")
                .contains("no bearer token, no refresh, no back-off on rate limits and no spans")
                // The managed clients, in the modules' order (the list grows with each client managed).
                .contains("Send them through a managed client: java.net.http.HttpClient, OkHttp, Reactor Netty,"
                        + " Apache HttpClient 5 built with its builder, Apache HttpClient 4 built with its builder")
                .doesNotContain("managed client: HttpURLConnection")
                .contains("apiwarden.instrumentation.unmanaged-warnings.enabled=false")
                .doesNotContain("/api/v1/user");
        assertThat(r.agentLog())
                .as("no other warning: Apache HttpClient 4's default client is managed")
                .filteredOn(l -> l.contains(" WARN "))
                .hasSize(1);
        // The unmanaged calls went as the app sent them; the managed ones carried the token.
        assertThat(this.api.apiRequests)
                .extracting(q -> q.getHeaders().get("Authorization"))
                .containsExactly(null, null, null, "Bearer " + TOKEN, "Bearer " + TOKEN, null);
        assertThat(r.all()).doesNotContain(TOKEN, REFRESH_TOKEN);
    }

    @Test
    void httpUrlConnectionWithItsModuleOnIsManagedAndNeverWarnedAbout() throws Exception {
        String api = url("/api/v1/user");

        AgentJvm.Result r = app().property("apiwarden.instrumentation.http-url-connection.enabled", "true")
                .run(UnmanagedClientsApp.class, "url:" + api, "url:" + api);

        assertThat(r.stdout).as(r.toString()).containsExactly("STATUS 200 user", "STATUS 200 user");
        assertThat(r.agentLog()).as(r.toString()).noneMatch(l -> l.contains(" WARN "));
        assertThat(r.agentLog())
                .as(r.toString())
                .anyMatch(l -> l.contains("managing calls to") && l.contains("through HttpURLConnection"));
        assertThat(this.api.apiRequests)
                .extracting(q -> q.getHeaders().get("Authorization"))
                .containsExactly("Bearer " + TOKEN, "Bearer " + TOKEN);
        assertThat(r.all()).doesNotContain(TOKEN, REFRESH_TOKEN);
    }

    @Test
    void callsToOtherOriginsAndToPathsOutsideTheApiAreNeverWarnedAbout() throws Exception {
        String other = elsewhere.url("/api/v1/user").toString();

        AgentJvm.Result r = app().run(
                        UnmanagedClientsApp.class,
                        "url:" + other,
                        "apache4:" + other,
                        "url:" + url("/other"),
                        "apache4:" + url("/other"),
                        "url:" + other);

        assertThat(r.stdout)
                .as(r.toString())
                .containsExactly(
                        "STATUS 200 elsewhere",
                        "STATUS 200 elsewhere",
                        "STATUS 200 other",
                        "STATUS 200 other",
                        "STATUS 200 elsewhere");
        assertThat(r.agentLog()).as(r.toString()).noneMatch(l -> l.contains(" WARN "));
    }

    @Test
    void eachUnmanagedClientIsNamedOnceInItsOwnWarning() throws Exception {
        String api = url("/api/v1/user");

        // Apache HttpClient 4's default client is managed; switched off, it is watched again.
        AgentJvm.Result r = app().property("apiwarden.instrumentation.apache-httpclient4.enabled", "false")
                .run(
                        UnmanagedClientsApp.class,
                        "apache4:" + url("/other"),
                        "apache4:" + api,
                        "apache4:" + api,
                        "url:" + api,
                        "apache4:" + api,
                        "url:" + api,
                        "raw:" + api,
                        "raw:" + api);

        assertThat(r.stdout).as(r.toString()).hasSize(8);
        assertThat(r.stdout.subList(6, 8))
                .as("the raw calls went as the app wrote them")
                .containsOnly("STATUS 401 {\"message\":\"OAuth invalid token\"}");
        assertThat(warningsAbout(r, "Apache HttpClient 4")).as(r.toString()).hasSize(1);
        assertThat(warningsAbout(r, "HttpURLConnection")).as(r.toString()).hasSize(1);
        // No client at all: the last-resort watch of connections names the caller by its package.
        assertThat(warningsAbout(r, UnmanagedClientsApp.class.getPackageName()))
                .as(r.toString())
                .singleElement()
                .asString()
                .contains("a connection to " + origin() + ", the API's host and port, went out through "
                        + UnmanagedClientsApp.class.getPackageName() + ", which the agent does not manage")
                .contains("Send the calls through a managed client: ");
        assertThat(r.agentLog())
                .as("the managed and call-by-call watched clients' connections are not named again")
                .filteredOn(l -> l.contains(" WARN "))
                .hasSize(3);
        assertThat(this.api.apiRequests)
                .hasSize(7)
                .allSatisfy(q -> assertThat(q.getHeaders().get("Authorization")).isNull());
        assertThat(r.all()).doesNotContain(TOKEN, REFRESH_TOKEN);
    }

    @Test
    void theWarningsCanBeSwitchedOff() throws Exception {
        String api = url("/api/v1/user");

        AgentJvm.Result r = app().property("apiwarden.instrumentation.unmanaged-warnings.enabled", "false")
                .run(UnmanagedClientsApp.class, "url:" + api, "apache4:" + api);

        assertThat(r.stdout).as(r.toString()).hasSize(2);
        assertThat(r.agentLog()).as(r.toString()).noneMatch(l -> l.contains(" WARN "));
    }

    @Test
    void theLogNamesOnlyTheManagedClientsTheAppBuilds() throws Exception {
        // Every module on: an HttpURLConnection outside the API is not named either.
        AgentJvm.Result unmanagedOnly = app().property("apiwarden.instrumentation.http-url-connection.enabled", "true")
                .run(UnmanagedClientsApp.class, "url:" + url("/other"));
        AgentJvm.Result withJdkClient = app().property("apiwarden.instrumentation.http-url-connection.enabled", "true")
                .run(UnmanagedClientsApp.class, "jdk:" + url("/other"), "jdk:" + url("/other"));

        assertThat(unmanagedOnly.agentLog())
                .as(unmanagedOnly.toString())
                .singleElement()
                .asString()
                .endsWith(" INFO installed for calls to " + url("/api/v1"));
        assertThat(withJdkClient.agentLog()).as(withJdkClient.toString()).hasSize(2);
        assertThat(withJdkClient.agentLog().get(1))
                .endsWith(" INFO managing calls to " + url("/api/v1")
                        + " through java.net.http.HttpClient (the app built its first client)");
    }

    private String origin() {
        return "http://" + server.getHostName() + ":" + server.getPort();
    }
}

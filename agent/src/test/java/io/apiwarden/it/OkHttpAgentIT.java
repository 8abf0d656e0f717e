package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.apps.ChildLoaderOkHttpApp;
import io.apiwarden.it.apps.JdkClientApp;
import io.apiwarden.it.apps.OkHttpApp;
import io.apiwarden.it.apps.RetrofitApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Plain OkHttp apps (3.x, 4.x, 5.x), a Retrofit app and OkHttp in a child loader, started with the agent. */
class OkHttpAgentIT extends AgainstFakeApi {
    private static final String STALE_TOKEN = "stale-access-c0ffee";

    /** An app JVM with the agent pointed at the fake API, starting with an expired token; OkHttp not yet on it. */
    private AgentJvm configured() {
        return new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.access-token", STALE_TOKEN)
                .property("apiwarden.refresh-token", "first-refresh-9b8a7")
                .property("apiwarden.backoff.initial-delay", "100ms");
    }

    private AgentJvm app(String okhttp) throws Exception {
        AgentJvm jvm = configured();
        try (Stream<Path> jars = Files.list(AgentJvm.itLib(okhttp))) {
            jars.sorted().forEach(jvm::classPath);
        }
        return jvm;
    }

    @ParameterizedTest
    @ValueSource(strings = {"okhttp3", "okhttp4", "okhttp5"})
    void executeAndEnqueueAreManagedOnlyForTheApi(String okhttp) throws Exception {
        AgentJvm.Result r = app(okhttp)
                .run(
                        OkHttpApp.class,
                        "execute:" + url("/api/v1/user"),
                        "enqueue:" + url("/api/v1/user"),
                        "execute:" + url("/other"));

        assertThat(r.stdout)
                .as(r.toString())
                .filteredOn(l -> l.startsWith("STATUS"))
                .containsExactly("STATUS 200 user", "STATUS 200 user", "STATUS 200 other");
        assertThat(r.stdout)
                .as("the app's view of its request holds no token")
                .filteredOn(l -> l.startsWith("SHOWN"))
                .allSatisfy(l -> assertThat(l).startsWith("SHOWN null "));
        assertThat(api.tokenRequests).hasSize(1);
        assertThat(api.apiRequests)
                .extracting(q -> q.getHeaders().values("Authorization"))
                .containsExactly(
                        java.util.List.of("Bearer " + STALE_TOKEN),
                        java.util.List.of("Bearer " + FakeOAuthApi.ISSUED_TOKEN),
                        java.util.List.of("Bearer " + FakeOAuthApi.ISSUED_TOKEN));
        assertThat(api.otherRequests.get(0).getHeaders().get("Authorization")).isNull();
        assertThat(r.all()).doesNotContain(STALE_TOKEN, FakeOAuthApi.ISSUED_TOKEN, "first-refresh-9b8a7");
    }

    @Test
    void aTokenRevokedMomentsAfterItsIssueIsRefreshedOnceForConcurrentCalls() throws Exception {
        api.revocable = true;

        AgentJvm.Result r = app("okhttp5")
                .run(
                        OkHttpApp.class,
                        "execute:" + url("/api/v1/user"),
                        "execute:" + url("/revoke"),
                        "storm:50:" + url("/api/v1/user") + ":" + url("/other"));

        assertThat(r.stdout)
                .as(r.toString())
                .filteredOn(l -> l.startsWith("STORM"))
                .containsExactly("STORM {STATUS 200 user=50}");
        assertThat(api.tokenRequests)
                .as("one at the start, one after the revocation")
                .hasSize(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"execute-limit", "enqueue-limit"})
    void theAppsCallTimeoutBoundsTheRateLimitWaits(String way) throws Exception {
        api.rateLimitFirst = 100;

        // Waits of 200, 400 and 800 ms fit in 2.5 s; the next one (1.6 s) would not.
        AgentJvm.Result r = app("okhttp5")
                .property("apiwarden.access-token", FakeOAuthApi.ISSUED_TOKEN)
                .property("apiwarden.backoff.initial-delay", "200ms")
                .run(OkHttpApp.class, way + ":2500:" + url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).singleElement().asString().startsWith("LIMITED 429 ");
        assertThat(api.apiRequests).hasSize(4);
    }

    @ParameterizedTest
    @ValueSource(strings = {"execute-limit", "enqueue-limit"})
    void aTokenEndpointThatNeverAnswersDoesNotHoldTheCallPastTheAppsCallTimeout(String way) throws Exception {
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0)) {
            // Connections land in the accept queue and are never answered.
            AgentJvm.Result r = app("okhttp5")
                    .property("apiwarden.auth-url", null)
                    .property("apiwarden.token-url", "http://127.0.0.1:" + silent.getLocalPort() + "/token")
                    .run(OkHttpApp.class, way + ":1000:" + url("/api/v1/user"));

            String[] outcome = r.stdout.get(0).split(" ");
            assertThat(outcome[1]).as(r.toString()).isIn("401", "InterruptedIOException");
            // One token try alone takes 10 s (apiwarden.token-timeout) and all three about 33 s;
            // the app's own limit is 1 s. The bound leaves room for a slow machine.
            assertThat(Long.parseLong(outcome[2])).as(r.toString()).isLessThan(8_000);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"okhttp3", "okhttp5"})
    void theTokenNeverGoesWithAnEncodedSlashOrDot(String okhttp) throws Exception {
        String base = url("/api/v1");

        AgentJvm.Result r = app(okhttp)
                .property("apiwarden.access-token", FakeOAuthApi.ISSUED_TOKEN)
                .run(
                        OkHttpApp.class,
                        "execute:" + base + "/..%2Fadmin",
                        "enqueue:" + base + "/%2e%2e%2fadmin",
                        "execute:" + base + "/..%5Cadmin",
                        "execute:" + base + "/user");

        assertThat(r.exitCode).as(r.toString()).isZero();
        java.util.List<RecordedRequest> all = new java.util.ArrayList<>(api.otherRequests);
        all.addAll(api.apiRequests);
        assertThat(all).hasSize(4);
        assertThat(all)
                .filteredOn(q -> q.getHeaders().get("Authorization") != null)
                .singleElement()
                .satisfies(q -> assertThat(q.getUrl().encodedPath()).isEqualTo("/api/v1/user"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"okhttp4", "okhttp5"})
    void rateLimitedAsyncCallsHoldNoDispatcherThreadWhileTheyWait(String okhttp) throws Exception {
        // A global window: every API request is refused for 1.5 s from the first one.
        api.rateLimitWindowMillis = 1500;

        AgentJvm.Result r = app(okhttp)
                .property("apiwarden.access-token", FakeOAuthApi.ISSUED_TOKEN)
                .property("apiwarden.backoff.initial-delay", "1s")
                .run(OkHttpApp.class, "storm:100:" + url("/api/v1/user") + ":" + url("/other"));

        assertThat(r.stdout)
                .as(r.toString())
                .containsExactly("OTHER STATUS 200 other first=true", "STORM {STATUS 200 user=100}");
        // Those sent before the first refusal came back are resent once; the rest waited at the gate
        // (on the timer, not on a dispatcher thread) and were sent once.
        assertThat(api.apiRequests.size()).isBetween(101, 200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"okhttp3", "okhttp5"})
    void callsStartedWhileTheWindowHoldsWaitAtTheGateOnBothFaces(String okhttp, @TempDir Path dir) throws Exception {
        AgentJvm.Result r = runIntoAClosedGate(app(okhttp), OkHttpApp.class, dir, "both:20:");

        assertThat(r.stdout).as(r.toString()).containsExactly("BOTH {STATUS 200 user=40}", "FIRED STATUS 200 user");
        // The 40 waited at the gate on their own thread (execute) or on the timer (enqueue); the fired call's resend
        // went first when the window ended, and its success let them go.
        assertThat(api.duringWindow.get()).isZero();
        assertThat(api.apiRequests).hasSize(1 + 1 + 40);
    }

    @ParameterizedTest
    @ValueSource(strings = {"okhttp4", "okhttp5"})
    void cancellingAnEnqueuedCallStopsItsPendingRetryAndCallsBackOnce(String okhttp) throws Exception {
        api.rateLimitFirst = 100;

        AgentJvm.Result r = app(okhttp)
                .property("apiwarden.backoff.initial-delay", "30s")
                .run(OkHttpApp.class, "cancel:" + url("/api/v1/user"));

        assertThat(r.stdout)
                .as(r.toString())
                .singleElement()
                .asString()
                .startsWith("CANCEL ")
                .endsWith(" callbacks=1 fast=true");
        assertThat(r.stdout.get(0))
                .matches("CANCEL (FAILURE Canceled same-call=true|STATUS 429) callbacks=1 fast=true");
        assertThat(api.apiRequests).hasSize(1);
    }

    // OkHttp 5, the test class path's, in ClientAdapterContractAgentIT.OkHttpExecute.
    @ParameterizedTest
    @ValueSource(strings = {"okhttp4"})
    void cancellingAnExecutingCallEndsItsWaitAtOnce(String okhttp) throws Exception {
        api.rateLimitFirst = 100;

        AgentJvm.Result r = app(okhttp)
                .property("apiwarden.backoff.initial-delay", "30s")
                .run(OkHttpApp.class, "execute-cancel:" + url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).containsExactly("EXECUTE-CANCEL FAILURE Canceled fast=true");
        assertThat(api.apiRequests).hasSize(1);
    }

    // OkHttp 5, the test class path's, in ClientAdapterContractAgentIT.OkHttpExecute (a streamed body).
    @ParameterizedTest
    @ValueSource(strings = {"okhttp3", "okhttp4"})
    void aOneShotBodyIsRecordedAsWrittenAndResentAfterTheRefresh(String okhttp) throws Exception {
        AgentJvm.Result r = app(okhttp).run(OkHttpApp.class, "post-oneshot:" + url("/api/v1/items"));

        assertThat(r.stdout).as(r.toString()).containsExactly("STATUS 200");
        assertThat(api.tokenRequests).hasSize(1);
        assertThat(api.apiRequests).hasSize(2).allSatisfy(post -> {
            assertThat(post.getBody().utf8()).isEqualTo("streamed once");
            assertThat(post.getHeaders().get("Transfer-Encoding")).isEqualTo("chunked");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"okhttp4", "okhttp5"})
    void copiesMadeWithNewBuilderDoNotStackTheInterceptor(String okhttp) throws Exception {
        AgentJvm.Result r = app(okhttp)
                .property("apiwarden.access-token", FakeOAuthApi.ISSUED_TOKEN)
                .run(OkHttpApp.class, "copies:" + url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).containsExactly("INTERCEPTORS 1 1 2", "STATUS 200 user");
        assertThat(api.apiRequests.get(0).getHeaders().values("Authorization")).hasSize(1);
    }

    @Test
    void aCrossHostRedirectNeverCarriesTheToken() throws Exception {
        try (MockWebServer elsewhere = new MockWebServer()) {
            elsewhere.start(0);
            elsewhere.enqueue(
                    new MockResponse.Builder().code(200).body("landed").build());
            server.setDispatcher(new mockwebserver3.Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest request) {
                    return new MockResponse.Builder()
                            .code(302)
                            .addHeader("Location", elsewhere.url("/landing"))
                            .build();
                }
            });

            AgentJvm.Result r = app("okhttp4").run(OkHttpApp.class, "execute:" + url("/api/v1/user"));

            assertThat(r.stdout).as(r.toString()).contains("STATUS 200 landed");
            assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer " + STALE_TOKEN);
            assertThat(elsewhere.takeRequest().getHeaders().get("Authorization"))
                    .isNull();
        }
    }

    // OkHttp 5, the test class path's, in ClientAdapterContractAgentIT.OkHttpExecute.
    @ParameterizedTest
    @ValueSource(strings = {"okhttp4"})
    void aRedirectToAnotherPathOfTheSameHostOutsideTheBaseLosesTheToken(String okhttp) throws Exception {
        server.setDispatcher(new mockwebserver3.Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                if (request.getUrl().encodedPath().equals("/api/v1/user")) {
                    return new MockResponse.Builder()
                            .code(302)
                            .addHeader("Location", "/other/landing")
                            .build();
                }
                return new MockResponse.Builder()
                        .code(200)
                        .body("landed " + request.getHeaders().get("Authorization"))
                        .build();
            }
        });

        AgentJvm.Result r = app(okhttp).run(OkHttpApp.class, "execute:" + url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).contains("STATUS 200 landed null");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/orders", "/other"})
    void whatTheAppsOwnInterceptorsThrowReachesTheAppOnceAndNothingIsSentTwice(String path) throws Exception {
        AgentJvm.Result r = app("okhttp5")
                .property("apiwarden.access-token", FakeOAuthApi.ISSUED_TOKEN)
                .run(OkHttpApp.class, "throwing:" + url(path));

        assertThat(r.stdout)
                .as(r.toString())
                .containsExactly("THROWN IllegalStateException: the app's own interceptor failed");
        assertThat(api.apiRequests.size() + api.otherRequests.size()).isEqualTo(1);
        assertThat(r.agentLog()).noneMatch(l -> l.contains("could not be managed"));
    }

    @Test
    void okHttpLoadedByAChildClassLoaderIsManaged() throws Exception {
        AgentJvm.Result r = configured()
                .run(ChildLoaderOkHttpApp.class, AgentJvm.itLib("okhttp5").toString(), url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).containsExactly("LOADER true", "STATUS 200 user");
        assertThat(api.tokenRequests).hasSize(1);
    }

    @Test
    void okHttpAsANamedModuleIsManaged() throws Exception {
        // OkHttp 5 ships a module descriptor: on the module path, module okhttp3 reads only what it requires,
        // so the calls woven into it link to the agent only through the read edge the agent adds.
        AgentJvm.Result r = configured()
                .jvmArg("--module-path")
                .jvmArg(AgentJvm.itLib("okhttp5").toString())
                .jvmArg("--add-modules")
                .jvmArg("okhttp3")
                .run(OkHttpApp.class, "execute:" + url("/api/v1/user"), "enqueue:" + url("/api/v1/user"));

        assertThat(r.stdout)
                .as(r.toString())
                .filteredOn(l -> l.startsWith("STATUS"))
                .containsExactly("STATUS 200 user", "STATUS 200 user");
        assertThat(api.tokenRequests).hasSize(1);
        assertThat(r.agentLog()).as(r.toString()).noneMatch(l -> l.contains("unmanaged") || l.contains("could not"));
    }

    @Test
    void retrofitWorksUnchanged() throws Exception {
        AgentJvm.Result r = app("okhttp4").run(RetrofitApp.class, url("/api/v1/"));

        assertThat(r.stdout).as(r.toString()).containsExactly("STATUS 200 user");
        assertThat(api.tokenRequests).hasSize(1);
    }

    @Test
    void switchingOkHttpOffLeavesItAloneAndTheJdkClientManaged() throws Exception {
        AgentJvm.Result okhttp = app("okhttp4")
                .property("apiwarden.instrumentation.okhttp.enabled", "false")
                .run(OkHttpApp.class, "execute:" + url("/api/v1/user"));
        AgentJvm.Result jdk = app("okhttp4")
                .property("apiwarden.instrumentation.okhttp.enabled", "false")
                .run(JdkClientApp.class, "send:" + url("/api/v1/user"));

        assertThat(okhttp.stdout).as(okhttp.toString()).contains("STATUS 401 {\"message\":\"OAuth invalid token\"}");
        assertThat(jdk.stdout).as(jdk.toString()).containsExactly("STATUS 200 user");
        assertThat(api.apiRequests.get(0).getHeaders().get("Authorization")).isNull();
    }
}

package io.apiwarden.unmanaged;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.scope.ApiScope;
import io.netty.channel.DefaultEventLoop;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The last-resort watch of connections: called here as the woven {@code Socket.connect} calls it, from this test's
 * frames, which are not the agent's (they come from the test classes, not the agent's classes): the "library" that
 * connects is this test's package unless a known client claims its classes.
 */
class ConnectWatchTest {
    private static final String MANAGED = "OkHttp or Reactor Netty";
    private static final String THIS_PACKAGE = ConnectWatchTest.class.getPackageName();
    private static final Object SOCKET = new Object();

    private final ApiScope scope = ApiScope.of(URI.create("https://api.example.com/v1"));
    private final List<String> warnings = new ArrayList<>();
    private final List<Class<?>> askedWhetherAgent = new ArrayList<>();
    private final Predicate<Class<?>> agentOwn = ConnectWatch.sameCodeSourceAs(ConnectWatch.class);
    private ExecutorService pool;

    @AfterEach
    void stopPool() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    private ConnectWatch watch(List<ConnectWatch.KnownClient> known) {
        return new ConnectWatch(
                scope,
                known,
                type -> {
                    askedWhetherAgent.add(type);
                    return agentOwn.test(type);
                },
                MANAGED,
                warnings::add);
    }

    private static InetSocketAddress api() {
        return InetSocketAddress.createUnresolved("api.example.com", 443);
    }

    @Test
    void connectionsElsewhereNeverLookAtTheStack() {
        ConnectWatch watch = watch(List.of());

        assertThat(watch.test(SOCKET, InetSocketAddress.createUnresolved("api.example.com", 8443)))
                .isFalse();
        assertThat(watch.test(SOCKET, InetSocketAddress.createUnresolved("other.example.com", 443)))
                .isFalse();
        assertThat(watch.test(SOCKET, new InetSocketAddress(InetAddress.getLoopbackAddress(), 443)))
                .isFalse();
        assertThat(watch.test(SOCKET, null)).isFalse();
        assertThat(watch.test(SOCKET, "not an address")).isFalse();

        assertThat(warnings).isEmpty();
        assertThat(askedWhetherAgent)
                .as("the stack is walked for the API's host and port only")
                .isEmpty();
    }

    @Test
    void withSeveralApisAConnectionToAnyOfThemIsWatchedAndTheWarningNamesIt() {
        ConnectWatch watch = new ConnectWatch(
                List.of(
                        WatchedApi.named("payments", ApiScope.of(URI.create("https://pay.example.com/v1"))),
                        WatchedApi.named("crm", ApiScope.of(URI.create("http://crm.example.com:8080")))),
                List.of(),
                agentOwn,
                MANAGED,
                warnings::add);

        assertThat(watch.test(SOCKET, api())).as("no API's host").isFalse();
        assertThat(watch.test(SOCKET, InetSocketAddress.createUnresolved("crm.example.com", 443)))
                .as("an API's host, another API's port")
                .isFalse();
        assertThat(warnings).isEmpty();
        assertThat(watch.test(SOCKET, InetSocketAddress.createUnresolved("crm.example.com", 8080)))
                .isFalse();

        assertThat(warnings)
                .singleElement()
                .asString()
                .startsWith("a connection to http://crm.example.com:8080, the host and port of the API crm, went out"
                        + " through " + THIS_PACKAGE)
                .contains("calls to the API crm through it get no bearer token");
    }

    @Test
    void aConnectionToTheApiFromCodeNoClientClaimsNamesItsPackageOnce() {
        ConnectWatch watch = watch(List.of());

        assertThat(watch.test(SOCKET, api())).as("the watch goes on").isFalse();
        assertThat(watch.test(SOCKET, InetSocketAddress.createUnresolved("API.example.com", 443)))
                .isFalse();

        assertThat(warnings)
                .singleElement()
                .asString()
                .startsWith("a connection to https://api.example.com, the API's host and port, went out through "
                        + THIS_PACKAGE + ", which the agent does not manage")
                .contains("no bearer token, no refresh, no back-off on rate limits and no spans")
                .contains("Send the calls through a managed client: " + MANAGED + ".")
                .contains("apiwarden.instrumentation.unmanaged-warnings.enabled=false");
        assertThat(askedWhetherAgent)
                .as("the watch's own frames are skipped; the first frame asked is the caller's")
                .first()
                .isEqualTo(ConnectWatchTest.class);
    }

    @Test
    void aClientThatIsManagedOrWatchedCallByCallIsLeftAlone() {
        ConnectWatch watch = watch(List.of(ConnectWatch.KnownClient.leftAlone(ConnectWatchTest.class::equals)));

        watch.test(SOCKET, api());

        assertThat(warnings).isEmpty();
    }

    @Test
    void aManagedClientSwitchedOffIsNamedWithItsSwitch() {
        ConnectWatch watch = watch(List.of(ConnectWatch.KnownClient.switchedOff(
                ConnectWatchTest.class::equals, "OkHttp", "apiwarden.instrumentation.okhttp.enabled")));

        watch.test(SOCKET, api());

        assertThat(warnings)
                .singleElement()
                .asString()
                .contains("went out through OkHttp, which the agent does not manage")
                .contains("Switch its management back on: apiwarden.instrumentation.okhttp.enabled=true.");
    }

    @Test
    void theAgentsOwnConnectionsAreLeftAlone() throws Exception {
        ConnectWatch byItsCode =
                new ConnectWatch(scope, List.of(), type -> type == ConnectWatchTest.class, MANAGED, warnings::add);
        byItsCode.test(SOCKET, api());

        pool = Executors.newSingleThreadExecutor(named("apiwarden-token"));
        pool.submit(() -> watch(List.of()).test(SOCKET, api())).get();

        assertThat(warnings).isEmpty();
    }

    @Test
    void anApiNamedByItsAddressMatchesConnectionsToThatAddress() throws Exception {
        ApiScope byAddress = ApiScope.of(URI.create("http://127.0.0.1:8080/v1"));
        ConnectWatch watch = new ConnectWatch(byAddress, List.of(), agentOwn, MANAGED, warnings::add);

        watch.test(SOCKET, new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 8080));
        assertThat(warnings).isEmpty();
        watch.test(SOCKET, new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 8080));
        assertThat(warnings).singleElement().asString().contains("a connection to http://127.0.0.1:8080,");
    }

    @Test
    void aConnectOnAThreadThatShowsOnlyTheJdkIsNamedByTheThread() {
        pool = Executors.newSingleThreadExecutor(named("some-client-io-1"));
        ConnectWatch watch = watch(List.of());

        onlyJdkFramesCall(watch);

        assertThat(warnings)
                .singleElement()
                .asString()
                .contains("went out through a client on thread 'some-client-io-1'");
    }

    @Test
    void anEventLoopsOwnThreadClassNamesItsLibraryOrLeavesAManagedOneAlone() {
        pool = Executors.newSingleThreadExecutor(r -> new LoopThread(r));
        onlyJdkFramesCall(watch(List.of()));
        assertThat(warnings)
                .as("no frame of the client; the thread's class is its own")
                .singleElement()
                .asString()
                .contains("went out through " + THIS_PACKAGE + ",");

        warnings.clear();
        onlyJdkFramesCall(watch(List.of(ConnectWatch.KnownClient.leftAlone(LoopThread.class::equals))));
        assertThat(warnings).as("a managed client's loop (Vert.x 4.5's)").isEmpty();
    }

    @Test
    void aNettyOnlyConnectIsNamedAsNettyUnlessAManagedClientConnectsFromPlainNettyLoops() throws Exception {
        DefaultEventLoop loop = new DefaultEventLoop();
        try {
            onlyNettyFramesCall(watch(List.of()), loop);
            assertThat(warnings).singleElement().asString().contains("went out through Netty (on event-loop thread '");

            warnings.clear();
            onlyNettyFramesCall(
                    watch(List.of(ConnectWatch.KnownClient.leftAloneOnPlainNettyLoops(type -> false))), loop);
            assertThat(warnings)
                    .as("a managed client connects from such loops (Micronaut 4's): the connect may be its")
                    .isEmpty();
        } finally {
            loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        }
    }

    @Test
    void knownLibrariesAreNamedWithAdviceThatFitsThem() {
        assertThat(CallerLibrary.of("io.ktor.network.sockets.ConnectUtilsJvmKt", MANAGED)
                        .name())
                .isEqualTo("Ktor");
        assertThat(CallerLibrary.of("io.ktor.network.sockets.ConnectUtilsJvmKt", MANAGED)
                        .advice())
                .contains("ktor-client-java", "ktor-client-okhttp");
        assertThat(CallerLibrary.of("io.micronaut.http.client.netty.ConnectionManager", MANAGED)
                        .advice())
                .contains("micronaut-http-client-jdk");
        assertThat(CallerLibrary.of("feign.Client$Default", MANAGED).advice()).contains("feign-hc5", "feign-okhttp");
        assertThat(CallerLibrary.of("com.google.api.client.http.javanet.NetHttpRequest", MANAGED)
                        .advice())
                .contains("Apache5HttpTransport");
        assertThat(CallerLibrary.of("io.vertx.core.impl.VertxThread", MANAGED).name())
                .isEqualTo("Vert.x");
        assertThat(CallerLibrary.of("com.acme.sdk.RawCaller", MANAGED).name()).isEqualTo("com.acme.sdk");
        assertThat(CallerLibrary.nettyEventLoop("nioEventLoopGroup-2-1").key()).isEqualTo("Netty");
    }

    /** Runs the watch as a connect on {@link #pool}'s thread would, with no frame of this test on the stack. */
    private void onlyJdkFramesCall(ConnectWatch watch) {
        // A method reference has no frame of its own: the stack is the pool's and CompletableFuture's.
        CompletableFuture.completedFuture(SOCKET)
                .thenAcceptBothAsync(CompletableFuture.completedFuture(api()), watch::test, pool)
                .join();
    }

    /** Runs the watch as a task of a plain Netty event loop would: only Netty's and the JDK's frames. */
    private static void onlyNettyFramesCall(ConnectWatch watch, DefaultEventLoop loop) {
        CompletableFuture.completedFuture(SOCKET)
                .thenAcceptBothAsync(CompletableFuture.completedFuture(api()), watch::test, loop)
                .join();
    }

    private static ThreadFactory named(String name) {
        return r -> new Thread(r, name);
    }

    /** An event loop's thread of a library's own class, as Vert.x's {@code VertxThread}. */
    private static final class LoopThread extends Thread {
        LoopThread(Runnable task) {
            super(task, "loop-1");
        }
    }
}

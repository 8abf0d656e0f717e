package io.apiwarden.bench;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.concurrent.TimeUnit;
import okhttp3.Request;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * One call after another on a loopback keep-alive connection, small answer, in each way an app calls
 * ({@link AppCalls.Way}): the time of a whole call and what it allocates. {@link PerCallRun} runs it once per
 * {@link AgentSetup} (the fork's JVM options say which) against the simulated API.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PerCallBenchmark {
    /** System properties the runner gives the forked JVM. */
    static final String MANAGED_URL_PROPERTY = "bench.managed-url";

    static final String UNMANAGED_URL_PROPERTY = "bench.unmanaged-url";

    /** {@code managed}: a call to the API; {@code unmanaged}: to the same server outside the API. */
    @Param({"managed", "unmanaged"})
    public String target;

    private AppCalls app;
    private HttpRequest jdkRequest;
    private Request okhttpRequest;
    private ClassicHttpRequest apacheRequest;
    private String urlText;
    private URI url;
    private boolean api;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        api = target.equals("managed");
        url = URI.create(required(api ? MANAGED_URL_PROPERTY : UNMANAGED_URL_PROPERTY));
        // JMH forks a JVM per benchmark method and target: it builds only the client of the way it measures, so no
        // other client's threads or event loops run beside it.
        String method = params.getBenchmark();
        AppCalls.Way way = PerCallRun.wayOf(method.substring(method.lastIndexOf('.') + 1));
        app = AppCalls.forWay(way);
        jdkRequest = app.jdkRequest(url, api);
        okhttpRequest = app.okhttpRequest(url, api);
        apacheRequest = app.apacheRequest(url, api);
        urlText = url.toString();
        // A benchmark of 401s or 429s would measure the wrong thing: fail the trial instead.
        expectOk(app.call(way, url, api));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        app.close();
    }

    @Benchmark
    public int jdkSend() {
        return expectOk(app.jdkSend(jdkRequest));
    }

    @Benchmark
    public int jdkSendAsync() {
        return expectOk(app.jdkSendAsync(jdkRequest).join());
    }

    @Benchmark
    public int okhttpExecute() {
        return expectOk(app.okhttpExecute(okhttpRequest));
    }

    @Benchmark
    public int okhttpEnqueue() {
        return expectOk(app.okhttpEnqueue(okhttpRequest).join());
    }

    @Benchmark
    public int apacheExecute() {
        return expectOk(app.apacheExecute(apacheRequest));
    }

    @Benchmark
    public int reactorNetty() {
        return expectOk(app.reactorNetty(urlText));
    }

    @Benchmark
    public int httpUrlConnection() {
        return expectOk(app.call(AppCalls.Way.HTTP_URL_CONNECTION, url, api));
    }

    @Benchmark
    public int restTemplate() {
        return expectOk(app.call(AppCalls.Way.REST_TEMPLATE, url, api));
    }

    @Benchmark
    public int apache4Execute() {
        return expectOk(app.call(AppCalls.Way.APACHE4_EXECUTE, url, api));
    }

    @Benchmark
    public int vertx() {
        return expectOk(app.call(AppCalls.Way.VERTX, url, api));
    }

    @Benchmark
    public int jettySend() {
        return expectOk(app.call(AppCalls.Way.JETTY_SEND, url, api));
    }

    @Benchmark
    public int micronaut() {
        return expectOk(app.call(AppCalls.Way.MICRONAUT, url, api));
    }

    @Benchmark
    public int ktorCio() {
        return expectOk(app.call(AppCalls.Way.KTOR_CIO, url, api));
    }

    private static int expectOk(int status) {
        if (status != 200) {
            throw new IllegalStateException("the benchmark's call was answered " + status + ", not 200: the server or "
                    + "the setup is wrong, and the figures would not be of a successful call");
        }
        return status;
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException(property + " is not set: run the benchmarks through BenchmarkSuite");
        }
        return value;
    }
}

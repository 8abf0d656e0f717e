package io.apiwarden.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.io.CloseMode;

/**
 * The app under measurement: plain calls with no retry or refresh logic, through the JDK {@code HttpClient},
 * OkHttp, Apache HttpClient 5, Reactor Netty and (in {@link MoreAppCalls}) the other clients the agent manages. It sets its own bearer token when it was given one ({@link AgentSetup#APP_TOKEN_FILE_PROPERTY}), as an
 * app without API Warden must, and none otherwise.
 */
final class AppCalls implements AutoCloseable {
    /**
     * The ways an app makes a call: the JDK client and OkHttp each in both faces, the clients Spring picks by default,
     * and the clients real apps call through besides ({@link MoreAppCalls}).
     */
    enum Way {
        JDK_SEND("JDK send", "jdkSend", "jdk-send"),
        JDK_SEND_ASYNC("JDK sendAsync", "jdkSendAsync", "jdk-send-async"),
        OKHTTP_EXECUTE("OkHttp execute", "okhttpExecute", "okhttp-execute"),
        OKHTTP_ENQUEUE("OkHttp enqueue", "okhttpEnqueue", "okhttp-enqueue"),
        APACHE_EXECUTE("Apache HttpClient 5 execute", "apacheExecute", "apache-execute"),
        REACTOR_NETTY("Reactor Netty (blocked on)", "reactorNetty", "reactor-netty"),
        HTTP_URL_CONNECTION("HttpURLConnection", "httpUrlConnection", "http-url-connection"),
        REST_TEMPLATE("Spring new RestTemplate() (HttpURLConnection)", "restTemplate", "rest-template"),
        APACHE4_EXECUTE("Apache HttpClient 4 execute", "apache4Execute", "apache4-execute"),
        VERTX("Vert.x 4.5 HttpClient (joined)", "vertx", "vertx"),
        JETTY_SEND("Jetty 12 HttpClient send", "jettySend", "jetty-send"),
        MICRONAUT("Micronaut 4 HttpClient toBlocking", "micronaut", "micronaut"),
        KTOR_CIO("Ktor 3 client, CIO engine (joined)", "ktorCio", "ktor-cio");

        /** The two clients the agent managed first, in all their ways: what the soaks and storms use. */
        static final List<Way> JDK_AND_OKHTTP = List.of(JDK_SEND, JDK_SEND_ASYNC, OKHTTP_EXECUTE, OKHTTP_ENQUEUE);

        final String label;
        /** Its method in {@link PerCallBenchmark}. */
        final String benchmark;
        /** Its name in {@code --ways=}. */
        final String option;

        Way(String label, String benchmark, String option) {
            this.label = label;
            this.benchmark = benchmark;
            this.option = option;
        }

        /** Whether its client is one of {@link MoreAppCalls}': the ways declared from {@link #HTTP_URL_CONNECTION} on. */
        boolean throughMoreClients() {
            return compareTo(HTTP_URL_CONNECTION) >= 0;
        }

        static Way named(String option) {
            for (Way w : values()) {
                if (w.option.equals(option)) {
                    return w;
                }
            }
            throw new IllegalArgumentException("no way of calling is named '" + option + "'; the ways are "
                    + java.util.Arrays.stream(values())
                            .map(w -> w.option)
                            .collect(java.util.stream.Collectors.joining(",")));
        }
    }

    private final HttpClient jdk;
    private final OkHttpClient okhttp;
    private final CloseableHttpClient apache;
    private final reactor.netty.http.client.HttpClient reactorClient;
    private final String appToken = SecretFile.read(System.getProperty(AgentSetup.APP_TOKEN_FILE_PROPERTY));
    private final MoreAppCalls more;

    private AppCalls(Set<Way> ways) {
        jdk = ways.contains(Way.JDK_SEND) || ways.contains(Way.JDK_SEND_ASYNC)
                ? HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                : null;
        okhttp = ways.contains(Way.OKHTTP_EXECUTE) || ways.contains(Way.OKHTTP_ENQUEUE) ? new OkHttpClient() : null;
        apache = ways.contains(Way.APACHE_EXECUTE) ? HttpClients.createDefault() : null;
        reactorClient = ways.contains(Way.REACTOR_NETTY) ? newReactorClient() : null;
        // Only when one of its ways is asked for: linking MoreAppCalls loads classes of Spring, Micronaut and Apache
        // HttpClient 4 (its catch clauses), which the start-up probe of another client must not load.
        more = ways.stream().anyMatch(Way::throughMoreClients) ? new MoreAppCalls(ways, appToken) : null;
    }

    /** An app with the JDK client and OkHttp. */
    static AppCalls withBothClients() {
        return new AppCalls(EnumSet.copyOf(Way.JDK_AND_OKHTTP));
    }

    /** An app with every client a way names. */
    static AppCalls withAllClients() {
        return new AppCalls(EnumSet.allOf(Way.class));
    }

    /** An app with only the client that {@code way} needs, so a start-up measurement loads nothing else. */
    static AppCalls forWay(Way way) {
        return new AppCalls(EnumSet.of(way));
    }

    /** Reactor Netty's client, with the app's own bearer on every request when it has one (all its calls go to one server). */
    private reactor.netty.http.client.HttpClient newReactorClient() {
        reactor.netty.http.client.HttpClient client = reactor.netty.http.client.HttpClient.create();
        return appToken == null ? client : client.headers(h -> h.set("Authorization", "Bearer " + appToken));
    }

    /** A JDK request for {@code url}, with the app's own bearer on API calls when it has one. */
    HttpRequest jdkRequest(URI url, boolean api) {
        HttpRequest.Builder b = HttpRequest.newBuilder(url);
        if (api && appToken != null) {
            b.header("Authorization", "Bearer " + appToken);
        }
        return b.build();
    }

    Request okhttpRequest(URI url, boolean api) {
        Request.Builder b = new Request.Builder().url(url.toString());
        if (api && appToken != null) {
            b.header("Authorization", "Bearer " + appToken);
        }
        return b.build();
    }

    int jdkSend(HttpRequest request) {
        try {
            return jdk.send(request, HttpResponse.BodyHandlers.ofByteArray()).statusCode();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The body of an unmanaged GET, as text. */
    String jdkGetBody(URI url) {
        try {
            return jdk.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofString())
                    .body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    CompletableFuture<Integer> jdkSendAsync(HttpRequest request) {
        return jdk.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).thenApply(HttpResponse::statusCode);
    }

    int okhttpExecute(Request request) {
        try (Response response = okhttp.newCall(request).execute()) {
            response.body().bytes();
            return response.code();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    CompletableFuture<Integer> okhttpEnqueue(Request request) {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        okhttp.newCall(request).enqueue(new Callback() {
            @Override
            public void onFailure(Call call, IOException e) {
                done.completeExceptionally(e);
            }

            @Override
            public void onResponse(Call call, Response response) {
                try (response) {
                    response.body().bytes();
                    done.complete(response.code());
                } catch (IOException | RuntimeException e) {
                    done.completeExceptionally(e);
                }
            }
        });
        return done;
    }

    ClassicHttpRequest apacheRequest(URI url, boolean api) {
        HttpGet get = new HttpGet(url);
        if (api && appToken != null) {
            get.setHeader("Authorization", "Bearer " + appToken);
        }
        return get;
    }

    int apacheExecute(ClassicHttpRequest request) {
        try {
            return apache.execute(request, response -> {
                EntityUtils.consume(response.getEntity());
                return response.getCode();
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A GET through Reactor Netty, its body read whole, blocked on as a servlet app would. */
    int reactorNetty(String url) {
        Integer status = reactorClient
                .get()
                .uri(url)
                .responseSingle((response, body) -> body.asByteArray()
                        .defaultIfEmpty(new byte[0])
                        .map(bytes -> response.status().code()))
                .block(Duration.ofSeconds(30));
        return status == null ? -1 : status;
    }

    /** One call in the given way, waited for; the status code. */
    int call(Way way, URI url, boolean api) {
        switch (way) {
            case JDK_SEND:
                return jdkSend(jdkRequest(url, api));
            case JDK_SEND_ASYNC:
                return jdkSendAsync(jdkRequest(url, api)).join();
            case OKHTTP_EXECUTE:
                return okhttpExecute(okhttpRequest(url, api));
            case OKHTTP_ENQUEUE:
                return okhttpEnqueue(okhttpRequest(url, api)).join();
            case APACHE_EXECUTE:
                return apacheExecute(apacheRequest(url, api));
            case REACTOR_NETTY:
                // The app's bearer is set on the client for every call; an unmanaged call carries it too, harmlessly.
                return reactorNetty(url.toString());
            case HTTP_URL_CONNECTION:
                return more.httpUrlConnection(url, api);
            case REST_TEMPLATE:
                return more.restTemplate(url, api);
            case APACHE4_EXECUTE:
                return more.apache4Execute(url, api);
            case VERTX:
                return more.vertx(url, api);
            case JETTY_SEND:
                return more.jettySend(url, api);
            case MICRONAUT:
                return more.micronaut(url, api);
            case KTOR_CIO:
                return more.ktorCio(url, api);
            default:
                throw new AssertionError(way);
        }
    }

    /** Lets the process end promptly: OkHttp's dispatcher and pool threads linger otherwise. */
    @Override
    public void close() {
        if (more != null) {
            more.close();
        }
        if (apache != null) {
            apache.close(CloseMode.IMMEDIATE);
        }
        if (reactorClient != null) {
            reactor.netty.http.HttpResources.disposeLoopsAndConnections();
        }
        if (okhttp == null) {
            return;
        }
        okhttp.dispatcher().executorService().shutdown();
        okhttp.connectionPool().evictAll();
        try {
            okhttp.dispatcher().executorService().awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

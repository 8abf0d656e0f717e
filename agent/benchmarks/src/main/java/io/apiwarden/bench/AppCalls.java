package io.apiwarden.bench;

import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The app under measurement: plain JDK {@code HttpClient} and OkHttp calls with no retry or refresh
 * logic. It sets its own bearer token when it was given one ({@link AgentSetup#APP_TOKEN_FILE_PROPERTY}), as an
 * app without API Warden must, and none otherwise.
 */
final class AppCalls implements AutoCloseable {
    /** The four ways an app makes a call. */
    enum Way {
        JDK_SEND("JDK send"),
        JDK_SEND_ASYNC("JDK sendAsync"),
        OKHTTP_EXECUTE("OkHttp execute"),
        OKHTTP_ENQUEUE("OkHttp enqueue");

        final String label;

        Way(String label) {
            this.label = label;
        }
    }

    private final HttpClient jdk;
    private final OkHttpClient okhttp;
    private final String appToken = SecretFile.read(System.getProperty(AgentSetup.APP_TOKEN_FILE_PROPERTY));

    private AppCalls(boolean withJdk, boolean withOkHttp) {
        jdk = withJdk ? HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build() : null;
        okhttp = withOkHttp ? new OkHttpClient() : null;
    }

    /** An app with both clients. */
    static AppCalls withBothClients() {
        return new AppCalls(true, true);
    }

    /** An app with only the client that {@code way} needs, so a start-up measurement loads nothing else. */
    static AppCalls forWay(Way way) {
        boolean jdkWay = way == Way.JDK_SEND || way == Way.JDK_SEND_ASYNC;
        return new AppCalls(jdkWay, !jdkWay);
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
            return jdk.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofString()).body();
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
            default:
                throw new AssertionError(way);
        }
    }

    /** Lets the process end promptly: OkHttp's dispatcher and pool threads linger otherwise. */
    @Override
    public void close() {
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

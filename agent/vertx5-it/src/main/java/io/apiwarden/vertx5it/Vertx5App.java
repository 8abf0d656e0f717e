package io.apiwarden.vertx5it;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import java.lang.reflect.Method;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * An app with no auth code on Vert.x 5's {@code HttpClient}, run with the agent by the integration test. It plays
 * the four scenes and prints one JSON line per call: a GET with the bearer; a GET after the API revoked the token;
 * a JSON POST (a body given whole) after a revocation; a GET into a 3 s window of the API's global rate limit. Then
 * one more, not a scene: a POST whose body the app writes piece by piece into a refusal of the API's rate limit
 * ({@code streamed ...}); and a GET through Vert.x 5's {@code WebClient}, which makes its requests through an
 * {@code HttpClient} of its own, into a refusal of the API's rate limit ({@code webclient ...}). The scene paths are the fake API's own,
 * outside the API, called through the same client.
 * {@code args[0]} is the API's origin.
 */
public final class Vertx5App {
    private static final String CLIENT = "Vert.x 5 HttpClient";

    private Vertx5App() {}

    public static void main(String[] args) throws Exception {
        URI origin = URI.create(args[0]);
        Vertx vertx = Vertx.vertx();
        try {
            HttpClient client = vertx.createHttpClient();
            Calls calls = new Calls(client, origin);
            scene("bearer", calls.call(HttpMethod.GET, "/api/v1/user?scene=bearer", HttpClientRequest::send));
            calls.call(HttpMethod.POST, "/revoke", HttpClientRequest::send);
            scene("refresh", calls.call(HttpMethod.GET, "/api/v1/user?scene=refresh", HttpClientRequest::send));
            calls.call(HttpMethod.POST, "/revoke", HttpClientRequest::send);
            String item = "{\"client\":\"" + CLIENT + "\",\"scenario\":\"post\"}";
            scene("post", calls.call(HttpMethod.POST, "/api/v1/items", request -> request.putHeader(
                            "Content-Type", "application/json")
                    .send(Buffer.buffer(item))));
            calls.call(HttpMethod.POST, "/rate-limit-window", HttpClientRequest::send);
            scene(
                    "rate-limit-window",
                    calls.call(HttpMethod.GET, "/api/v1/user?scene=rate-limit-window", HttpClientRequest::send));

            calls.call(HttpMethod.POST, "/rate-limit-next", HttpClientRequest::send);
            String streamed = calls.call(HttpMethod.POST, "/api/v1/items?scene=streamed", request -> {
                request.setChunked(true).putHeader("Content-Type", "application/json");
                request.write("{\"part\":1,");
                request.end("\"part\":2}");
                return request.response();
            });
            System.out.println("streamed " + streamed);

            calls.call(HttpMethod.POST, "/rate-limit-next", HttpClientRequest::send);
            String webclient = webClientGet(vertx, origin, "/api/v1/user?scene=webclient")
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            System.out.println("webclient " + webclient);
        } finally {
            vertx.close().await();
        }
    }

    /**
     * {@code WebClient.create(vertx).get(port, host, uri).send()}, its outcome as {@code "200 user"}. By reflection
     * only because this module cannot compile against vertx-web-client 5.1.10 (its pom's parent is not on Maven
     * Central: the pom); the calls, and so the requests WebClient makes through its HttpClient, are the same.
     */
    private static Future<String> webClientGet(Vertx vertx, URI origin, String uri) throws Exception {
        Class<?> webClient = Class.forName("io.vertx.ext.web.client.WebClient");
        Class<?> httpRequest = Class.forName("io.vertx.ext.web.client.HttpRequest");
        Class<?> httpResponse = Class.forName("io.vertx.ext.web.client.HttpResponse");
        Object client = webClient.getMethod("create", Vertx.class).invoke(null, vertx);
        Object request = webClient
                .getMethod("get", int.class, String.class, String.class)
                .invoke(client, origin.getPort(), origin.getHost(), uri);
        Future<?> sent = (Future<?>) httpRequest.getMethod("send").invoke(request);
        Method status = httpResponse.getMethod("statusCode");
        Method body = httpResponse.getMethod("bodyAsString");
        return sent.map(response -> {
            try {
                return status.invoke(response) + " " + body.invoke(response);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("reading WebClient's response", e);
            }
        });
    }

    private static void scene(String scenario, String outcome) {
        String[] statusAndBody = outcome.split(" ", 2);
        System.out.println("{\"client\":\"" + CLIENT + "\",\"scenario\":\"" + scenario + "\",\"status\":"
                + statusAndBody[0] + ",\"body\":\"" + statusAndBody[1] + "\"}");
    }

    /** Calls through one client, each waited for: its status and body, as {@code "200 user"}. */
    private static final class Calls {
        private final HttpClient client;
        private final URI origin;

        Calls(HttpClient client, URI origin) {
            this.client = client;
            this.origin = origin;
        }

        String call(
                HttpMethod method,
                String pathAndQuery,
                Function<HttpClientRequest, Future<io.vertx.core.http.HttpClientResponse>> send)
                throws Exception {
            return client.request(method, origin.getPort(), origin.getHost(), pathAndQuery)
                    .compose(send::apply)
                    .compose(response -> response.body().map(body -> response.statusCode() + " " + body))
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
        }
    }
}

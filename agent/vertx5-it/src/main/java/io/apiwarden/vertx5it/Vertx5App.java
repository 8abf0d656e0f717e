package io.apiwarden.vertx5it;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import java.net.URI;
import java.util.concurrent.TimeUnit;

/** One GET of the URL in {@code args[0]} through Vert.x 5's {@code HttpClient}; prints the status it ended with. */
public final class Vertx5App {
    private Vertx5App() {}

    public static void main(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        Vertx vertx = Vertx.vertx();
        try {
            HttpClientResponse response = vertx.createHttpClient()
                    .request(HttpMethod.GET, url.getPort(), url.getHost(), url.getRawPath())
                    .compose(request -> request.send())
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            System.out.println("status " + response.statusCode());
        } finally {
            vertx.close().await();
        }
    }
}

package io.apiwarden.it.apps;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.InputStreamEntity;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A plain Apache HttpClient 5 app with no auth code, run in its own JVM by the agent's integration
 * tests. Each argument is one step:
 * <ul>
 *   <li>{@code get:URL}: one classic GET, prints {@code STATUS code body};
 *   <li>{@code post-stream:URL}: a classic POST whose body is a stream (not repeatable), prints {@code STATUS code}.
 * </ul>
 */
public final class ApacheHttpClientApp {
    private ApacheHttpClientApp() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("LOADER " + HttpClients.class.getClassLoader().getName());
        try (CloseableHttpClient client = HttpClients.createDefault()) {
            for (String step : args) {
                String[] parts = step.split(":", 2);
                String url = parts[1];
                switch (parts[0]) {
                    case "get":
                        String got = client.execute(new HttpGet(url), r -> "STATUS " + r.getCode() + " " + text(r));
                        System.out.println(got);
                        break;
                    case "post-stream":
                        HttpPost post = new HttpPost(url);
                        post.setEntity(new InputStreamEntity(new ByteArrayInputStream("{}".getBytes(StandardCharsets.UTF_8)),
                                2, ContentType.APPLICATION_JSON));
                        String posted = client.execute(post, r -> "STATUS " + r.getCode());
                        System.out.println(posted);
                        break;
                    default:
                        throw new IllegalArgumentException("unknown step " + step);
                }
            }
        }
    }

    private static String text(ClassicHttpResponse response) throws IOException {
        try {
            return EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8);
        } catch (org.apache.hc.core5.http.ParseException e) {
            throw new IOException(e);
        }
    }
}

package io.apiwarden.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A plain JDK client for the simulated API, without any agent: what the tests send, as written. */
final class ApiTestClient {
    static final String FORM = "application/x-www-form-urlencoded";

    private final SimulatedApi api;
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    ApiTestClient(SimulatedApi api) {
        this.api = api;
    }

    HttpResponse<String> requestToken(String refreshToken) {
        return postToken(
                FORM,
                "grant_type=refresh_token&refresh_token=" + URLEncoder.encode(refreshToken, StandardCharsets.UTF_8));
    }

    HttpResponse<String> postToken(String contentType, String body) {
        return send(HttpRequest.newBuilder(api.tokenUrl())
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** A fresh access token from the current refresh token. */
    String newAccessToken() {
        HttpResponse<String> response = requestToken(api.currentRefreshToken());
        if (response.statusCode() != 200) {
            throw new AssertionError("token request failed: " + response.statusCode() + " " + response.body());
        }
        return jsonString(response.body(), "access_token");
    }

    /** GET {base}{path}, with {@code Authorization} set to {@code authorization} unless null. */
    HttpResponse<String> get(String path, String authorization) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(api.baseUrl() + path)).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return send(request);
    }

    HttpResponse<String> getUser(String accessToken) {
        return get("/user", "Bearer " + accessToken);
    }

    HttpResponse<String> headBase() {
        return send(HttpRequest.newBuilder(api.baseUrl()).method("HEAD", HttpRequest.BodyPublishers.noBody()));
    }

    HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return client.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The value of a string field of a flat JSON object; enough for the simulated API's answers. */
    static String jsonString(String json, String field) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(field) + "\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"")
                .matcher(json);
        if (!m.find()) {
            throw new AssertionError("no string field " + field + " in " + json);
        }
        return m.group(1);
    }
}

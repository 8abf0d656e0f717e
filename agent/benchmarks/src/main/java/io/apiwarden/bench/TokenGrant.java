package io.apiwarden.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.apiwarden.demo.SimulatedApi;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/** Signs in at the simulated API's token endpoint as an app would, with the refresh-token grant. */
final class TokenGrant {
    private TokenGrant() {}

    /** A new access token, valid for the server's token lifetime; the server rotates its refresh token. */
    static String accessToken(SimulatedApi api) throws IOException, InterruptedException {
        String form = "grant_type=refresh_token&refresh_token="
                + URLEncoder.encode(api.currentRefreshToken(), StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(api.tokenUrl())
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(
                    "the token endpoint answered " + response.statusCode() + " to the benchmark");
        }
        try (JsonParser json = new JsonFactory().createParser(response.body())) {
            while (json.nextToken() != null) {
                if (json.currentToken() == JsonToken.FIELD_NAME
                        && json.currentName().equals("access_token")) {
                    json.nextToken();
                    return json.getText();
                }
            }
        }
        throw new IllegalStateException("the token endpoint's answer holds no access_token");
    }
}

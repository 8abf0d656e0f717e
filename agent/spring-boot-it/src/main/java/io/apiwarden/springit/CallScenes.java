package io.apiwarden.springit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.client.RestTemplateBuilder;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The calls the test looks at, for each of the three clients in turn (and with {@code
 * --scenes.http-url-connection=true}, then through {@code new RestTemplate()} and a Spring Cloud OpenFeign client,
 * both over {@code HttpURLConnection}): a POST after the API revoked the
 * access token, a POST that the API refuses once for its global rate limit, and a POST after a revocation
 * whose body is a stream Spring can write once only ({@code InputStreamResource}). The scene is set through
 * the fake API's own paths ({@code /revoke}, {@code /rate-limit-next}), outside the API, through the same
 * client, so that the app uses no other client library.
 */
@Component
class CallScenes {
    private final List<AppClient> clients;
    private final String origin;
    private final ObjectMapper json;

    CallScenes(
            RestClient.Builder restClient,
            RestTemplateBuilder restTemplate,
            WebClient.Builder webClient,
            FeignApi feign,
            @Value("${scenes.http-url-connection:false}") boolean httpUrlConnection,
            @Value("${api.origin}") String origin,
            ObjectMapper json) {
        this.clients = new ArrayList<>(List.of(
                AppClient.of(restClient.build()),
                AppClient.of("RestTemplate", restTemplate.build()),
                AppClient.of(webClient.build())));
        if (httpUrlConnection) {
            // Spring's SimpleClientHttpRequestFactory, as without Boot's builder.
            clients.add(AppClient.of("new RestTemplate()", new RestTemplate()));
            clients.add(AppClient.of(feign));
        }
        this.origin = origin;
        this.json = json;
    }

    void playAll() throws JsonProcessingException {
        for (AppClient client : clients) {
            client.post(origin + "/revoke", new Item(client.name(), "set-scene"));
            play(client, "expired-token");
            client.post(origin + "/rate-limit-next", new Item(client.name(), "set-scene"));
            play(client, "rate-limit");
            client.post(origin + "/revoke", new Item(client.name(), "set-scene"));
            play(client, "expired-token-stream");
        }
    }

    /** One POST to the API, whose outcome is one line of output; a scenario ending in "-stream" posts a stream. */
    private void play(AppClient client, String scenario) throws JsonProcessingException {
        Item item = new Item(client.name(), scenario);
        String url = origin + "/api/v1/items";
        AppClient.Answer answer = scenario.endsWith("-stream")
                ? client.postStream(url, json.writeValueAsBytes(item))
                : client.post(url, item);
        System.out.println(
                json.writeValueAsString(new Outcome(client.name(), scenario, answer.status(), answer.body())));
    }

    /** What the app posts: a JSON body that names the call, so that the test can find it on the server. */
    record Item(String client, String scenario) {}

    /** One line of the app's output. */
    record Outcome(String client, String scenario, int status, String body) {}
}

package io.apiwarden.springit;

import feign.FeignException;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.time.Duration;
import org.springframework.core.io.InputStreamResource;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.HttpStatusCodeException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

/** A POST of a JSON body through one of Spring's clients, with the status and body it ended with, errors included. */
interface AppClient {
    /** Longer than any call of the test takes; a call that takes it has hung. */
    Duration CALL_TIME_LIMIT = Duration.ofSeconds(30);

    String name();

    Answer post(String url, Object body);

    /** A POST of a JSON body read from a stream: Spring can write it once only ({@code InputStreamResource}). */
    default Answer postStream(String url, byte[] json) {
        return post(url, new InputStreamResource(new ByteArrayInputStream(json)));
    }

    record Answer(int status, String body) {}

    static AppClient of(RestClient client) {
        return new AppClient() {
            @Override
            public String name() {
                return "RestClient";
            }

            @Override
            public Answer post(String url, Object body) {
                return client.post()
                        .uri(url)
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(body)
                        .exchange((request, response) ->
                                new Answer(response.getStatusCode().value(), response.bodyTo(String.class)));
            }
        };
    }

    static AppClient of(String name, RestTemplate template) {
        return new AppClient() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Answer post(String url, Object body) {
                try {
                    HttpHeaders headers = new HttpHeaders();
                    headers.setContentType(MediaType.APPLICATION_JSON);
                    ResponseEntity<String> response =
                            template.postForEntity(url, new HttpEntity<>(body, headers), String.class);
                    return new Answer(response.getStatusCode().value(), response.getBody());
                } catch (HttpStatusCodeException e) {
                    return new Answer(e.getStatusCode().value(), e.getResponseBodyAsString());
                }
            }
        };
    }

    /**
     * Feign turns an error status into a {@code FeignException}, as {@code RestTemplate} does into its own. A
     * stream is read whole by Spring's encoder (Feign holds every body as bytes), and Feign's default client
     * writes it once, in fixed-length streaming mode.
     */
    static AppClient of(FeignApi feign) {
        return new AppClient() {
            @Override
            public String name() {
                return "OpenFeign";
            }

            @Override
            public Answer post(String url, Object body) {
                try {
                    ResponseEntity<String> response = feign.post(URI.create(url), body);
                    return new Answer(response.getStatusCode().value(), response.getBody());
                } catch (FeignException e) {
                    return new Answer(e.status(), e.contentUTF8());
                }
            }
        };
    }

    static AppClient of(WebClient client) {
        return new AppClient() {
            @Override
            public String name() {
                return "WebClient";
            }

            @Override
            public Answer post(String url, Object body) {
                return client.post()
                        .uri(url)
                        .contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(body)
                        .exchangeToMono(response -> response.bodyToMono(String.class)
                                .defaultIfEmpty("")
                                .map(text -> new Answer(response.statusCode().value(), text)))
                        .block(CALL_TIME_LIMIT);
            }
        };
    }
}

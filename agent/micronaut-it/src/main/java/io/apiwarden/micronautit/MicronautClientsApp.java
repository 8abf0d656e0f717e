package io.apiwarden.micronautit;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.context.ApplicationContext;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A Micronaut app with no auth code, packaged as a shaded jar and started with the agent by the integration test.
 * Through its declarative {@code @Client} (Micronaut's Netty client underneath) it plays four scenes and prints one
 * JSON line per call: a GET with the bearer; a GET after the API revoked the token; a JSON POST after a revocation;
 * a GET into a 3 s window of the API's global rate limit. {@code -Dapi.origin=URL} says where the API is.
 */
public final class MicronautClientsApp {
    private static final String CLIENT = "Micronaut @Client";

    private MicronautClientsApp() {}

    public static void main(String[] args) throws Exception {
        try (ApplicationContext context = ApplicationContext.run()) {
            Api api = context.getBean(Api.class);
            ObjectMapper json = context.getBean(ObjectMapper.class);
            print(json, "bearer", () -> api.user("bearer"));
            api.setScene("revoke");
            print(json, "refresh", () -> api.user("refresh"));
            api.setScene("revoke");
            print(json, "post", () -> api.post(new Item(CLIENT, "post")));
            api.setScene("rate-limit-window");
            print(json, "rate-limit-window", () -> api.user("rate-limit-window"));
        }
    }

    /** The call's status and body; the declarative client throws for an error status, whose response it carries. */
    private static void print(ObjectMapper json, String scenario, Supplier<HttpResponse<String>> call)
            throws Exception {
        HttpResponse<?> response;
        String body;
        try {
            HttpResponse<String> ok = call.get();
            response = ok;
            body = ok.body();
        } catch (HttpClientResponseException e) {
            response = e.getResponse();
            body = e.getResponse().getBody(String.class).orElse("");
        }
        Map<String, Object> outcome = new LinkedHashMap<>();
        outcome.put("client", CLIENT);
        outcome.put("scenario", scenario);
        outcome.put("status", response.code());
        outcome.put("body", body);
        System.out.println(json.writeValueAsString(outcome));
    }
}

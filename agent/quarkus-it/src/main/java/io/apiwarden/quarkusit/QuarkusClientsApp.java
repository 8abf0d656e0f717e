package io.apiwarden.quarkusit;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * A Quarkus command-line app with no auth code, packaged as an uber-jar and started with the agent by the
 * integration test. Through its REST client (Vert.x's HttpClient underneath) it plays four scenes and prints one
 * JSON line per call: a GET with the bearer; a GET after the API revoked the token; a JSON POST after a
 * revocation; a GET into a 3 s window of the API's global rate limit.
 */
@QuarkusMain
public class QuarkusClientsApp implements QuarkusApplication {
    private static final String CLIENT = "Quarkus REST client";

    @Inject
    @RestClient
    Api api;

    @Inject
    ObjectMapper json;

    public static void main(String... args) {
        Quarkus.run(QuarkusClientsApp.class, args);
    }

    @Override
    public int run(String... args) throws Exception {
        print("bearer", api.user("bearer"));
        api.setScene("revoke").close();
        print("refresh", api.user("refresh"));
        api.setScene("revoke").close();
        print("post", api.post(new Api.Item(CLIENT, "post")));
        api.setScene("rate-limit-window").close();
        print("rate-limit-window", api.user("rate-limit-window"));
        return 0;
    }

    private void print(String scenario, Response response) throws Exception {
        Map<String, Object> outcome = new LinkedHashMap<>();
        outcome.put("client", CLIENT);
        outcome.put("scenario", scenario);
        outcome.put("status", response.getStatus());
        outcome.put("body", response.readEntity(String.class));
        System.out.println(json.writeValueAsString(outcome));
    }
}

package io.apiwarden.quarkusit;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * The API as a Quarkus app declares it, with no auth code: the agent adds the bearer. The scene paths are the
 * fake API's own, outside the API, called through the same client so that the app uses no other.
 */
@RegisterRestClient(configKey = "api")
public interface Api {
    @GET
    @Path("/api/v1/user")
    Response user(@QueryParam("scene") String scene);

    @POST
    @Path("/api/v1/items")
    @Consumes(MediaType.APPLICATION_JSON)
    Response post(Item item);

    /** {@code revoke}, {@code rate-limit-window}: the fake API sets the next scene. */
    @POST
    @Path("/{scene}")
    Response setScene(@PathParam("scene") String scene);

    /** What the app posts: a JSON body that names the call, so that the test can find it on the server. */
    record Item(String client, String scenario) {}
}

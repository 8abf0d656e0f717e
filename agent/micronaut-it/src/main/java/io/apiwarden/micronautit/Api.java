package io.apiwarden.micronautit;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.client.annotation.Client;

/**
 * The API as a Micronaut app declares it, with no auth code: the agent adds the bearer. The scene paths are the
 * fake API's own, outside the API, called through the same client so that the app uses no other.
 */
@Client("${api.origin}")
public interface Api {
    @Get("/api/v1/user{?scene}")
    HttpResponse<String> user(@QueryValue("scene") String scene);

    @Post("/api/v1/items")
    HttpResponse<String> post(@Body Item item);

    /** {@code revoke}, {@code rate-limit-window}: the fake API sets the next scene. */
    @Post("/{scene}")
    HttpResponse<String> setScene(@PathVariable("scene") String scene);
}

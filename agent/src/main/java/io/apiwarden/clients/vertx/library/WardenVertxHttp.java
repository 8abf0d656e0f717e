package io.apiwarden.clients.vertx.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.time.DelayScheduler;
import io.vertx.core.http.HttpClient;
import java.util.Objects;

/**
 * Library mode for Vert.x core's {@code HttpClient}, without the agent: {@code manage(client)} returns the
 * client with its calls to the API managed (the bearer, one refresh, back-off and the gate, bodies resent,
 * redirects, the app's time limit, {@code reset()} as cancel, telemetry). Everything else goes to the client as
 * it is. Vert.x 4.5 and 5. With the agent attached every client is managed already: this is for apps that prefer
 * no agent.
 */
public final class WardenVertxHttp {
    private final VertxHttpGlue glue;

    private WardenVertxHttp(VertxHttpGlue glue) {
        this.glue = glue;
    }

    /** Managed by {@code warden}, waiting on each request's Vert.x timers. */
    public static WardenVertxHttp create(Warden warden) {
        return new WardenVertxHttp(new VertxHttpGlue(Objects.requireNonNull(warden, "warden")));
    }

    /** Managed by {@code warden}, waiting on {@code timer} (tests: a timer they control; never one that blocks an event loop). */
    public static WardenVertxHttp create(Warden warden, DelayScheduler timer) {
        return new WardenVertxHttp(
                new VertxHttpGlue(Objects.requireNonNull(warden, "warden"), Objects.requireNonNull(timer, "timer")));
    }

    /**
     * {@code client}, its requests to the API managed: on Vert.x 4.5 an {@code HttpClient} of 4.5, on Vert.x 5 an
     * {@code HttpClientAgent} (what 5's {@code createHttpClient()} returns). On a Vert.x before 4.5 an {@link
     * IllegalStateException} says so: nothing there is managed.
     */
    public HttpClient manage(HttpClient client) {
        Objects.requireNonNull(client, "client");
        HttpClient managed = glue.libraryClient(client);
        if (managed == null) {
            throw new IllegalStateException("WardenVertxHttp manages the HttpClient of Vert.x 4.5 and 5; this"
                    + " Vert.x core is neither (its HttpClientRequest has neither 4.5's end(Handler) nor 5's"
                    + " cancel()): move the app to Vert.x 4.5 or later, or call the API through another client");
        }
        return managed;
    }
}

package io.apiwarden.clients.vertx.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.time.DelayScheduler;
import io.vertx.core.http.HttpClient;
import java.util.Objects;

/**
 * Library mode for Vert.x core's {@code HttpClient}, without the agent: {@code manage(client)} returns the
 * client with its calls to the API managed (the bearer, one refresh, back-off and the gate, bodies resent,
 * redirects, the app's time limit, {@code reset()} as cancel, telemetry). Everything else goes to the client as
 * it is. With the agent attached every client is managed already: this is for apps that prefer no agent.
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
     * {@code client}, its requests to the API managed. Vert.x 4.5 only: on Vert.x 5 an {@link IllegalStateException}
     * says so (there, attach the agent, which manages 5's clients).
     */
    public HttpClient manage(HttpClient client) {
        Objects.requireNonNull(client, "client");
        if (!glue.isFourDotFive()) {
            throw new IllegalStateException("WardenVertxHttp manages Vert.x 4.5's HttpClient only; this Vert.x is"
                    + " not 4.5: attach the API Warden agent instead (-javaagent:apiwarden-agent.jar), which manages"
                    + " Vert.x 5's HttpClient too");
        }
        return new ManagedHttpClient(client, glue);
    }
}

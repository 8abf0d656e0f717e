package io.apiwarden.clients.vertx.library;

import io.apiwarden.clients.vertx.bridge.VertxHttpBridge;
import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.engine.EntryGuard;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.time.DelayScheduler;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.util.Optional;

/**
 * The agent's entry into one copy of Vert.x core: the requests its {@code HttpClient} makes, handed on as they
 * are outside the API and as a {@link ManagedClientRequest} inside. Defined by the agent in a class loader whose
 * parent is Vert.x's own, so that it links to the app's copy whatever loader that is.
 */
public final class VertxHttpGlue implements VertxHttpBridge {
    private static final StackWalker STACK = StackWalker.getInstance();

    /** The Warden of each request's API: one Warden in library mode, the agent's router otherwise. */
    private final Wardens wardens;
    /** Where waits go; null for the Vert.x timers of each request's own Vert.x. */
    private final DelayScheduler timer;
    /** The Vert.x line of this copy (its managed request is compiled against it), or null: not managed. */
    private final VertxLine line;

    /** Waits on Vert.x's timers. */
    public VertxHttpGlue(Wardens wardens) {
        this(wardens, null);
    }

    /** For library mode and tests: waits on {@code timer} (null for Vert.x's). */
    VertxHttpGlue(Wardens wardens, DelayScheduler timer) {
        this.wardens = wardens;
        this.timer = timer;
        this.line = VertxLine.ofThisVertx();
        if (line == null) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "vertx-http-version",
                    "this Vert.x is neither 4.5 nor 5: its HttpClient's calls go as without the agent",
                    null);
        }
    }

    /** Library mode's client for {@code client} on this copy's line, or null when this Vert.x is neither 4.5 nor 5. */
    HttpClient libraryClient(HttpClient client) {
        return line == null ? null : line.libraryClient(client, this);
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object onRequest(Object client, Object options, Object future) {
        RequestOptions request = (RequestOptions) options;
        if (!mayBeManaged(request)) {
            return future;
        }
        return manage((HttpClient) client, request, (Future<HttpClientRequest>) future);
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object onRequestHandler(Object client, Object options, Object handler) {
        RequestOptions request = (RequestOptions) options;
        if (!mayBeManaged(request)) {
            return handler;
        }
        Handler<AsyncResult<HttpClientRequest>> app = (Handler<AsyncResult<HttpClientRequest>>) handler;
        return (Handler<AsyncResult<HttpClientRequest>>) made -> app.handle(
                made.succeeded() ? Future.succeededFuture(managed((HttpClient) client, request, made.result())) : made);
    }

    /** The request the future of {@code client.request(options)} completes with, managed when it is a call to the API. */
    Future<HttpClientRequest> manage(HttpClient client, RequestOptions options, Future<HttpClientRequest> made) {
        if (line == null) {
            return made;
        }
        return made.map(request -> managed(client, options, request));
    }

    private HttpClientRequest managed(HttpClient client, RequestOptions options, HttpClientRequest request) {
        HttpClientRequest managed = EntryGuard.open("vertx-http-request", "a Vert.x request", () -> {
            Warden warden = wardens.forRequest(URI.create(request.absoluteURI()));
            if (warden == null) {
                return null;
            }
            // Run where the client completes its request's future: the app's continuations belong there.
            Context context = Vertx.currentContext();
            if (context == null) {
                return null;
            }
            DelayScheduler waits = timer != null ? timer : new VertxTimer(context.owner());
            return line.manage(warden, client, options, request, context, waits);
        });
        return managed != null ? managed : request;
    }

    /**
     * Whether the woven {@code request} may be making a call to manage: not a request the agent makes itself,
     * not one for another host, and not the next hop of a redirect the client follows (it must stay the client's
     * own request type). A hop is made by the client's redirect handling, which calls {@code request} through
     * Vert.x's futures; an app's call comes from its own code (or WebClient's, or Quarkus's).
     */
    private boolean mayBeManaged(RequestOptions options) {
        if (line == null || options instanceof AttemptOptions) {
            return false;
        }
        String host = options.getHost();
        if (host != null && !wardens.hasApiOn(host)) {
            return false;
        }
        return !STACK.walk(frames -> isRedirectHop(frames.map(f -> f.getClassName() + "#" + f.getMethodName())
                // This slice's own frames (the hook, library mode's client); not all of io.apiwarden, which the
                // agent's test apps live in too.
                .filter(f -> !f.startsWith("io.apiwarden.clients.vertx."))
                // The client's delegating methods: its implementation's, and (Vert.x 5) the default overloads of
                // HttpClient itself; a lambda there is the client's redirect handling.
                .filter(f -> !f.startsWith("io.vertx.core.http.") || f.contains("#lambda$"))
                .findFirst()));
    }

    /** The first frame below the client's own delegating methods: the client's redirect handling, or Vert.x's futures. */
    private static boolean isRedirectHop(Optional<String> caller) {
        return caller.map(f -> f.startsWith("io.vertx.core.")).orElse(true);
    }
}

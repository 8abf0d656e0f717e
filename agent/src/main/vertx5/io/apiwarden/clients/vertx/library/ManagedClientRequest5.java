package io.apiwarden.clients.vertx.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.time.DelayScheduler;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ClientForm;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.StreamResetException;
import io.vertx.core.net.HostAndPort;

/**
 * The managed request on Vert.x 5, over the version-neutral {@link ManagedClientRequest}: what 5's
 * {@code HttpClientRequest} has that one class compiled against 4.5 cannot (its {@code Future}-returning
 * {@code reset} and {@code writeCustomFrame}, {@code cancel}, {@code authority()}, {@code send(ClientForm)}).
 * Compiled against Vert.x 5 in a compile step of its own (the agent's pom, {@code vertx5}); made by
 * {@link VertxLine} only where Vert.x 5 is the app's.
 */
final class ManagedClientRequest5 extends ManagedClientRequest {
    ManagedClientRequest5(
            Warden warden,
            HttpClient client,
            RequestOptions options,
            HttpClientRequest first,
            Context context,
            DelayScheduler timer) {
        super(warden, client, options, first, context, timer);
    }

    @Override
    public Future<Void> reset(long code) {
        return reset(code, new StreamResetException(code));
    }

    @Override
    public Future<Void> reset(long code, Throwable cause) {
        resetCall(code, cause);
        return Future.succeededFuture();
    }

    /** As 5's own: a request not yet answered is reset, and the future says whether it was. */
    @Override
    public Future<Boolean> cancel() {
        return Future.succeededFuture(resetCall(0x8, new StreamResetException(0x8)));
    }

    @Override
    public HostAndPort authority() {
        return first.authority();
    }

    /** A form is encoded by the client's own request with classes of its own: it goes unmanaged (docs/architecture.md). */
    @Override
    public Future<HttpClientResponse> send(ClientForm form) {
        return sendUnmanaged(request -> request.send(form));
    }

    @Override
    public Future<Void> writeCustomFrame(int type, int flags, Buffer payload) {
        return first.writeCustomFrame(type, flags, payload);
    }

    @Override
    public long streamId() {
        return first.streamId();
    }
}

package io.apiwarden.clients.vertx.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.time.DelayScheduler;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.StreamResetException;

/**
 * The managed request on Vert.x 4.5: its callback overloads, its {@code setHost}/{@code setPort}/{@code setTimeout},
 * and its {@code boolean} {@code reset}, over the version-neutral {@link ManagedClientRequest}.
 */
final class ManagedClientRequest4 extends ManagedClientRequest {
    ManagedClientRequest4(
            Warden warden,
            HttpClient client,
            RequestOptions options,
            HttpClientRequest first,
            Context context,
            DelayScheduler timer) {
        super(warden, client, options, first, context, timer);
    }

    @Override
    public boolean reset(long code) {
        return reset(code, new StreamResetException(code));
    }

    @Override
    public boolean reset(long code, Throwable cause) {
        return resetCall(code, cause);
    }

    @Override
    public void write(Buffer data, Handler<AsyncResult<Void>> handler) {
        write(data).onComplete(handler);
    }

    @Override
    public void write(String chunk, Handler<AsyncResult<Void>> handler) {
        write(chunk).onComplete(handler);
    }

    @Override
    public void write(String chunk, String enc, Handler<AsyncResult<Void>> handler) {
        write(chunk, enc).onComplete(handler);
    }

    @Override
    public void end(Buffer chunk, Handler<AsyncResult<Void>> handler) {
        end(chunk).onComplete(handler);
    }

    @Override
    public void end(Handler<AsyncResult<Void>> handler) {
        end().onComplete(handler);
    }

    @Override
    public void end(String chunk, Handler<AsyncResult<Void>> handler) {
        end(chunk).onComplete(handler);
    }

    @Override
    public void end(String chunk, String enc, Handler<AsyncResult<Void>> handler) {
        end(chunk, enc).onComplete(handler);
    }

    @Override
    public HttpClientRequest sendHead(Handler<AsyncResult<Void>> completionHandler) {
        sendHead().onComplete(completionHandler);
        return this;
    }

    @Override
    public HttpClientRequest response(Handler<AsyncResult<HttpClientResponse>> handler) {
        response().onComplete(handler);
        return this;
    }

    @Override
    public void connect(Handler<AsyncResult<HttpClientResponse>> handler) {
        connect().onComplete(handler);
    }

    @Override
    @SuppressWarnings("deprecation")
    public HttpClientRequest setHost(String host) {
        first.setHost(host);
        return this;
    }

    @Override
    @SuppressWarnings("deprecation")
    public String getHost() {
        return first.getHost();
    }

    @Override
    @SuppressWarnings("deprecation")
    public HttpClientRequest setPort(int port) {
        first.setPort(port);
        return this;
    }

    @Override
    @SuppressWarnings("deprecation")
    public int getPort() {
        return first.getPort();
    }

    /** The app's time limit for the whole call: each attempt gets what is left of it (docs/architecture.md, Vert.x). */
    @Override
    @SuppressWarnings("deprecation")
    public HttpClientRequest setTimeout(long timeout) {
        appTimeout(timeout);
        first.setTimeout(timeout);
        return this;
    }

    @Override
    public HttpClientRequest writeCustomFrame(int type, int flags, Buffer payload) {
        first.writeCustomFrame(type, flags, payload);
        return this;
    }

    @Override
    public int streamId() {
        return first.streamId();
    }
}

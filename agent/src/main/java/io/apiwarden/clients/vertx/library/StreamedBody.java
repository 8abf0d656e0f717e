package io.apiwarden.clients.vertx.library;

import io.apiwarden.core.engine.RecordedBody;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;

/**
 * A body the app writes piece by piece ({@code write} then {@code end}, or {@code send(ReadStream)}, which
 * pipes into {@code write}): what it writes before the first attempt's request is ready (while the call
 * waits for a token or at the gate) is held, then everything goes on to that request as the app writes it,
 * each piece copied into the call's {@link RecordedBody} first, so a resend can send it whole.
 */
final class StreamedBody {
    private final ArrayDeque<Buffer> held = new ArrayDeque<>();
    /** Told how the first attempt's request ended its body. */
    private final Handler<AsyncResult<Void>> ended;
    // Guarded by this.
    private HttpClientRequest live;
    private RecordedBody.Take take;
    private boolean appEnded;
    private Handler<Void> drainHandler;

    StreamedBody(Handler<AsyncResult<Void>> ended) {
        this.ended = ended;
    }

    /** A piece the app wrote. */
    Future<Void> write(Buffer piece) {
        HttpClientRequest to;
        synchronized (this) {
            if (live == null) {
                held.add(piece);
                return Future.succeededFuture();
            }
            to = live;
            record(piece);
        }
        return to.write(piece);
    }

    /** The app ended its body; the first attempt's request ends it once it is there. */
    void end() {
        HttpClientRequest to;
        synchronized (this) {
            appEnded = true;
            if (live == null) {
                return;
            }
            to = live;
            if (take != null) {
                take.complete();
            }
        }
        to.end().onComplete(ended);
    }

    /** The first attempt's request, where the body goes from now on; {@code take} null when it is not recorded. */
    void attach(HttpClientRequest request, RecordedBody.Take recording) {
        boolean end;
        Handler<Void> drain;
        synchronized (this) {
            live = request;
            take = recording;
            for (Buffer piece; (piece = held.poll()) != null; ) {
                record(piece);
                request.write(piece);
            }
            end = appEnded;
            if (end && take != null) {
                take.complete();
            }
            drain = drainHandler;
        }
        if (drain != null) {
            request.drainHandler(drain);
        }
        if (end) {
            request.end().onComplete(ended);
        }
    }

    /** The first attempt failed or was cancelled: what it recorded is not a whole body. */
    synchronized void abandon() {
        if (take != null && !appEnded) {
            take.abandon();
        }
    }

    synchronized boolean writeQueueFull() {
        return live != null && live.writeQueueFull();
    }

    void drainHandler(Handler<Void> handler) {
        HttpClientRequest to;
        synchronized (this) {
            drainHandler = handler;
            to = live;
        }
        if (to != null) {
            to.drainHandler(handler);
        }
    }

    /** The recording as one buffer, for a resend. */
    static Buffer whole(List<ByteBuffer> recorded) {
        Buffer body = Buffer.buffer();
        for (ByteBuffer b : recorded) {
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            body.appendBytes(bytes);
        }
        return body;
    }

    private void record(Buffer piece) {
        if (take != null) {
            take.add(piece.getBytes(), 0, piece.length());
        }
    }
}

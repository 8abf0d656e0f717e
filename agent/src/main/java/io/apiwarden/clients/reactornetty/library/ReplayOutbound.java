package io.apiwarden.clients.reactornetty.library;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.ReferenceCountUtil;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.NettyOutbound;

/**
 * The outbound a recorded body function writes to on a resend: the function runs again (it sets the
 * request's headers, as Spring's do), but the first body it sends is replaced by the recording, in the
 * same shape (a {@code Mono} of one buffer, or a {@code Flux}), and the publisher it handed over is never
 * subscribed: a stream already read is not read again. Later sends add nothing, since the recording holds
 * every byte of the first attempt.
 */
final class ReplayOutbound implements NettyOutbound {
    private final NettyOutbound delegate;
    private final List<ByteBuffer> recording;
    private final AtomicBoolean replayed;

    ReplayOutbound(NettyOutbound delegate, List<ByteBuffer> recording) {
        this(delegate, recording, new AtomicBoolean());
    }

    private ReplayOutbound(NettyOutbound delegate, List<ByteBuffer> recording, AtomicBoolean replayed) {
        this.delegate = delegate;
        this.recording = recording;
        this.replayed = replayed;
    }

    @Override
    public ByteBufAllocator alloc() {
        return delegate.alloc();
    }

    @Override
    public NettyOutbound send(Publisher<? extends ByteBuf> dataStream) {
        return replayed.compareAndSet(false, true)
                ? next(delegate.send(recordingShapedAs(dataStream)))
                : unsent(dataStream);
    }

    @Override
    public NettyOutbound send(Publisher<? extends ByteBuf> dataStream, Predicate<ByteBuf> predicate) {
        return replayed.compareAndSet(false, true)
                ? next(delegate.send(recordingShapedAs(dataStream), predicate))
                : unsent(dataStream);
    }

    @Override
    public NettyOutbound sendObject(Publisher<?> dataStream, Predicate<Object> predicate) {
        return replayed.compareAndSet(false, true)
                ? next(delegate.sendObject(recordingShapedAs(dataStream), predicate))
                : unsent(dataStream);
    }

    /** A later send of the function's: the recording holds its bytes already; what it holds is released. */
    private NettyOutbound unsent(Publisher<?> appsData) {
        releaseHeld(appsData);
        return this;
    }

    /**
     * Releases the buffer a {@code Mono} of the app's holds. Spring encodes a value ({@code bodyValue}, JSON)
     * into a pooled buffer before it hands the {@code Mono} over: never subscribed, that buffer would never go
     * back to the pool. A {@code Flux} may be a stream that must not be read again, and is left alone.
     */
    private static void releaseHeld(Publisher<?> appsData) {
        if (appsData instanceof Mono) {
            ((Mono<?>) appsData).subscribe(ReferenceCountUtil::release, failure -> {});
        }
    }

    @Override
    public NettyOutbound sendObject(Object message) {
        // Handed over and never written: released here, as Reactor Netty would once it was written.
        ReferenceCountUtil.release(message);
        return replayed.compareAndSet(false, true) ? next(delegate.sendObject(wholeRecording())) : this;
    }

    // A body that sends a file or uses sendUsing is never recorded, so never replayed; should the function
    // take such a path only now, it goes to Reactor Netty as it is.
    @Override
    public <S> NettyOutbound sendUsing(
            Callable<? extends S> sourceInput,
            BiFunction<? super Connection, ? super S, ?> mappedInput,
            Consumer<? super S> sourceCleanup) {
        return next(delegate.sendUsing(sourceInput, mappedInput, sourceCleanup));
    }

    @Override
    public NettyOutbound sendFile(Path file, long position, long count) {
        return next(delegate.sendFile(file, position, count));
    }

    @Override
    public NettyOutbound sendFileChunked(Path file, long position, long count) {
        return next(delegate.sendFileChunked(file, position, count));
    }

    @Override
    public NettyOutbound withConnection(Consumer<? super Connection> withConnection) {
        delegate.withConnection(withConnection);
        return this;
    }

    @Override
    public Mono<Void> then() {
        return delegate.then();
    }

    private NettyOutbound next(NettyOutbound sent) {
        return new ReplayOutbound(sent, recording, replayed);
    }

    /** The recording as a {@code Mono} of one buffer when the app sent a {@code Mono}, else one buffer per recorded chunk. */
    private Publisher<ByteBuf> recordingShapedAs(Publisher<?> appsData) {
        if (appsData instanceof Mono) {
            // The app's buffer is released once, here, and the recording goes in its place, still as one message.
            // Mapped, not dropped: an operator that drops an element (then(), ignoreElement()) hands it to the discard
            // hook Reactor Netty's send sets for a Mono, which would release it a second time.
            return ((Mono<?>) appsData)
                    .onErrorResume(failure -> Mono.empty())
                    .map(held -> {
                        ReferenceCountUtil.release(held);
                        return wholeRecording();
                    })
                    .switchIfEmpty(Mono.fromSupplier(this::wholeRecording));
        }
        return Flux.fromIterable(recording).map(b -> Unpooled.wrappedBuffer(b.duplicate()));
    }

    private ByteBuf wholeRecording() {
        ByteBuffer[] pieces = new ByteBuffer[recording.size()];
        for (int i = 0; i < pieces.length; i++) {
            pieces[i] = recording.get(i).duplicate();
        }
        return Unpooled.wrappedBuffer(pieces);
    }
}

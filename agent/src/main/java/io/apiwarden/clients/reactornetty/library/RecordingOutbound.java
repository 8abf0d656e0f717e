package io.apiwarden.clients.reactornetty.library;

import io.apiwarden.core.engine.RecordedBody;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.NettyOutbound;

/**
 * The outbound a recorded body function writes to on the first attempt: everything goes on to Reactor
 * Netty's own outbound unchanged (a {@code Mono} stays a {@code Mono}, so Reactor Netty still sends it in
 * one message with its length), and every buffer is copied into the take as it passes, before Netty
 * writes and releases it. What cannot be recorded (a file, {@code sendUsing}, an object that is no
 * buffer) abandons the take: that body is then sent again by calling the function again, as without
 * the recording. Each send returns another view over what Reactor Netty returned, so sends chained on it
 * are recorded too.
 */
final class RecordingOutbound implements NettyOutbound {
    private final NettyOutbound delegate;
    private final RecordedBody.Take take;

    RecordingOutbound(NettyOutbound delegate, RecordedBody.Take take) {
        this.delegate = delegate;
        this.take = take;
    }

    @Override
    public ByteBufAllocator alloc() {
        return delegate.alloc();
    }

    @Override
    public NettyOutbound send(Publisher<? extends ByteBuf> dataStream) {
        // Not the default: Reactor Netty's HTTP outbound sends a Mono here as one message with its length.
        return next(delegate.send(tee(dataStream)));
    }

    @Override
    public NettyOutbound send(Publisher<? extends ByteBuf> dataStream, Predicate<ByteBuf> predicate) {
        return next(delegate.send(tee(dataStream), predicate));
    }

    @Override
    public NettyOutbound sendObject(Publisher<?> dataStream, Predicate<Object> predicate) {
        return next(delegate.sendObject(teeObjects(dataStream), predicate));
    }

    @Override
    public NettyOutbound sendObject(Object message) {
        record(message);
        return next(delegate.sendObject(message));
    }

    @Override
    public <S> NettyOutbound sendUsing(
            Callable<? extends S> sourceInput,
            BiFunction<? super Connection, ? super S, ?> mappedInput,
            Consumer<? super S> sourceCleanup) {
        take.abandon();
        return next(delegate.sendUsing(sourceInput, mappedInput, sourceCleanup));
    }

    @Override
    public NettyOutbound sendFile(Path file, long position, long count) {
        // Not the default: Reactor Netty's HTTP outbound sets the length of a file it sends.
        take.abandon();
        return next(delegate.sendFile(file, position, count));
    }

    @Override
    public NettyOutbound sendFileChunked(Path file, long position, long count) {
        take.abandon();
        return next(delegate.sendFileChunked(file, position, count));
    }

    @Override
    public NettyOutbound withConnection(Consumer<? super Connection> withConnection) {
        delegate.withConnection(withConnection);
        return this;
    }

    @Override
    public Mono<Void> then() {
        // Reactor Netty's HTTP outbound sends the request's head here when nothing was sent yet.
        return delegate.then();
    }

    private NettyOutbound next(NettyOutbound sent) {
        return new RecordingOutbound(sent, take);
    }

    @SuppressWarnings("unchecked")
    private <T extends ByteBuf> Publisher<T> tee(Publisher<T> data) {
        if (data instanceof Mono) {
            return ((Mono<T>) data).doOnNext(this::record);
        }
        return Flux.from(data).doOnNext(this::record);
    }

    private Publisher<?> teeObjects(Publisher<?> data) {
        if (data instanceof Mono) {
            return ((Mono<?>) data).doOnNext(this::record);
        }
        return Flux.from(data).doOnNext(this::record);
    }

    private void record(Object message) {
        if (!(message instanceof ByteBuf)) {
            take.abandon();
            return;
        }
        try {
            ByteBuf buf = (ByteBuf) message;
            for (ByteBuffer piece : buf.nioBuffers(buf.readerIndex(), buf.readableBytes())) {
                take.add(piece);
            }
        } catch (RuntimeException e) {
            // A buffer that cannot be read without consuming it: the body goes out unrecorded.
            take.abandon();
        }
    }
}

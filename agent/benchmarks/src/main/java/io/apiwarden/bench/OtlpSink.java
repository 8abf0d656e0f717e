package io.apiwarden.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A local OTLP/HTTP receiver that accepts every export and keeps only its size, so both agents pay
 * the full cost of exporting (encoding, sending) without a collector in the measurement.
 */
final class OtlpSink implements AutoCloseable {
    private final AtomicLong exports = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final HttpServer server;
    private final ExecutorService executor;

    private OtlpSink(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    static OtlpSink start() throws IOException {
        // As for the simulated API: without it every keep-alive answer waits ~40 ms for a delayed ACK. The JDK
        // server reads the property once, when its first server starts, so it must be set before any starts.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "otlp-sink");
            t.setDaemon(true);
            return t;
        });
        OtlpSink sink = new OtlpSink(server, executor);
        server.createContext("/v1/", sink::accept);
        server.setExecutor(executor);
        server.start();
        return sink;
    }

    private void accept(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            bytes.addAndGet(in.transferTo(OutputStream.nullOutputStream()));
        }
        exports.incrementAndGet();
        // An empty ExportTraceServiceResponse (or metrics response) is an empty protobuf message.
        exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
        exchange.sendResponseHeaders(200, -1);
        exchange.close();
    }

    /** The OTLP endpoint to give {@code otel.exporter.otlp.endpoint}. */
    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    long exports() {
        return exports.get();
    }

    long bytes() {
        return bytes.get();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}

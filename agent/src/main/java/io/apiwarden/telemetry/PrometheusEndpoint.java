package io.apiwarden.telemetry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.apiwarden.core.time.DaemonThreads;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/** Serves the agent's meters at {@code /metrics} in the Prometheus text format, on one daemon thread. */
final class PrometheusEndpoint {
    /** The Prometheus text exposition format, version 0.0.4. */
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;

    private PrometheusEndpoint(HttpServer server) {
        this.server = server;
    }

    /**
     * Takes the port: a port in use fails here, at once. Nothing is served before {@link #open}; a scrape that comes
     * sooner is taken into the socket's listen queue and answered once the endpoint opens.
     */
    static PrometheusEndpoint bind(PrometheusMeterRegistry registry, String host, int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
        server.createContext("/metrics", exchange -> respond(exchange, registry));
        server.setExecutor(Executors.newSingleThreadExecutor(new DaemonThreads("apiwarden-prometheus")));
        return new PrometheusEndpoint(server);
    }

    /** Starts serving the meters. */
    void open() throws IOException {
        startAsDaemon(server);
        TelemetryThreads.stopAtExit(() -> server.stop(0));
    }

    /**
     * The JDK server's dispatcher thread takes its daemon status from the thread that starts the
     * server: started from a daemon thread, it never keeps the app's JVM from exiting.
     */
    private static void startAsDaemon(HttpServer server) throws IOException {
        Thread starter = new Thread(server::start, "apiwarden-prometheus-start");
        starter.setDaemon(true);
        starter.start();
        try {
            starter.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.stop(0);
            throw new IOException("interrupted while the endpoint started", e);
        }
    }

    String url() {
        InetSocketAddress a = server.getAddress();
        return "http://" + a.getHostString() + ":" + a.getPort() + "/metrics";
    }

    private static void respond(HttpExchange exchange, PrometheusMeterRegistry registry) throws IOException {
        try {
            if (!exchange.getRequestMethod().equals("GET")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        } finally {
            exchange.close();
        }
    }
}

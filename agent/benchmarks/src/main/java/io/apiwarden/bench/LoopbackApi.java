package io.apiwarden.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;

/** What the benchmarks' small APIs on the JDK's {@code HttpServer} share: their answers and their URLs. */
final class LoopbackApi {
    private LoopbackApi() {}

    /** Answers with {@code status} and a JSON {@code body} of known length. */
    static void answer(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** {@code path} on {@code server}, through loopback. */
    static URI url(HttpServer server, String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }
}

package io.apiwarden.demo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** Helpers that every handler of the simulated API shares: request ids, response writing, JSON text. */
final class Exchanges {
    static final String REQUEST_ID_HEADER = "X-Request-Id";

    private Exchanges() {}

    /**
     * Gives every response a unique {@code X-Request-Id} (spec section 7, rule 6), turns a handler's
     * failure into a 500 that says what broke, and always ends the exchange.
     */
    static HttpHandler withRequestId(HttpHandler handler) {
        return exchange -> {
            try {
                exchange.getResponseHeaders()
                        .set(REQUEST_ID_HEADER, UUID.randomUUID().toString());
                handler.handle(exchange);
            } catch (IOException | RuntimeException e) {
                if (exchange.getResponseCode() == -1) {
                    sendJson(exchange, 500, json("message", "simulated API failed: " + e));
                }
            } finally {
                exchange.close();
            }
        };
    }

    static void sendNotFound(HttpExchange exchange) throws IOException {
        sendJson(
                exchange,
                404,
                json(
                        "message",
                        "Not Found",
                        "hint",
                        "the simulated API serves HEAD /api/v1, GET /api/v1/user and POST /auth/token"));
    }

    static void sendMethodNotAllowed(HttpExchange exchange, String allowed) throws IOException {
        exchange.getResponseHeaders().set("Allow", allowed);
        sendJson(exchange, 405, json("message", "Method Not Allowed", "allowed", allowed));
    }

    static void sendJson(HttpExchange exchange, int status, String json) throws IOException {
        send(exchange, status, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends a response; a HEAD request gets the headers only. */
    static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        if ("HEAD".equals(exchange.getRequestMethod())) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** Reads the request body, refusing more than {@code limit} bytes so a runaway client cannot fill memory. */
    static byte[] readBody(HttpExchange exchange, int limit) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try (InputStream in = exchange.getRequestBody()) {
            int n;
            while ((n = in.read(buffer)) != -1) {
                if (body.size() + n > limit) {
                    throw new IOException("request body is larger than " + limit + " bytes");
                }
                body.write(buffer, 0, n);
            }
        }
        return body.toByteArray();
    }

    /** A flat JSON object of string values, from alternating keys and values. */
    static String json(String... keysAndValues) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < keysAndValues.length; i += 2) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(quote(keysAndValues[i])).append(':').append(quote(keysAndValues[i + 1]));
        }
        return sb.append('}').toString();
    }

    /** A JSON string literal (RFC 8259 section 7). */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}

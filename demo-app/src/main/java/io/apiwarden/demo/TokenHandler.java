package io.apiwarden.demo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The token endpoint, {@code POST /auth/token}, with the refresh-token grant of RFC 6749 section 6.
 * Answers and errors follow RFC 6749 sections 5.1 and 5.2, since the spec leaves them open.
 */
final class TokenHandler implements HttpHandler {
    static final String TOKEN_PATH = SimulatedApi.AUTH_PATH + "/token";
    /** A token request is two short parameters; anything far larger is not one. */
    private static final int MAX_BODY_BYTES = 8 * 1024;

    private final ApiCounters counters;
    private final TokenStore tokens;
    private final long expiresInSeconds;

    TokenHandler(ApiCounters counters, TokenStore tokens, Duration tokenLifetime) {
        this.counters = counters;
        this.tokens = tokens;
        this.expiresInSeconds = tokenLifetime.getSeconds();
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        if (!exchange.getRequestURI().getPath().equals(TOKEN_PATH)) {
            Exchanges.sendNotFound(exchange);
            return;
        }
        if (!exchange.getRequestMethod().equals("POST")) {
            Exchanges.sendMethodNotAllowed(exchange, "POST");
            return;
        }
        counters.recordTokenRequest();
        // RFC 6749 section 5.1: token responses, errors included, must not be cached.
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.getResponseHeaders().set("Pragma", "no-cache");
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        if (contentType == null
                || !contentType.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
            sendError(
                    exchange,
                    "invalid_request",
                    "send the parameters as Content-Type application/x-www-form-urlencoded");
            return;
        }
        Map<String, String> form;
        try {
            form = parseForm(new String(Exchanges.readBody(exchange, MAX_BODY_BYTES), StandardCharsets.UTF_8));
        } catch (IOException | IllegalArgumentException e) {
            sendError(exchange, "invalid_request", "the form body could not be read: " + e.getMessage());
            return;
        }
        String grantType = form.get("grant_type");
        String refreshToken = form.get("refresh_token");
        if (grantType == null) {
            sendError(exchange, "invalid_request", "grant_type is missing; send grant_type=refresh_token");
        } else if (!grantType.equals("refresh_token")) {
            sendError(
                    exchange,
                    "unsupported_grant_type",
                    "grant_type '" + grantType + "' is not supported; only refresh_token is");
        } else if (refreshToken == null || refreshToken.isEmpty()) {
            sendError(exchange, "invalid_request", "refresh_token is missing");
        } else {
            Optional<TokenStore.Issued> issued = tokens.refresh(refreshToken);
            if (issued.isPresent()) {
                counters.recordTokenIssued();
                Exchanges.sendJson(
                        exchange,
                        200,
                        "{\"access_token\":" + Exchanges.quote(issued.get().accessToken)
                                + ",\"token_type\":\"Bearer\",\"expires_in\":" + expiresInSeconds
                                + ",\"refresh_token\":" + Exchanges.quote(issued.get().refreshToken) + "}");
            } else {
                counters.recordGrantRefused();
                sendError(
                        exchange,
                        "invalid_grant",
                        "the refresh token is invalid, revoked or already used:"
                                + " each refresh rotates it, so use the refresh_token of the latest token response");
            }
        }
    }

    private static void sendError(HttpExchange exchange, String error, String description) throws IOException {
        Exchanges.sendJson(exchange, 400, Exchanges.json("error", error, "error_description", description));
    }

    /** Parses {@code a=1&b=2}; a repeated parameter is refused, as RFC 6749 section 3.2 requires. */
    static Map<String, String> parseForm(String body) {
        Map<String, String> form = new HashMap<>();
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            if (form.put(name, value) != null) {
                throw new IllegalArgumentException("parameter " + name + " is repeated");
            }
        }
        return form;
    }
}

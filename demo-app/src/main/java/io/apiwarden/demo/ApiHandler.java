package io.apiwarden.demo;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.Locale;

/**
 * Everything under {@code /api/v1}: the edge proxy first, then the global rate limit, then the
 * resources. Error bodies carry the spec's error names verbatim, since clients match on them.
 */
final class ApiHandler implements HttpHandler {
    static final String INVALID_TOKEN = "OAuth invalid token";
    static final String RATE_LIMIT_EXCEEDED = "API rate limit exceeded (global)";
    private static final String REALM = "simulated-api";
    private static final String USER_JSON = "{\"id\":1001,\"login\":\"demo-user\",\"name\":\"Demo User\"}";

    private final ApiCounters counters;
    private final EdgeProxy edge;
    private final GlobalRateLimiter rateLimiter;
    private final TokenStore tokens;

    ApiHandler(ApiCounters counters, EdgeProxy edge, GlobalRateLimiter rateLimiter, TokenStore tokens) {
        this.counters = counters;
        this.edge = edge;
        this.rateLimiter = rateLimiter;
        this.tokens = tokens;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        counters.recordApiRequest();
        int edgeStatus = edge.interceptStatus();
        if (edgeStatus != 0) {
            counters.recordProxyError();
            edge.sendError(exchange, edgeStatus);
            return;
        }
        GlobalRateLimiter.Outcome quota = rateLimiter.acquire();
        Headers headers = exchange.getResponseHeaders();
        headers.set("X-RateLimit-Limit", Integer.toString(quota.limit));
        headers.set("X-RateLimit-Remaining", Integer.toString(quota.remaining));
        headers.set("X-RateLimit-Reset", Long.toString(quota.resetSeconds));
        if (!quota.allowed) {
            counters.recordRateLimited();
            headers.set("Retry-After", Long.toString(quota.resetSeconds));
            Exchanges.sendJson(exchange, 429, Exchanges.json("message", RATE_LIMIT_EXCEEDED));
            return;
        }
        route(exchange);
    }

    private void route(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        if (path.equals(SimulatedApi.API_PATH) || path.equals(SimulatedApi.API_PATH + "/")) {
            // The header-only request of spec section 4.3: the rate-limit headers are already set.
            if (method.equals("HEAD")) {
                Exchanges.send(exchange, 200, "application/json", new byte[0]);
            } else {
                Exchanges.sendMethodNotAllowed(exchange, "HEAD");
            }
        } else if (path.equals(SimulatedApi.API_PATH + "/user")) {
            if (!method.equals("GET")) {
                Exchanges.sendMethodNotAllowed(exchange, "GET");
            } else if (authenticated(exchange)) {
                Exchanges.sendJson(exchange, 200, USER_JSON);
            }
        } else if (path.equals(SimulatedApi.API_PATH + "/admin")) {
            if (!method.equals("GET")) {
                Exchanges.sendMethodNotAllowed(exchange, "GET");
            } else if (authenticated(exchange)) {
                // Issued tokens never carry admin rights: the "valid but insufficient permissions" case.
                counters.recordForbidden();
                exchange.getResponseHeaders()
                        .set(
                                "WWW-Authenticate",
                                "Bearer realm=\"" + REALM + "\", error=\"insufficient_scope\", scope=\"admin\"");
                Exchanges.sendJson(
                        exchange, 403, Exchanges.json("message", INVALID_TOKEN, "reason", "insufficient permissions"));
            }
        } else {
            Exchanges.sendNotFound(exchange);
        }
    }

    /** True for a valid bearer token; otherwise answers 401 and returns false. */
    private boolean authenticated(HttpExchange exchange) throws IOException {
        TokenStore.Check check =
                tokens.check(bearerToken(exchange.getRequestHeaders().getFirst("Authorization")));
        if (check == TokenStore.Check.VALID) {
            return true;
        }
        counters.recordUnauthorized();
        // RFC 6750 section 3.1: invalid_token for an expired or malformed token. A missing or non-Bearer
        // credential is treated as malformed too, as the spec names only the three conditions.
        exchange.getResponseHeaders()
                .set(
                        "WWW-Authenticate",
                        "Bearer realm=\"" + REALM
                                + "\", error=\"invalid_token\", error_description=\"The access token is " + check.reason
                                + "\"");
        Exchanges.sendJson(exchange, 401, Exchanges.json("message", INVALID_TOKEN, "reason", check.reason));
        return false;
    }

    /** The token of a {@code Bearer} credential (scheme in any case), or null for anything else. */
    static String bearerToken(String authorization) {
        if (authorization == null) {
            return null;
        }
        String value = authorization.trim();
        int space = value.indexOf(' ');
        if (space < 0 || !value.substring(0, space).toLowerCase(Locale.ROOT).equals("bearer")) {
            return null;
        }
        return value.substring(space + 1).trim();
    }
}

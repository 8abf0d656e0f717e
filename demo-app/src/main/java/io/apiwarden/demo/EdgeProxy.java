package io.apiwarden.demo;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The reverse proxy in front of the API (spec section 7, rule 3): it can fail a request with its
 * own 502 or 504 before the API sees it, and says so in {@code Via}, {@code Server} and
 * {@code X-Cache}, with an HTML page as proxies do, not the API's JSON.
 */
final class EdgeProxy {
    static final String NAME = "simulated-edge";

    private final int failEvery;
    private final double failureProbability;
    private final AtomicLong requestsSeen = new AtomicLong();
    private final AtomicLong failuresSent = new AtomicLong();

    /**
     * @param failEvery          fail requests k, 2k, 3k, ...; 0 for never (tests use this: it is deterministic)
     * @param failureProbability chance from 0 to 1 that any other request fails
     */
    EdgeProxy(int failEvery, double failureProbability) {
        this.failEvery = failEvery;
        this.failureProbability = failureProbability;
    }

    /** The status the proxy answers by itself, 502 or 504 in turn, or 0 when the request goes on to the API. */
    int interceptStatus() {
        long number = requestsSeen.incrementAndGet();
        boolean fail = (failEvery > 0 && number % failEvery == 0)
                || (failureProbability > 0 && ThreadLocalRandom.current().nextDouble() < failureProbability);
        if (!fail) {
            return 0;
        }
        return failuresSent.incrementAndGet() % 2 == 1 ? 502 : 504;
    }

    /** Answers with the proxy's own error page. */
    void sendError(HttpExchange exchange, int status) throws IOException {
        String title = status == 502 ? "502 Bad Gateway" : "504 Gateway Timeout";
        String explanation = status == 502
                ? "The proxy received an invalid response from the upstream API."
                : "The proxy did not receive a timely response from the upstream API.";
        Headers headers = exchange.getResponseHeaders();
        headers.set("Via", "1.1 " + NAME);
        headers.set("Server", "simulated-proxy");
        headers.set("X-Cache", "MISS from " + NAME);
        String html = "<!DOCTYPE html>\n<html><head><title>" + title + "</title></head>\n<body><h1>" + title
                + "</h1>\n<p>" + explanation + "</p>\n<hr><address>" + NAME + "</address></body></html>\n";
        Exchanges.send(exchange, status, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8));
    }
}

package io.apiwarden.core.classify;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Recognises the spec's two errors in a managed response.
 *
 * <p>Status and headers decide most responses. Only an error (4xx or 5xx) that they leave open
 * needs its body read, and only its first {@link #BODY_PEEK_LIMIT} bytes.
 *
 * <ul>
 *   <li>Invalid token: {@code WWW-Authenticate: Bearer error="invalid_token"} on any status; a 401;
 *       a 4xx whose body says {@code invalid token} or {@code invalid_token}.
 *   <li>Global rate limit: a 429; an error whose body says {@code rate limit exceeded}.
 * </ul>
 * Matching is case-insensitive. With DPoP on, every {@code DPoP-Nonce} an answer carries is handed on, and a 401
 * demanding one ({@code WWW-Authenticate: DPoP error="use_dpop_nonce"}) is {@link Verdict#DPOP_NONCE}.
 */
public final class ResponseClassifier {
    /**
     * Error bodies that name the error are short JSON or text documents; proxies' HTML error
     * pages run to a few KiB. 64 KiB holds either while bounding what a call may buffer.
     */
    public static final int BODY_PEEK_LIMIT = 64 * 1024;

    /** Where the API's DPoP nonces go; null when DPoP is off. */
    private final Consumer<String> dpopNonces;

    /** For bearer tokens. */
    public ResponseClassifier() {
        this(null);
    }

    /** @param dpopNonces takes every {@code DPoP-Nonce} the API sends; null when DPoP is off */
    public ResponseClassifier(Consumer<String> dpopNonces) {
        this.dpopNonces = dpopNonces;
    }

    /**
     * Classifies from the status line and headers alone.
     *
     * @param headers returns the values of a header (any case of its name), never null
     * @return the verdict, or null when the body may still change it (see {@link #fromBody})
     */
    public Verdict fromHead(int status, Function<String, List<String>> headers) {
        if (dpopNonces != null && demandsDpopNonce(status, headers)) {
            return Verdict.DPOP_NONCE;
        }
        // By index: asked of every response, mostly with no such header, and an iterator is an object each time.
        List<String> challenges = headers.apply("WWW-Authenticate");
        for (int i = 0; i < challenges.size(); i++) {
            if (saysInvalidTokenChallenge(challenges.get(i))) {
                return Verdict.INVALID_TOKEN;
            }
        }
        if (status == 401) {
            return Verdict.INVALID_TOKEN;
        }
        if (status == 429) {
            return Verdict.GLOBAL_RATE_LIMIT;
        }
        if (status < 400) {
            return Verdict.SUCCESS;
        }
        return null;
    }

    /** The verdict for an error that {@link #fromHead} left open, from status alone (body unknown or too long). */
    public Verdict fromStatus(int status) {
        return status < 500 ? Verdict.CLIENT_ERROR : Verdict.SERVER_ERROR;
    }

    /** The verdict for an error that {@link #fromHead} left open, from the first bytes of its body. */
    public Verdict fromBody(int status, byte[] body, int length) {
        String text = new String(body, 0, Math.min(length, BODY_PEEK_LIMIT), StandardCharsets.ISO_8859_1)
                .toLowerCase(Locale.ROOT);
        if (text.contains("rate limit exceeded")) {
            return Verdict.GLOBAL_RATE_LIMIT;
        }
        if (status < 500 && (text.contains("invalid token") || text.contains("invalid_token"))) {
            return Verdict.INVALID_TOKEN;
        }
        return fromStatus(status);
    }

    /** Hands on the answer's nonce; true when it is a 401 that demands it (RFC 9449 section 9). */
    private boolean demandsDpopNonce(int status, Function<String, List<String>> headers) {
        List<String> nonce = headers.apply("DPoP-Nonce");
        if (nonce.isEmpty()) {
            return false;
        }
        dpopNonces.accept(nonce.get(0));
        if (status != 401) {
            return false;
        }
        for (String challenge : headers.apply("WWW-Authenticate")) {
            String c = challenge.toLowerCase(Locale.ROOT);
            if (c.contains("dpop") && c.contains("use_dpop_nonce")) {
                return true;
            }
        }
        return false;
    }

    /** True for a Bearer challenge with {@code error="invalid_token"} (RFC 6750 section 3). */
    static boolean saysInvalidTokenChallenge(String challenge) {
        String c = challenge.toLowerCase(Locale.ROOT);
        int at = c.indexOf("error");
        while (at >= 0) {
            int i = at + "error".length();
            while (i < c.length() && c.charAt(i) == ' ') {
                i++;
            }
            if (i < c.length() && c.charAt(i) == '=') {
                String rest = c.substring(i + 1).trim();
                if (rest.startsWith("\"invalid_token\"") || rest.startsWith("invalid_token")) {
                    return c.contains("bearer");
                }
            }
            at = c.indexOf("error", at + 1);
        }
        return false;
    }
}

package io.apiwarden.core.classify;

/** What a managed response means to the agent. */
public enum Verdict {
    /** 1xx, 2xx or 3xx: nothing to do. */
    SUCCESS,
    /** The spec's "OAuth invalid token": expired, malformed or under-privileged token. */
    INVALID_TOKEN,
    /** The spec's "API rate limit exceeded (global)". */
    GLOBAL_RATE_LIMIT,
    /**
     * DPoP (RFC 9449 section 9): the API wants a nonce in the proof, and gave it ({@code WWW-Authenticate: DPoP
     * error="use_dpop_nonce"} with {@code DPoP-Nonce}). Only when the agent sends DPoP proofs.
     */
    DPOP_NONCE,
    /** Any other 4xx: the request is wrong; the app must be fixed. */
    CLIENT_ERROR,
    /** Any other 5xx: the server (or a proxy in front of it) failed. */
    SERVER_ERROR
}

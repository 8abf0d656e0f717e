package io.apiwarden.core.token;

import java.util.function.BiConsumer;

/**
 * How the agent's tokens are bound to a key it holds (DPoP, RFC 9449): what each attempt to the API carries in place
 * of a bearer header, and what the token requests carry ({@link #tokenRequests()}). Absent (null) for bearer tokens.
 * Implementations never fail a call: a proof that cannot be made leaves the attempt without one.
 */
public interface SenderConstraint {
    /** The {@code Authorization} scheme, e.g. {@code DPoP}: what the call's span says. */
    String scheme();

    /**
     * Sets the headers of one attempt carrying {@code token}: {@code Authorization} and a new proof for
     * {@code method} and {@code htu} (the target URI without query and fragment), never one sent before.
     */
    void authorize(String method, String htu, AccessToken token, BiConsumer<String, String> headers);

    /** The API sent {@code nonce} in a {@code DPoP-Nonce} header: the attempts after it carry it. */
    void apiNonce(String nonce);

    /** What the token requests carry. */
    TokenRequestProof tokenRequests();
}

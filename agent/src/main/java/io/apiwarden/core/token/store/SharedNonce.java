package io.apiwarden.core.token.store;

/**
 * One server's latest DPoP nonce (RFC 9449 section 8), kept where every JVM of a fleet reads it, so that a nonce one
 * JVM was made to learn is known to the others without a demand each. A nonce is not a secret, but it is text a
 * server chose: whoever reads one checks it before use.
 */
public interface SharedNonce extends AutoCloseable {
    /** The nonce some JVM wrote last, or null when there is none (never written, or expired). */
    String read() throws StoreUnavailableException;

    /** Makes {@code nonce} the one every JVM reads from now on. */
    void write(String nonce) throws StoreUnavailableException;

    /** Where the nonce is kept; never a credential. */
    String describe();

    @Override
    void close();
}

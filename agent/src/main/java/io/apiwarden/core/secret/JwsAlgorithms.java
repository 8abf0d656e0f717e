package io.apiwarden.core.secret;

import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateKey;
import java.util.List;
import java.util.Locale;

/**
 * Which JWS algorithms (RFC 7518) a private key can sign with, without a JOSE library: the configuration checks a
 * key and its algorithm before anything is signed, and the library loads only when something is.
 */
public final class JwsAlgorithms {
    /** Every algorithm the agent signs with. */
    public static final List<String> ALL =
            List.of("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512");

    private JwsAlgorithms() {}

    /** RS256 for an RSA key (every token service takes it); the ES algorithm of an EC key's curve. */
    public static String defaultFor(PrivateKey key) {
        if (key instanceof ECPrivateKey) {
            return "ES" + hashBitsOf((ECPrivateKey) key);
        }
        return "RS256";
    }

    /** The algorithm as written in JWS ({@code RS256}), from any case; null when it is not one of {@link #ALL}. */
    public static String named(String value) {
        String upper = value.toUpperCase(Locale.ROOT);
        return ALL.contains(upper) ? upper : null;
    }

    /** Why {@code key} cannot sign with {@code algorithm}, or null when it can. */
    public static String flaw(String algorithm, PrivateKey key) {
        String family = PemKeys.family(key);
        if (algorithm.startsWith("ES")) {
            if (!(key instanceof ECPrivateKey)) {
                return algorithm + " needs an EC key, and the key is " + family;
            }
            String fits = "ES" + hashBitsOf((ECPrivateKey) key);
            return fits.equals(algorithm) ? null : algorithm + " does not fit the key's curve: use " + fits;
        }
        if (!family.equals("RSA")) {
            return algorithm + " needs an RSA key, and the key is " + family;
        }
        int bits = ((RSAPrivateKey) key).getModulus().bitLength();
        // RFC 7518 section 3.3: a key of at least 2048 bits; signers refuse shorter ones.
        return bits < 2048 ? "the RSA key has " + bits + " bits: " + algorithm + " needs 2048 or more" : null;
    }

    /** P-256 signs with SHA-256, P-384 with SHA-384, P-521 with SHA-512 (RFC 7518 section 3.4). */
    private static int hashBitsOf(ECPrivateKey key) {
        int bits = key.getParams().getCurve().getField().getFieldSize();
        return bits <= 256 ? 256 : bits <= 384 ? 384 : 512;
    }
}

package io.apiwarden.core.dpop;

import io.apiwarden.core.secret.PemKeys;
import io.apiwarden.core.secret.SecretFile;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Locale;

/**
 * The key DPoP proofs are signed with, and the algorithm they use: read from a PKCS#8 PEM file, or generated in
 * memory. Plain JDK (the configuration checks the key with it); only {@link DpopProofs} touches the JOSE library.
 * Never shows the key.
 */
public final class DpopKey {
    /** The algorithms a proof may be signed with: RFC 9449 asks for asymmetric ones; these are what servers accept. */
    public enum Algorithm {
        ES256,
        PS256,
        RS256
    }

    /** A key file that cannot be used; the message says why and what to do, and never holds key material. */
    public static final class Unusable extends Exception {
        private static final long serialVersionUID = 1L;

        Unusable(String message) {
            super(message);
        }
    }

    private static final int MIN_RSA_BITS = 2048;
    private static final ECParameterSpec P256 = p256();

    private final KeyPair pair;
    private final Algorithm algorithm;
    private final boolean generated;

    private DpopKey(KeyPair pair, Algorithm algorithm, boolean generated) {
        this.pair = pair;
        this.algorithm = algorithm;
        this.generated = generated;
    }

    /**
     * The key in {@code file} (PKCS#8 PEM, unencrypted: {@code -----BEGIN PRIVATE KEY-----}), read as every key
     * file of the agent is ({@link PemKeys}).
     *
     * @param algorithm the configured algorithm, or null for the key's default (ES256 for EC, PS256 for RSA)
     */
    public static DpopKey read(Path file, String algorithm) throws Unusable {
        byte[] pem;
        try {
            pem = SecretFile.readBytes(file);
        } catch (SecretFile.Unusable e) {
            throw new Unusable(e.getMessage());
        } catch (IOException | RuntimeException e) {
            throw new Unusable("cannot be read (" + e.getClass().getSimpleName()
                    + "): check that the file exists and that this process may read it");
        }
        return of(pem, algorithm);
    }

    /**
     * The key in a PKCS#8 PEM file's content: what a followed key file ({@code ReloadableSecret}) turns its new
     * content into.
     *
     * @throws IllegalArgumentException when it cannot sign proofs; the message says why, never quoting the content
     */
    public static DpopKey parse(byte[] pem, String algorithm) {
        try {
            return of(pem, algorithm);
        } catch (Unusable e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static DpopKey of(byte[] pem, String algorithm) throws Unusable {
        PrivateKey key;
        try {
            key = PemKeys.privateKey(pem);
        } catch (IllegalArgumentException e) {
            throw new Unusable(e.getMessage());
        }
        if (key instanceof ECPrivateKey) {
            ECPrivateKey ec = (ECPrivateKey) key;
            if (!isP256(ec.getParams())) {
                throw new Unusable("holds an EC key on another curve than P-256: DPoP proofs are signed with ES256,"
                        + " which needs P-256 (openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256)");
            }
            return new DpopKey(new KeyPair(ecPublic(ec), ec), algorithmFor(algorithm, true), false);
        }
        if (key instanceof RSAPrivateCrtKey) {
            RSAPrivateCrtKey rsa = (RSAPrivateCrtKey) key;
            if (rsa.getModulus().bitLength() < MIN_RSA_BITS) {
                throw new Unusable("holds an RSA key of " + rsa.getModulus().bitLength() + " bits: use one of at least "
                        + MIN_RSA_BITS);
            }
            return new DpopKey(new KeyPair(rsaPublic(rsa), rsa), algorithmFor(algorithm, false), false);
        }
        throw new Unusable(
                key instanceof RSAPrivateKey
                        ? "holds an RSA key without its public exponent: write it with openssl pkcs8 -topk8 -nocrypt"
                        : "holds neither an EC nor an RSA key: give an EC P-256 or RSA private key in PKCS#8 PEM");
    }

    /** A key made now, held in memory only: fine for one JVM, which alone holds the tokens bound to it. */
    public static DpopKey generate(String algorithm) throws Unusable {
        Algorithm alg = algorithmFor(algorithm, algorithm == null || algorithm.equalsIgnoreCase("ES256"));
        try {
            KeyPairGenerator g;
            if (alg == Algorithm.ES256) {
                g = KeyPairGenerator.getInstance("EC");
                g.initialize(new ECGenParameterSpec("secp256r1"));
            } else {
                g = KeyPairGenerator.getInstance("RSA");
                g.initialize(MIN_RSA_BITS);
            }
            return new DpopKey(g.generateKeyPair(), alg, true);
        } catch (GeneralSecurityException e) {
            throw new Unusable("could not be generated (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static Algorithm algorithmFor(String configured, boolean ec) throws Unusable {
        if (configured == null) {
            return ec ? Algorithm.ES256 : Algorithm.PS256;
        }
        Algorithm a;
        try {
            a = Algorithm.valueOf(configured.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new Unusable("cannot be used with the algorithm '" + configured + "': use ES256, PS256 or RS256");
        }
        if (ec != (a == Algorithm.ES256)) {
            throw new Unusable(
                    "cannot be used with " + a + ": ES256 needs an EC P-256 key; PS256 and RS256 an RSA key");
        }
        return a;
    }

    private static PublicKey rsaPublic(RSAPrivateCrtKey rsa) throws Unusable {
        try {
            return KeyFactory.getInstance("RSA")
                    .generatePublic(new RSAPublicKeySpec(rsa.getModulus(), rsa.getPublicExponent()));
        } catch (GeneralSecurityException e) {
            throw new Unusable("holds an RSA key whose public key cannot be made ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    /**
     * The public key of an EC private key: its scalar times the curve's generator. A PKCS#8 file need not carry the
     * public key, and the JDK has no call that derives it; this runs once, when the key is read.
     */
    private static PublicKey ecPublic(ECPrivateKey key) throws Unusable {
        ECParameterSpec params = key.getParams();
        ECPoint w = EcMath.multiply(params, key.getS());
        try {
            return KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(w, params));
        } catch (GeneralSecurityException e) {
            throw new Unusable("holds an EC key whose public key cannot be made ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    private static boolean isP256(ECParameterSpec params) {
        return params.getOrder().equals(P256.getOrder())
                && params.getGenerator().equals(P256.getGenerator())
                && params.getCurve().equals(P256.getCurve());
    }

    private static ECParameterSpec p256() {
        try {
            AlgorithmParameters p = AlgorithmParameters.getInstance("EC");
            p.init(new ECGenParameterSpec("secp256r1"));
            return p.getParameterSpec(ECParameterSpec.class);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no EC P-256", e);
        }
    }

    KeyPair pair() {
        return pair;
    }

    public Algorithm algorithm() {
        return algorithm;
    }

    /** Whether the key was made in memory at start, rather than read from a file. */
    public boolean generated() {
        return generated;
    }

    /** The algorithm and where the key came from; never the key. */
    @Override
    public String toString() {
        return "DpopKey{" + algorithm + (generated ? ", generated in memory" : ", from its file") + "}";
    }

    /** Affine point arithmetic on a prime-field curve, enough to derive a public key once. */
    static final class EcMath {
        private EcMath() {}

        static ECPoint multiply(ECParameterSpec params, BigInteger k) {
            BigInteger p = ((java.security.spec.ECFieldFp) params.getCurve().getField()).getP();
            BigInteger a = params.getCurve().getA();
            ECPoint g = params.getGenerator();
            ECPoint r = ECPoint.POINT_INFINITY;
            for (int i = k.bitLength() - 1; i >= 0; i--) {
                r = add(r, r, p, a);
                if (k.testBit(i)) {
                    r = add(r, g, p, a);
                }
            }
            return r;
        }

        private static ECPoint add(ECPoint s, ECPoint t, BigInteger p, BigInteger a) {
            if (s.equals(ECPoint.POINT_INFINITY)) {
                return t;
            }
            if (t.equals(ECPoint.POINT_INFINITY)) {
                return s;
            }
            BigInteger lambda;
            if (s.getAffineX().equals(t.getAffineX())) {
                if (s.getAffineY().add(t.getAffineY()).mod(p).signum() == 0) {
                    return ECPoint.POINT_INFINITY;
                }
                BigInteger x = s.getAffineX();
                lambda = x.multiply(x)
                        .multiply(BigInteger.valueOf(3))
                        .add(a)
                        .multiply(s.getAffineY().shiftLeft(1).modInverse(p))
                        .mod(p);
            } else {
                lambda = t.getAffineY()
                        .subtract(s.getAffineY())
                        .multiply(t.getAffineX().subtract(s.getAffineX()).modInverse(p))
                        .mod(p);
            }
            BigInteger x3 = lambda.multiply(lambda)
                    .subtract(s.getAffineX())
                    .subtract(t.getAffineX())
                    .mod(p);
            BigInteger y3 = lambda.multiply(s.getAffineX().subtract(x3))
                    .subtract(s.getAffineY())
                    .mod(p);
            return new ECPoint(x3, y3);
        }
    }
}

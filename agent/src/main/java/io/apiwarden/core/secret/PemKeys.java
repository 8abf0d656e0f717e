package io.apiwarden.core.secret;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Private keys and certificates in PEM files, read with the JDK alone: a key is PKCS#8 ({@code BEGIN PRIVATE KEY}),
 * RSA or EC, unencrypted. Each failure is an {@link IllegalArgumentException} that says what the file holds instead
 * and how to convert it, never quoting the content.
 */
public final class PemKeys {
    private static final Pattern PKCS8 =
            Pattern.compile("-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");

    private PemKeys() {}

    /** The RSA or EC private key in a PKCS#8 PEM file's content. */
    public static PrivateKey privateKey(byte[] pem) {
        String text = new String(pem, StandardCharsets.US_ASCII);
        Matcher m = PKCS8.matcher(text);
        if (!m.find()) {
            if (text.contains("ENCRYPTED PRIVATE KEY")) {
                throw new IllegalArgumentException(
                        "holds an encrypted key: give it unencrypted"
                                + " (openssl pkcs8 -topk8 -nocrypt -in key.pem -out key-pkcs8.pem) in a file only this process may read");
            }
            if (text.contains("BEGIN RSA PRIVATE KEY") || text.contains("BEGIN EC PRIVATE KEY")) {
                throw new IllegalArgumentException("holds a PKCS#1 or SEC1 key, not PKCS#8: convert it with"
                        + " openssl pkcs8 -topk8 -nocrypt -in key.pem -out key-pkcs8.pem");
            }
            throw new IllegalArgumentException("holds no PKCS#8 private key (-----BEGIN PRIVATE KEY-----)");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(m.group(1).replaceAll("\\s", ""));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("holds a private key that is not valid base64", e);
        }
        for (String algorithm : new String[] {"RSA", "EC"}) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // the next algorithm
            }
        }
        throw new IllegalArgumentException("holds a private key that is neither RSA nor EC");
    }

    /** The X.509 certificates of a PEM file, the client's own first and then the chain to its issuer. */
    public static List<X509Certificate> certificates(byte[] pem) {
        List<X509Certificate> chain = new ArrayList<>();
        try {
            for (Certificate c :
                    CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem))) {
                chain.add((X509Certificate) c);
            }
        } catch (CertificateException | ClassCastException e) {
            throw new IllegalArgumentException("holds no X.509 certificate in PEM (-----BEGIN CERTIFICATE-----)", e);
        }
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("holds no X.509 certificate in PEM (-----BEGIN CERTIFICATE-----)");
        }
        return List.copyOf(chain);
    }

    /** "RSA" or "EC", as the key's type is named in messages and in a JWS algorithm's family. */
    public static String family(PrivateKey key) {
        if (key instanceof RSAPrivateKey) {
            return "RSA";
        }
        if (key instanceof ECPrivateKey) {
            return "EC";
        }
        return key.getAlgorithm();
    }
}

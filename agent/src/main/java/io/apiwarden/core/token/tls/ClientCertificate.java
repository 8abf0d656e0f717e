package io.apiwarden.core.token.tls;

import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.secret.ReloadableSecret;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The client certificate and its key as a key store, from a PKCS#12 file and its password file, or from a PEM
 * certificate file and a PEM key file. Each part follows its file ({@link ReloadableSecret}); the key store is
 * made again only when a part changed.
 */
public final class ClientCertificate {
    /** The password of the in-memory store made from PEM files: it never leaves this process. */
    private static final char[] IN_MEMORY_PASSWORD = "apiwarden".toCharArray();

    private final Supplier<Object[]> parts;
    private final Maker maker;
    private final BooleanSupplier checkNow;
    private final boolean followsFiles;

    private Object[] madeFrom;
    private Store made;
    private boolean warned;

    /** What the parts make: a key store and the password of its key. */
    public static final class Store {
        public final KeyStore keyStore;
        public final char[] password;

        Store(KeyStore keyStore, char[] password) {
            this.keyStore = keyStore;
            this.password = password;
        }
    }

    private interface Maker {
        Store make(Object[] parts) throws GeneralSecurityException, IOException;
    }

    private ClientCertificate(Supplier<Object[]> parts, Maker maker, BooleanSupplier checkNow, boolean followsFiles) {
        this.parts = parts;
        this.maker = maker;
        this.checkNow = checkNow;
        this.followsFiles = followsFiles;
    }

    /** From a PKCS#12 file's bytes and its password (null or empty for none). */
    public static ClientCertificate pkcs12(ReloadableSecret<byte[]> store, ReloadableSecret<String> password) {
        return new ClientCertificate(
                () -> new Object[] {store.get(), password.get()},
                p -> {
                    char[] pw = p[1] == null ? new char[0] : ((String) p[1]).toCharArray();
                    return new Store(pkcs12((byte[]) p[0], pw), pw);
                },
                () -> store.checkNow() | password.checkNow(),
                store.followsAFile());
    }

    /** From a PEM certificate chain and a PEM (PKCS#8) key. */
    public static ClientCertificate pem(
            ReloadableSecret<List<X509Certificate>> chain, ReloadableSecret<PrivateKey> key) {
        return new ClientCertificate(
                () -> new Object[] {chain.get(), key.get()},
                p -> {
                    KeyStore ks = KeyStore.getInstance("PKCS12");
                    ks.load(null, null);
                    @SuppressWarnings("unchecked")
                    List<X509Certificate> certificates = (List<X509Certificate>) p[0];
                    ks.setKeyEntry(
                            "client",
                            (PrivateKey) p[1],
                            IN_MEMORY_PASSWORD,
                            certificates.toArray(new X509Certificate[0]));
                    return new Store(ks, IN_MEMORY_PASSWORD);
                },
                () -> chain.checkNow() | key.checkNow(),
                chain.followsAFile());
    }

    /**
     * Reads a PKCS#12 store, checking that it holds a key and its certificate.
     *
     * @throws IllegalArgumentException naming what is wrong (a wrong password, no key in it), never a secret
     */
    public static KeyStore pkcs12(byte[] bytes, char[] password) {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(new ByteArrayInputStream(bytes), password);
            for (String alias : Collections.list(ks.aliases())) {
                if (ks.isKeyEntry(alias) && ks.getCertificate(alias) != null) {
                    return ks;
                }
            }
            throw new IllegalArgumentException("holds no private key with its certificate");
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot be opened: it is not a PKCS#12 file, or the password file does not hold its password");
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot be read (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** The key store of the present files: the one made before while no part changed. */
    public synchronized Store current() throws GeneralSecurityException, IOException {
        Object[] now = parts.get();
        if (made == null || !sameParts(now, madeFrom)) {
            try {
                made = maker.make(now);
                madeFrom = now;
                warned = false;
            } catch (GeneralSecurityException | IOException | RuntimeException e) {
                if (made == null) {
                    throw e;
                }
                // The files do not fit together (a key store replaced before its password, say): the last good
                // store is kept, and made again at the next handshake.
                if (!warned) {
                    warned = true;
                    AgentLog.warn("the client certificate's files changed but do not fit together ("
                            + e.getClass().getSimpleName() + "); the last good certificate is presented meanwhile");
                }
            }
        }
        return made;
    }

    /** Looks at every file now; true when one changed, which the next {@link #current} then uses. */
    public boolean checkNow() {
        return checkNow.getAsBoolean();
    }

    public boolean followsFiles() {
        return followsFiles;
    }

    /** The same value objects: a reloaded file gives a new one, an unchanged file the same. */
    @SuppressWarnings("ReferenceEquality")
    private static boolean sameParts(Object[] a, Object[] b) {
        if (b == null || a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }
}

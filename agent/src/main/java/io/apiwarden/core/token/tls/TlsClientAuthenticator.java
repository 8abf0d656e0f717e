package io.apiwarden.core.token.tls;

import io.apiwarden.core.token.ClientAuthenticator;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Collections;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509KeyManager;

/**
 * Mutual TLS at the token endpoint (RFC 8705 section 2): {@code tls_client_auth} (a certificate from a CA the token
 * service trusts) and {@code self_signed_tls_client_auth} (a certificate the service has on file). The form carries
 * the client id alone; the certificate goes in the TLS handshake of the token client, whose {@link SSLContext} this
 * makes. Each handshake takes the certificate of the files as they are then, so a rotated certificate is presented
 * from the next connection on.
 */
public final class TlsClientAuthenticator implements ClientAuthenticator {
    private final String clientId;
    private final String method;
    private final ClientCertificate certificate;
    private final SSLContext context;
    /** The store the last request was sent with. */
    private ClientCertificate.Store sentWith;

    /**
     * @param method {@code tls_client_auth} or {@code self_signed_tls_client_auth}
     * @param trust the server certificates trusted, or null for the JDK's (its {@code javax.net.ssl.trustStore})
     */
    public TlsClientAuthenticator(String clientId, String method, ClientCertificate certificate, TrustManager[] trust)
            throws GeneralSecurityException {
        this.clientId = clientId;
        this.method = method;
        this.certificate = certificate;
        this.context = SSLContext.getInstance("TLS");
        context.init(new KeyManager[] {new FollowingKeyManager(certificate)}, trust, null);
    }

    @Override
    public void authenticate(URI tokenUrl, HttpRequest.Builder request, StringBuilder form) {
        forgetSessionsOfAnOldCertificate();
        // RFC 8705 section 2: the client id is sent, since the certificate alone does not say which client it is.
        form.append("&client_id=").append(URLEncoder.encode(clientId, StandardCharsets.UTF_8));
    }

    /**
     * A resumed TLS session presents no certificate: the server keeps the one of the session's first handshake. Once
     * the certificate changed, the sessions are forgotten, so that the next connection makes a full handshake with
     * the new one.
     */
    @SuppressWarnings("ReferenceEquality")
    private synchronized void forgetSessionsOfAnOldCertificate() {
        ClientCertificate.Store now;
        try {
            now = certificate.current();
        } catch (GeneralSecurityException | IOException | RuntimeException e) {
            return; // the handshake will say so
        }
        if (sentWith != null && now != sentWith) {
            SSLSessionContext sessions = context.getClientSessionContext();
            for (byte[] id : Collections.list(sessions.getIds())) {
                SSLSession session = sessions.getSession(id);
                if (session != null) {
                    session.invalidate();
                }
            }
        }
        sentWith = now;
    }

    @Override
    public boolean reloadNow() {
        boolean changed = certificate.checkNow();
        if (changed) {
            forgetSessionsOfAnOldCertificate();
        }
        return changed;
    }

    @Override
    public SSLContext tlsContext() {
        return context;
    }

    @Override
    public boolean reloadable() {
        return certificate.followsFiles();
    }

    @Override
    public String describe() {
        return method;
    }

    @Override
    public String toString() {
        return "TlsClientAuthenticator{" + clientId + ", " + method + "}";
    }

    /**
     * Presents the one client certificate, whichever CAs the server names in its request: a self-signed certificate
     * is in no CA's list, and a server that names none still wants one. Asked anew at each handshake.
     */
    private static final class FollowingKeyManager extends X509ExtendedKeyManager {
        private final ClientCertificate certificate;
        private ClientCertificate.Store madeFrom;
        private X509KeyManager made;

        FollowingKeyManager(ClientCertificate certificate) {
            this.certificate = certificate;
        }

        /** The key manager of the present store; made again only when the store is another. */
        @SuppressWarnings("ReferenceEquality")
        private synchronized X509KeyManager current() {
            try {
                ClientCertificate.Store store = certificate.current();
                if (store == madeFrom) {
                    return made;
                }
                KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                factory.init(store.keyStore, store.password);
                for (KeyManager m : factory.getKeyManagers()) {
                    if (m instanceof X509KeyManager) {
                        made = (X509KeyManager) m;
                        madeFrom = store;
                        return made;
                    }
                }
            } catch (GeneralSecurityException | IOException | RuntimeException e) {
                // No certificate can be presented: the handshake goes on without one, and the server's refusal says so.
            }
            return null;
        }

        private String alias(String[] keyTypes) {
            X509KeyManager m = current();
            if (m == null || keyTypes == null) {
                return null;
            }
            for (String type : keyTypes) {
                String[] aliases = m.getClientAliases(type, null);
                if (aliases != null && aliases.length > 0) {
                    return aliases[0];
                }
            }
            return null;
        }

        @Override
        public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
            return alias(keyTypes);
        }

        @Override
        public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
            return alias(keyTypes);
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            X509KeyManager m = current();
            return m == null ? null : m.getClientAliases(keyType, null);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            X509KeyManager m = current();
            return m == null ? null : m.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            X509KeyManager m = current();
            return m == null ? null : m.getPrivateKey(alias);
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }
    }
}

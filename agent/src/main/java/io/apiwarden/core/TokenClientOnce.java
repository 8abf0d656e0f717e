package io.apiwarden.core;

import io.apiwarden.core.token.ClientAuthenticator;
import java.net.http.HttpClient;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/**
 * The token client for the authenticator's TLS set-up, made on the first token request and kept: a class, not a
 * lambda, which would cost a class spun as the app's first call wires its API ({@link Warden#create}).
 */
final class TokenClientOnce implements Supplier<HttpClient> {
    private final Function<SSLContext, HttpClient> tokenClient;
    private final ClientAuthenticator authenticator;
    private HttpClient made;

    TokenClientOnce(Function<SSLContext, HttpClient> tokenClient, ClientAuthenticator authenticator) {
        this.tokenClient = tokenClient;
        this.authenticator = authenticator;
    }

    @Override
    public synchronized HttpClient get() {
        if (made == null) {
            made = tokenClient.apply(authenticator.tlsContext());
        }
        return made;
    }
}

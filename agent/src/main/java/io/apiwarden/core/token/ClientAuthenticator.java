package io.apiwarden.core.token;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import javax.net.ssl.SSLContext;

/**
 * What authenticates the client in each token request ({@link ClientAuthentication}): a secret in a header or
 * the form, a signed assertion made afresh for each request, or a client certificate presented in the TLS
 * handshake. Its credentials may come from files that change while the agent runs.
 */
public interface ClientAuthenticator {
    /**
     * Adds this request's client authentication: headers to {@code request}, fields (each starting with
     * {@code &}) to {@code form}. Called for every attempt, each retry included.
     */
    void authenticate(URI tokenUrl, HttpRequest.Builder request, StringBuilder form);

    /** Reads the credentials' files again at once; true when they changed, so a refused request may be sent again. */
    default boolean reloadNow() {
        return false;
    }

    /** Whether the credentials come from files that may change: a refusal of them then does not last for good. */
    default boolean reloadable() {
        return false;
    }

    /** The secrets in the forms they leave the agent in, to redact wherever a server echoes them. */
    default List<String> secretForms() {
        return List.of();
    }

    /** The TLS set-up the token requests must be sent with (a client certificate), or null for the client's own. */
    default SSLContext tlsContext() {
        return null;
    }

    /** The method, as {@code apiwarden.client-auth} names it; never a credential. */
    String describe();

    /** No client authentication: no client id is configured. */
    ClientAuthenticator NONE = new ClientAuthenticator() {
        @Override
        public void authenticate(URI tokenUrl, HttpRequest.Builder request, StringBuilder form) {}

        @Override
        public String describe() {
            return "none";
        }
    };
}

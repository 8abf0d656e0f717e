package io.apiwarden.clients.jetty.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.engine.EntryGuard;
import java.net.URI;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.HttpClientTransport;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.client.transport.HttpConversation;
import org.eclipse.jetty.client.transport.HttpRequest;

/**
 * Jetty's client 12 managed without the agent (library mode), and what the agent's hook calls.
 *
 * <pre>{@code
 * HttpClient client = WardenJettyHttp.create(warden).newHttpClient();
 * client.start();
 * ContentResponse r = client.newRequest(url).send();           // managed
 * client.newRequest(url).send(result -> { ... });              // managed
 * }</pre>
 *
 * <p>Every way of sending a request ends in {@code HttpRequest.send(listener)} (the blocking {@code send()}
 * waits on a listener of Jetty's own; Spring's request factory and the reactive client pass theirs). A
 * request to the API is taken on there and run by the engine's asynchronous face: each attempt is a fresh
 * request of the same client copied from the app's, and the app's listeners get the final attempt's
 * response. The app's request itself never goes out. With the agent that method is woven; in library mode
 * the client's requests are of a subclass that does the same ({@link ManagedRequest}).
 */
public final class WardenJettyHttp {
    /** On the conversation of an app's request the agent took on: its {@link JettyExchange}, which the app's abort reaches. */
    static final String CALL = WardenJettyHttp.class.getName() + ".call";
    /** On the conversation of an attempt: its {@link JettyAttempt}, which each redirect hop Jetty sends within it meets. */
    static final String ATTEMPT = WardenJettyHttp.class.getName() + ".attempt";

    /** The Warden of each request's API: one Warden in library mode, the agent's router otherwise. */
    private final Wardens wardens;

    private WardenJettyHttp(Wardens wardens) {
        this.wardens = wardens;
    }

    /** One per {@link Warden} is enough for every client of the same Jetty. */
    public static WardenJettyHttp create(Warden warden) {
        return new WardenJettyHttp(warden);
    }

    /** For the APIs {@code wardens} routes to (the agent's router): each request gets its API's Warden. */
    public static WardenJettyHttp create(Wardens wardens) {
        return new WardenJettyHttp(wardens);
    }

    /** A client (HTTP/1.1, Jetty's default transport) whose calls to the API are managed; the app starts and stops it. */
    public HttpClient newHttpClient() {
        return newHttpClient(new HttpClientTransportOverHTTP());
    }

    /** A client over {@code transport} whose calls to the API are managed; the app starts and stops it. */
    public HttpClient newHttpClient(HttpClientTransport transport) {
        return new ManagedClient(transport, this);
    }

    /**
     * At the start of {@code request.send(listener)}: takes a request to the API on, or tells a redirect hop
     * of an attempt its headers. Returns true when the request is the agent's to run from here; false lets
     * it go on as without the agent.
     */
    boolean send(HttpRequest request, HttpClient client, Response.CompleteListener listener) {
        HttpConversation conversation = request.getConversation();
        Object attempt = conversation.getAttribute(ATTEMPT);
        if (attempt instanceof JettyAttempt) {
            ((JettyAttempt) attempt).sending(request);
            return false;
        }
        if (conversation.getAttribute(CALL) != null) {
            // Sent a second time: Jetty says what it says about that.
            return false;
        }
        URI uri = request.getURI();
        Warden warden = uri == null || uri.getHost() == null ? null : wardens.forRequest(uri);
        if (warden == null) {
            return false;
        }
        JettyExchange call = EntryGuard.open(
                "jetty-call", "a Jetty client call", () -> new JettyExchange(warden, client, request, listener));
        if (call == null) {
            return false;
        }
        conversation.setAttribute(CALL, call);
        if (!call.start()) {
            conversation.removeAttribute(CALL);
            return false;
        }
        return true;
    }

    /** At the start of {@code request.abort(cause)}: a call of the agent's for that request ends with {@code cause}. */
    void aborted(HttpRequest request, Throwable cause) {
        Object call = request.getConversation().getAttribute(CALL);
        if (call instanceof JettyExchange) {
            ((JettyExchange) call).aborted(cause);
        }
    }

    /** The library-mode client: its requests are {@link ManagedRequest}s. */
    private static final class ManagedClient extends HttpClient {
        private final WardenJettyHttp jetty;

        ManagedClient(HttpClientTransport transport, WardenJettyHttp jetty) {
            super(transport);
            this.jetty = jetty;
        }

        @Override
        public org.eclipse.jetty.client.Request newRequest(URI uri) {
            return new ManagedRequest(this, new HttpConversation(), uri, jetty);
        }
    }

    /**
     * A request of the library-mode client: what the agent weaves into {@code HttpRequest}, as overrides.
     * Jetty's own copies of it (a redirect's next hop) are of this class too, so they meet the attempt
     * they belong to.
     */
    static final class ManagedRequest extends HttpRequest {
        private final WardenJettyHttp jetty;

        ManagedRequest(HttpClient client, HttpConversation conversation, URI uri, WardenJettyHttp jetty) {
            super(client, conversation, uri);
            this.jetty = jetty;
        }

        @Override
        public void send(Response.CompleteListener listener) {
            if (!jetty.send(this, getHttpClient(), listener)) {
                super.send(listener);
            }
        }

        @Override
        public java.util.concurrent.CompletableFuture<Boolean> abort(Throwable cause) {
            jetty.aborted(this, cause);
            return super.abort(cause);
        }

        @Override
        protected HttpRequest copyInstance(URI newUri) {
            return new ManagedRequest(getHttpClient(), getConversation(), newUri, jetty);
        }
    }
}

package io.apiwarden.core.token;

import io.apiwarden.core.log.KnownSecrets;
import io.apiwarden.core.secret.ReloadableSecret;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * The client id and secret (RFC 6749 section 2.3.1): HTTP Basic ({@code client_secret_basic}) or the form
 * ({@code client_secret_post}). The secret is asked for on every request, so a secret file that changed is used
 * from the next request on.
 */
public final class SecretAuthenticator implements ClientAuthenticator {
    private static final String BASIC = "Basic ";

    private final String clientId;
    /** Its value may be null: an id alone is sent then (a public client). */
    private final ReloadableSecret<String> secret;

    private final boolean basic;
    /** The value last pinned in {@link KnownSecrets}: a new one is pinned before it is first sent. */
    private volatile String pinned;

    public SecretAuthenticator(String clientId, ReloadableSecret<String> secret, ClientAuthentication authentication) {
        this.clientId = clientId;
        this.secret = secret;
        this.basic = authentication == ClientAuthentication.BASIC;
        pin();
    }

    @Override
    public void authenticate(URI tokenUrl, HttpRequest.Builder request, StringBuilder form) {
        String s = secret.get();
        if (!Objects.equals(s, pinned)) {
            pin();
        }
        if (basic) {
            request.header("Authorization", basic(clientId, s == null ? "" : s));
            return;
        }
        form.append("&client_id=").append(URLEncoder.encode(clientId, StandardCharsets.UTF_8));
        if (s != null) {
            form.append("&client_secret=").append(URLEncoder.encode(s, StandardCharsets.UTF_8));
        }
    }

    @Override
    public boolean reloadNow() {
        return secret.checkNow();
    }

    @Override
    public boolean reloadable() {
        return secret.followsAFile();
    }

    @Override
    public List<String> secretForms() {
        String s = secret.get();
        if (s == null) {
            return List.of();
        }
        // The Basic credentials' base64 holds the secret too; a server quoting the header would show it.
        List<String> forms = new ArrayList<>(3);
        forms.add(s);
        forms.add(URLEncoder.encode(s, StandardCharsets.UTF_8));
        if (basic) {
            forms.add(basic(clientId, s).substring(BASIC.length()));
        }
        return forms;
    }

    /** Every form of the secret is redacted in every text that leaves the agent, not only the token endpoint's answers. */
    private void pin() {
        pinned = secret.get();
        secretForms().forEach(KnownSecrets::pin);
    }

    /** RFC 6749 section 2.3.1: both parts are form-encoded before they are joined and base64-encoded. */
    private static String basic(String id, String secret) {
        String pair =
                URLEncoder.encode(id, StandardCharsets.UTF_8) + ":" + URLEncoder.encode(secret, StandardCharsets.UTF_8);
        return BASIC + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String describe() {
        return basic ? "basic" : "post";
    }

    @Override
    public String toString() {
        return "SecretAuthenticator{" + clientId + ", " + describe() + "}";
    }
}

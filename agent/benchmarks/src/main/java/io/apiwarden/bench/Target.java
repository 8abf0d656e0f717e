package io.apiwarden.bench;

import java.net.URI;
import java.nio.file.Path;

/**
 * Where an app under measurement sends its calls and what it needs to do so: the simulated API's
 * URLs, a valid access token (in a file), the OTLP sink, and the two agent jars.
 */
final class Target {
    private final URI baseUrl;
    private final URI authUrl;
    private final URI healthUrl;
    /** The access token, in an owner-only file: never on a command line. */
    private final Path accessTokenFile;

    private final URI otlpEndpoint;
    private final Path apiWardenJar;
    private final Path otelAgentJar;

    Target(
            URI baseUrl,
            URI authUrl,
            URI healthUrl,
            String accessToken,
            URI otlpEndpoint,
            Path apiWardenJar,
            Path otelAgentJar) {
        this.baseUrl = baseUrl;
        this.authUrl = authUrl;
        this.healthUrl = healthUrl;
        this.accessTokenFile = SecretFile.of(accessToken);
        this.otlpEndpoint = otlpEndpoint;
        this.apiWardenJar = apiWardenJar;
        this.otelAgentJar = otelAgentJar;
    }

    URI baseUrl() {
        return baseUrl;
    }

    URI authUrl() {
        return authUrl;
    }

    /** A managed call: {@code GET {base}/user}, a small JSON answer. */
    URI managedUrl() {
        return URI.create(baseUrl + "/user");
    }

    /** An unmanaged call on the same server and connection pool: {@code GET /health}, outside the API. */
    URI unmanagedUrl() {
        return healthUrl;
    }

    Path accessTokenFile() {
        return accessTokenFile;
    }

    URI otlpEndpoint() {
        return otlpEndpoint;
    }

    Path apiWardenJar() {
        return apiWardenJar;
    }

    Path otelAgentJar() {
        return otelAgentJar;
    }

    @Override
    public String toString() {
        return "Target{" + baseUrl + ", token <redacted>}";
    }
}

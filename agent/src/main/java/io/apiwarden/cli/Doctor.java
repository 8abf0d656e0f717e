package io.apiwarden.cli;

import io.apiwarden.clients.jdk.library.InternalClients;
import io.apiwarden.clients.jdk.library.WardenHttpClient;
import io.apiwarden.core.Warden;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.config.AgentConfig;
import io.apiwarden.core.config.ConfigException;
import io.apiwarden.core.config.ConfigProperty;
import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.dpop.DpopKey;
import io.apiwarden.core.log.ServerText;
import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.core.telemetry.RefreshObserver;
import io.apiwarden.core.telemetry.Telemetry;
import io.apiwarden.core.throttle.RateLimitHeaders;
import io.apiwarden.core.throttle.RateLimitReading;
import io.apiwarden.core.token.AccessToken;
import io.apiwarden.core.token.Grant;
import io.apiwarden.telemetry.ResponseDiagnosis;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Checks the agent's configuration against the real API, the way the agent would use it: the
 * configured grant (a token request, when there is no access token to try first),
 * {@code GET {base}/user} through a managed client (refreshing the token if needed) and
 * {@code HEAD {base}} for the rate-limit headers. Prints what it found and a one-line diagnosis
 * for each; never a token. Exit code 0 only when all is well.
 */
final class Doctor {
    /** A doctor answers in seconds: it reports a global rate limit rather than waiting it out. */
    private static final String NO_RETRIES = "0";

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

    private final PrintStream out;
    private final PrintStream err;
    private final Function<String, String> properties;
    private final Map<String, String> environment;
    /** The names of the system properties, among which the named APIs are found. */
    private final java.util.Collection<String> propertyNames;

    private final List<String> refreshes = new ArrayList<>();

    Doctor(PrintStream out, PrintStream err) {
        this(
                out,
                err,
                System::getProperty,
                System.getenv(),
                System.getProperties().stringPropertyNames());
    }

    Doctor(PrintStream out, PrintStream err, Function<String, String> properties, Map<String, String> environment) {
        this(out, err, properties, environment, List.of());
    }

    Doctor(
            PrintStream out,
            PrintStream err,
            Function<String, String> properties,
            Map<String, String> environment,
            java.util.Collection<String> propertyNames) {
        this.out = out;
        this.err = err;
        this.properties = properties;
        this.environment = environment;
        this.propertyNames = propertyNames;
    }

    int run() {
        out.println("API Warden doctor " + Main.version());
        AgentConfig agentConfig;
        try {
            agentConfig = AgentConfig.from(
                    k -> k.equals(ConfigProperty.BACKOFF_MAX_RETRIES.key()) ? NO_RETRIES : properties.apply(k),
                    propertyNames,
                    environment,
                    List.of());
        } catch (ConfigException e) {
            out.println("FAIL configuration:");
            e.problems().forEach(p -> out.println("  - " + p));
            return 2;
        }
        agentConfig.routing().forEach(r -> out.println("note: " + r));
        boolean ok = true;
        for (WardenConfig config : agentConfig.apis()) {
            if (agentConfig.apis().size() > 1) {
                out.println("== API " + config.name());
            }
            ok &= checkApi(config);
        }
        if (agentConfig.apis().size() > 1) {
            out.println(ok ? "OK: the agent can work with these APIs" : "FAIL: see the lines above");
        }
        return ok ? 0 : 1;
    }

    /** Checks one API: its grant, its token on a call, and a HEAD of its base; true when all went well. */
    private boolean checkApi(WardenConfig config) {
        out.println("configuration: " + config);
        config.warnings().forEach(w -> out.println("WARN " + w));
        if (config.refreshTokenFile().isEmpty() && config.refreshToken().isPresent()) {
            out.println(
                    "note: if the token service rotates refresh tokens, a refresh made here replaces the configured one;"
                            + " give it as " + ConfigProperty.REFRESH_TOKEN_FILE.key() + " so the new one is kept");
        }
        Warden warden = Warden.create(
                config,
                tls -> {
                    HttpClient.Builder b = HttpClient.newBuilder()
                            .connectTimeout(config.tokenTimeout())
                            .followRedirects(HttpClient.Redirect.NEVER);
                    return InternalClients.build(tls == null ? b : b.sslContext(tls));
                },
                new RefreshRecorder());
        HttpClient client = WardenHttpClient.wrap(
                InternalClients.build(HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT)), warden);
        String base = config.scope().baseUrl().toString().replaceAll("/+$", "");
        String keyLine = ClientKeyCheck.keyLine(config, Instant.now());
        if (keyLine != null) {
            out.println(keyLine);
        }
        if (!checkDpop(config, warden)) {
            out.println("FAIL: see the lines above");
            return false;
        }
        boolean grantOk = checkGrant(config, warden);
        boolean tokenOk = check(
                client,
                warden,
                HttpRequest.newBuilder(URI.create(base + "/user"))
                        .timeout(REQUEST_TIMEOUT)
                        .GET()
                        .build(),
                true);
        boolean headOk = check(
                client,
                warden,
                HttpRequest.newBuilder(URI.create(base))
                        .timeout(REQUEST_TIMEOUT)
                        .method("HEAD", HttpRequest.BodyPublishers.noBody())
                        .build(),
                false);
        boolean ok = grantOk && tokenOk && headOk;
        out.println(ok ? "OK: the agent can work with this API" : "FAIL: see the lines above");
        return ok;
    }

    /**
     * DPoP's first steps, when it is on: the key (the configuration read it, or says why not), and proofs that can
     * be signed with it. The token endpoint's part (a proof accepted, a token of type DPoP) is the grant's check.
     */
    private boolean checkDpop(WardenConfig config, Warden warden) {
        if (config.dpop().isEmpty()) {
            return true;
        }
        DpopKey key = config.dpop().get();
        out.println("OK   DPoP key: " + key.algorithm()
                + (key.generated()
                        ? ", generated in memory (its tokens end with the JVM; " + ConfigProperty.DPOP_KEY_FILE.key()
                                + " for a key that lasts)"
                        : ", read from " + ConfigProperty.DPOP_KEY_FILE.key()));
        if (warden.senderConstraint() == null) {
            out.println("FAIL DPoP proofs: none can be signed with this key (see the error above); check "
                    + ConfigProperty.DPOP_KEY_FILE.key() + " and " + ConfigProperty.DPOP_ALGORITHM.key());
            return false;
        }
        if (warden.tokens().current() != null) {
            out.println("note: with DPoP, the configured access token is sent as a DPoP token; one the token service"
                    + " did not bind to this key is refused, and a DPoP token is then asked for");
        }
        return true;
    }

    /**
     * Asks the token endpoint for a token with the configured grant, as the agent would before the first
     * call, and reports it; true when a token came, or when a configured access token is tried first
     * (the grant is then used only when the API refuses it, which the next check shows).
     */
    private boolean checkGrant(WardenConfig config, Warden warden) {
        Grant grant = config.grant();
        String what = "token request (" + grant
                + (config.clientId().isPresent()
                        ? ", client " + config.clientId().get() + ", "
                                + config.clientAuthentication().configValue() + " client authentication"
                        : "")
                + (config.dpop().isPresent()
                        ? ", DPoP proof " + config.dpop().get().algorithm()
                        : "")
                + ") at " + config.tokenUrl().map(Object::toString).orElse("no token endpoint");
        if (warden.tokens().current() != null) {
            out.println("note: the configured access token is tried first; the " + grant.type()
                    + " grant is used when the API refuses it");
            return true;
        }
        if (!warden.tokens().canRefresh()) {
            out.println("FAIL " + what + ": no token can be had; set " + ConfigProperty.ACCESS_TOKEN.key()
                    + " or a grant's settings");
            return false;
        }
        AccessToken token;
        try {
            // Each of the endpoint's tries is bounded by the token time-out, and the pauses between them by seconds.
            token = warden.tokens()
                    .tokenForRequest()
                    .get(config.tokenTimeout().multipliedBy(4).toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("FAIL " + what + ": interrupted");
            return false;
        } catch (ExecutionException | TimeoutException e) {
            token = null;
        }
        if (token == null) {
            String failure = warden.tokens().lastFailure();
            out.println("FAIL " + what + ": "
                    + (failure != null
                            ? failure
                            : "no answer in time; check " + ConfigProperty.TOKEN_URL.key() + " and the network"));
            String step = failure == null ? null : ClientKeyCheck.afterRefusal(config, failure);
            if (step != null) {
                out.println("  " + step);
            }
            if (config.dpop().isPresent() && failure != null && failure.contains("invalid_dpop_proof")) {
                out.println("  DPoP: the token endpoint refused the proof: check that it accepts "
                        + config.dpop().get().algorithm() + " (" + ConfigProperty.DPOP_ALGORITHM.key()
                        + ") and that this machine's clock is right (a proof is dated)");
            }
            return false;
        }
        out.println("OK   " + what
                + (config.dpop().isPresent() ? " -> an access token of type DPoP" : " -> an access token")
                + token.expiresAt().map(t -> " valid until " + t).orElse(""));
        return true;
    }

    /** Sends one request and reports it; true when the response is a success. */
    private boolean check(HttpClient client, Warden warden, HttpRequest request, boolean verifiesToken) {
        String what = request.method() + " " + request.uri();
        int refreshesBefore = refreshes.size();
        HttpResponse<String> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            // The client's message may quote what the server sent (a malformed status line or header).
            out.println("FAIL " + what + ": no response (" + e.getClass().getSimpleName() + ": "
                    + ServerText.of(String.valueOf(e.getMessage())) + "); check " + ConfigProperty.BASE_URL.key()
                    + " and the network");
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("FAIL " + what + ": interrupted");
            return false;
        }
        for (String r : refreshes.subList(refreshesBefore, refreshes.size())) {
            out.println("  token refresh: " + r
                    + (r.equals("success") ? "" : " (" + warden.tokens().lastFailure() + ")"));
        }
        int status = response.statusCode();
        Verdict verdict = verdictOf(warden, response);
        ResponseDiagnosis d =
                ResponseDiagnosis.of(status, verdict, name -> response.headers().allValues(name));
        StringBuilder line = new StringBuilder()
                .append(status < 400 ? "OK   " : "FAIL ")
                .append(what)
                .append(" -> ")
                .append(status)
                .append(" (")
                .append(status / 100)
                .append("xx, ")
                .append(d.verdict)
                .append(')');
        header(response, line, "request-id", warden.config().requestIdHeaders().toArray(new String[0]));
        header(response, line, "server", "Server");
        header(response, line, "via", "Via");
        header(response, line, "x-cache", "X-Cache");
        out.println(line);
        if (!verifiesToken) {
            for (Map.Entry<String, List<String>> h : response.headers().map().entrySet()) {
                String name = h.getKey().toLowerCase(Locale.ROOT);
                if (name.contains("ratelimit") || name.contains("rate-limit") || name.equals("retry-after")) {
                    out.println(
                            "  " + ServerText.of(h.getKey()) + ": " + ServerText.of(String.join(", ", h.getValue())));
                }
            }
            RateLimitReading reading = RateLimitHeaders.read(
                    name -> response.headers().firstValue(name).orElse(null), Instant.now());
            out.println("  rate limit as the agent reads it: " + reading.describe()
                    + (reading.exhaustedFor().isPresent() ? "; nothing is left of the window until it resets" : ""));
        }
        out.println("  diagnosis: " + diagnose(status, verdict, d, verifiesToken, warden));
        return status < 400;
    }

    private static Verdict verdictOf(Warden warden, HttpResponse<?> response) {
        Verdict v = warden.classifier()
                .fromHead(response.statusCode(), name -> response.headers().allValues(name));
        if (v != null) {
            return v;
        }
        Object body = response.body();
        byte[] bytes = body == null ? new byte[0] : body.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return warden.classifier().fromBody(response.statusCode(), bytes, bytes.length);
    }

    private static String diagnose(
            int status, Verdict verdict, ResponseDiagnosis d, boolean verifiesToken, Warden warden) {
        if (d.hint != null && status >= 500) {
            return d.hint + "; the API itself may be fine: retry later or ask whoever runs the proxy";
        }
        switch (verdict) {
            case SUCCESS:
                return verifiesToken ? "the token works" : "the API answers";
            case INVALID_TOKEN:
                String refresh = warden.tokens().lastFailure();
                return refresh != null
                        ? "the API refused the token and no new one could be had: " + refresh
                        : "the API refused the token even after a refresh: it may lack the permissions this call needs";
            case GLOBAL_RATE_LIMIT:
                return "the API's global rate limit is in effect right now; the agent would wait and resend (2, 4, 8... s)";
            case CLIENT_ERROR:
                return status == 404 || status == 410
                        ? "not found: check that " + ConfigProperty.BASE_URL.key() + " is the API's base, path included"
                        : "the API refused the request (4xx): the request or the configuration must be fixed";
            default:
                return "the API failed to answer a valid request (5xx); retry later";
        }
    }

    private static void header(HttpResponse<?> response, StringBuilder line, String label, String... names) {
        for (String name : names) {
            List<String> values = response.headers().allValues(name);
            if (!values.isEmpty()) {
                line.append(' ').append(label).append('=').append(ServerText.of(String.join(",", values)));
                return;
            }
        }
    }

    /** Remembers how each refresh ended, for the report. */
    private final class RefreshRecorder implements Telemetry {
        @Override
        public CallObserver call(String method, String url, String host, int port) {
            return CallObserver.NOOP;
        }

        @Override
        public RefreshObserver refresh(URI tokenUrl) {
            return result -> {
                synchronized (refreshes) {
                    refreshes.add(result);
                }
            };
        }
    }
}

package io.apiwarden.telemetry;

import io.apiwarden.core.classify.Verdict;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * The spec's status rules (section 7) applied to one response or failure, for the trace.
 *
 * <ul>
 *   <li>A 5xx with proxy evidence, a {@code Via} or {@code X-Cache} header or a {@code Server}
 *       naming a proxy or CDN, came from the proxy, not the application ({@code proxy_error}).
 *   <li>A 502 or 504 without such evidence is still most likely a proxy's view of its upstream.
 *   <li>A failure for too many redirects hints at an HTTPS-terminating proxy that does not
 *       forward {@code X-Forwarded-Proto}.
 *   <li>A time-out of a request sent with {@code Expect: 100-continue} hints at a proxy that never
 *       answers the expectation.
 * </ul>
 */
public final class ResponseDiagnosis {
    /** Each verdict's label, made once: every managed call is labelled. */
    private static final String[] LABELS = labels();
    /** Each verdict's diagnosis of an ordinary response (no proxy to name), made once rather than on every one. */
    private static final ResponseDiagnosis[] PLAIN = plain();
    /** The diagnosis of an ordinary response with no verdict. */
    private static final ResponseDiagnosis PLAIN_ERROR = new ResponseDiagnosis("error", null, null);

    /** Server header values of common proxies and CDNs (lower case, matched as prefixes). */
    static final Set<String> PROXY_SERVERS = Set.of(
            "cloudflare",
            "cloudfront",
            "akamaighost",
            "akamai",
            "varnish",
            "squid",
            "envoy",
            "awselb",
            "haproxy",
            "fastly",
            "google frontend",
            "gfe",
            "istio-envoy",
            "apigee",
            "kong");

    /** The refined verdict: {@code proxy_error} where the proxy answered. */
    public final String verdict;
    /** {@code proxy}, {@code redirect_loop}, {@code expect_continue_stall}, or null. */
    public final String diagnosis;
    /** What the diagnosis means, in a sentence; null without one. */
    public final String hint;

    private ResponseDiagnosis(String verdict, String diagnosis, String hint) {
        this.verdict = verdict;
        this.diagnosis = diagnosis;
        this.hint = hint;
    }

    public static ResponseDiagnosis of(int status, Verdict verdict, Function<String, List<String>> headers) {
        String label = label(verdict);
        if (status >= 500 && fromProxy(headers)) {
            return new ResponseDiagnosis(
                    "proxy_error",
                    "proxy",
                    "produced by a proxy or CDN in front of the API (Via, X-Cache or Server say so), not by the application");
        }
        if (status == 502 || status == 504) {
            return new ResponseDiagnosis(
                    label,
                    "proxy",
                    "a 502 or 504 describes a proxy's relation to its upstream, most likely not the application itself");
        }
        return verdict == null ? PLAIN_ERROR : PLAIN[verdict.ordinal()];
    }

    static ResponseDiagnosis ofFailure(Throwable failure, boolean expectContinue) {
        String text = String.valueOf(failure.getMessage()).toLowerCase(Locale.ROOT);
        if (text.contains("too many") && (text.contains("redirect") || text.contains("follow-up"))) {
            return new ResponseDiagnosis(
                    null,
                    "redirect_loop",
                    "a redirect loop usually means an HTTPS-terminating proxy does not forward X-Forwarded-Proto");
        }
        if (expectContinue && failure.getClass().getSimpleName().contains("Timeout")) {
            return new ResponseDiagnosis(
                    null,
                    "expect_continue_stall",
                    "the request waited for 100 Continue; a proxy that does not proceed on Expect: 100-continue stalls it");
        }
        return new ResponseDiagnosis(null, null, null);
    }

    static String label(Verdict verdict) {
        return verdict == null ? "error" : LABELS[verdict.ordinal()];
    }

    private static ResponseDiagnosis[] plain() {
        ResponseDiagnosis[] plain = new ResponseDiagnosis[LABELS.length];
        for (int i = 0; i < plain.length; i++) {
            plain[i] = new ResponseDiagnosis(LABELS[i], null, null);
        }
        return plain;
    }

    private static String[] labels() {
        Verdict[] verdicts = Verdict.values();
        String[] labels = new String[verdicts.length];
        for (Verdict v : verdicts) {
            labels[v.ordinal()] = v.name().toLowerCase(Locale.ROOT);
        }
        return labels;
    }

    private static boolean fromProxy(Function<String, List<String>> headers) {
        if (!headers.apply("Via").isEmpty() || !headers.apply("X-Cache").isEmpty()) {
            return true;
        }
        for (String server : headers.apply("Server")) {
            String s = server.toLowerCase(Locale.ROOT);
            for (String proxy : PROXY_SERVERS) {
                if (s.startsWith(proxy)) {
                    return true;
                }
            }
        }
        return false;
    }
}

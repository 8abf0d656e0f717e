package io.apiwarden.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.classify.Verdict;
import java.io.IOException;
import java.net.ProtocolException;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResponseDiagnosisTest {

    private static ResponseDiagnosis of(int status, Verdict v, Map<String, List<String>> headers) {
        return ResponseDiagnosis.of(status, v, name -> headers.entrySet().stream()
                .filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(List.of()));
    }

    @Test
    void aServerErrorWithProxyEvidenceIsTheProxys() {
        assertThat(of(502, Verdict.SERVER_ERROR, Map.of("Via", List.of("1.1 varnish"))).verdict)
                .isEqualTo("proxy_error");
        assertThat(of(503, Verdict.SERVER_ERROR, Map.of("X-Cache", List.of("MISS"))).verdict)
                .isEqualTo("proxy_error");
        assertThat(of(500, Verdict.SERVER_ERROR, Map.of("Server", List.of("cloudflare"))).verdict)
                .isEqualTo("proxy_error");
        assertThat(of(500, Verdict.SERVER_ERROR, Map.of("Server", List.of("Jetty(11)"))).verdict)
                .isEqualTo("server_error");
    }

    @Test
    void a502Or504WithoutEvidenceStillPointsAtAProxy() {
        ResponseDiagnosis d = of(504, Verdict.SERVER_ERROR, Map.of());

        assertThat(d.verdict).isEqualTo("server_error");
        assertThat(d.diagnosis).isEqualTo("proxy");
        assertThat(d.hint).contains("proxy's relation to its upstream");
    }

    @Test
    void clientErrorsAndSuccessesCarryNoDiagnosis() {
        assertThat(of(404, Verdict.CLIENT_ERROR, Map.of("Via", List.of("1.1 edge"))).diagnosis)
                .isNull();
        assertThat(of(200, Verdict.SUCCESS, Map.of()).verdict).isEqualTo("success");
    }

    @Test
    void failuresGiveTheSpecsHints() {
        assertThat(ResponseDiagnosis.ofFailure(new ProtocolException("Too many follow-up requests: 21"), false)
                        .diagnosis)
                .isEqualTo("redirect_loop");
        assertThat(ResponseDiagnosis.ofFailure(new IOException("too many redirects"), false).hint)
                .contains("X-Forwarded-Proto");
        assertThat(ResponseDiagnosis.ofFailure(new HttpTimeoutException("request timed out"), true).diagnosis)
                .isEqualTo("expect_continue_stall");
        assertThat(ResponseDiagnosis.ofFailure(new HttpTimeoutException("request timed out"), false).diagnosis)
                .isNull();
    }

    @Test
    void queryValuesAreRedactedAndNamesKept() {
        assertThat(UrlRedaction.redact("https://api.example.com/v1/user?id=42&token=abc&flag#frag"))
                .isEqualTo("https://api.example.com/v1/user?id=REDACTED&token=REDACTED&flag");
        assertThat(UrlRedaction.redact("https://api.example.com/v1/user#x"))
                .isEqualTo("https://api.example.com/v1/user");
        assertThat(UrlRedaction.redact("https://user:pw@api.example.com/v1/user?q=1"))
                .isEqualTo("https://api.example.com/v1/user?q=REDACTED");
    }
}

package io.apiwarden.core.classify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResponseClassifierTest {
    private final ResponseClassifier classifier = new ResponseClassifier();

    private Verdict head(int status, Map<String, List<String>> headers) {
        return classifier.fromHead(status, name -> headers.getOrDefault(name, List.of()));
    }

    private Verdict body(int status, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return classifier.fromBody(status, bytes, bytes.length);
    }

    @Test
    void statusAndHeadersSettleMostResponses() {
        assertThat(head(200, Map.of())).isEqualTo(Verdict.SUCCESS);
        assertThat(head(304, Map.of())).isEqualTo(Verdict.SUCCESS);
        assertThat(head(401, Map.of())).isEqualTo(Verdict.INVALID_TOKEN);
        assertThat(head(429, Map.of())).isEqualTo(Verdict.GLOBAL_RATE_LIMIT);
        assertThat(head(403, Map.of("WWW-Authenticate", List.of("Bearer realm=\"api\", error=\"invalid_token\""))))
                .isEqualTo(Verdict.INVALID_TOKEN);
        assertThat(head(403, Map.of("WWW-Authenticate", List.of("Bearer error=\"insufficient_scope\""))))
                .isNull();
        assertThat(head(500, Map.of())).isNull();
    }

    @Test
    void errorBodiesNameTheSpecsErrorsCaseInsensitively() {
        assertThat(body(400, "{\"message\":\"OAuth Invalid Token\"}")).isEqualTo(Verdict.INVALID_TOKEN);
        assertThat(body(403, "{\"error\":\"invalid_token\"}")).isEqualTo(Verdict.INVALID_TOKEN);
        assertThat(body(403, "API Rate Limit Exceeded (global)")).isEqualTo(Verdict.GLOBAL_RATE_LIMIT);
        assertThat(body(503, "rate limit exceeded")).isEqualTo(Verdict.GLOBAL_RATE_LIMIT);
        assertThat(body(500, "invalid token"))
                .as("a 5xx is the server's failure, not the token's")
                .isEqualTo(Verdict.SERVER_ERROR);
        assertThat(body(404, "not found")).isEqualTo(Verdict.CLIENT_ERROR);
        assertThat(body(502, "<html>bad gateway</html>")).isEqualTo(Verdict.SERVER_ERROR);
    }

    @Test
    void onlyTheFirstBytesUpToTheLimitAreRead() {
        byte[] body = ("x".repeat(ResponseClassifier.BODY_PEEK_LIMIT) + "rate limit exceeded")
                .getBytes(StandardCharsets.US_ASCII);

        assertThat(classifier.fromBody(400, body, body.length)).isEqualTo(Verdict.CLIENT_ERROR);
    }

    @Test
    void invalidTokenChallengesAreRecognisedWithOrWithoutQuotes() {
        assertThat(ResponseClassifier.saysInvalidTokenChallenge("Bearer error=invalid_token"))
                .isTrue();
        assertThat(ResponseClassifier.saysInvalidTokenChallenge("Bearer error = \"invalid_token\""))
                .isTrue();
        assertThat(ResponseClassifier.saysInvalidTokenChallenge("Basic realm=\"x\""))
                .isFalse();
        assertThat(ResponseClassifier.saysInvalidTokenChallenge("Bearer error_description=\"invalid_token\""))
                .isFalse();
    }

    @Test
    void withDpopEveryNonceIsHandedOnAndA401AskingForItIsTheNonceDemand() {
        List<String> nonces = new ArrayList<>();
        ResponseClassifier dpop = new ResponseClassifier(nonces::add);
        Map<String, List<String>> demand = Map.of(
                "WWW-Authenticate", List.of("DPoP error=\"use_dpop_nonce\", algs=\"ES256\""),
                "DPoP-Nonce", List.of("n-1"));
        Map<String, List<String>> fresh = Map.of("DPoP-Nonce", List.of("n-2"));

        assertThat(dpop.fromHead(401, name -> demand.getOrDefault(name, List.of())))
                .isEqualTo(Verdict.DPOP_NONCE);
        assertThat(dpop.fromHead(200, name -> fresh.getOrDefault(name, List.of())))
                .isEqualTo(Verdict.SUCCESS);
        assertThat(nonces).containsExactly("n-1", "n-2");
        assertThat(head(401, demand)).as("without DPoP, a 401 like any other").isEqualTo(Verdict.INVALID_TOKEN);
        assertThat(dpop.fromHead(401, name -> name.equals("WWW-Authenticate") ? demand.get(name) : List.of()))
                .as("a demand that gives no nonce cannot be answered")
                .isEqualTo(Verdict.INVALID_TOKEN);
    }
}

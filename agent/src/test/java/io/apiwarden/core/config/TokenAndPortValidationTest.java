package io.apiwarden.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.apiwarden.core.token.TokenText;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Configured tokens follow RFC 6750's grammar, and URLs carry real ports. */
class TokenAndPortValidationTest {
    @TempDir
    Path dir;

    private final Map<String, String> props = new HashMap<>();

    private WardenConfig read() throws ConfigException {
        return WardenConfig.from(props::get, Map.of());
    }

    private List<String> problems() {
        ConfigException e = catchThrowableOfType(ConfigException.class, this::read);
        assertThat(e).as("the configuration is refused").isNotNull();
        return e.problems();
    }

    private void minimal() {
        props.put("apiwarden.base-url", "https://api.example.com/v1");
        props.put("apiwarden.auth-url", "https://auth.example.com/");
        props.put("apiwarden.refresh-token", "rt-1");
    }

    @Test
    void aRefreshTokenWithQuotesIsRefusedNamingThePropertyAndTheFixButNotTheValue() {
        minimal();
        props.put("apiwarden.refresh-token", "\"rt-9f8e7d6c5b\"");

        assertThat(problems())
                .singleElement()
                .asString()
                .startsWith("apiwarden.refresh-token contains quotes")
                .contains("set the bare token", TokenText.ALPHABET)
                .doesNotContain("rt-9f8e7d6c5b");
    }

    @Test
    void aQuotedTokenInAFileIsRefusedNamingTheFile() throws Exception {
        minimal();
        props.remove("apiwarden.refresh-token");
        Path file = dir.resolve("refresh-token");
        Files.writeString(file, "'rt-9f8e7d6c5b'\n");
        props.put("apiwarden.refresh-token-file", file.toString());

        assertThat(problems())
                .singleElement()
                .asString()
                .startsWith("apiwarden.refresh-token-file (" + file + ") contains quotes")
                .doesNotContain("rt-9f8e7d6c5b");
    }

    @Test
    void anAccessTokenWithPunctuationOutsideTheGrammarIsRefused() {
        minimal();
        props.put("apiwarden.access-token", "at|IQEBLjAsAhR");

        assertThat(problems())
                .singleElement()
                .asString()
                .startsWith("apiwarden.access-token contains punctuation")
                .doesNotContain("IQEBLjAsAhR");
    }

    @Test
    void anAccessTokenLongerThanAHeaderCarriesIsAConfigurationProblem() {
        minimal();
        props.put("apiwarden.access-token", "a".repeat(TokenText.MAX_ACCESS_TOKEN_LENGTH + 1));

        assertThat(problems())
                .singleElement()
                .asString()
                .startsWith("apiwarden.access-token is 16385 characters long")
                .contains("16 KiB", "set one access token");
    }

    @Test
    void tokensInsideTheGrammarAndLimitAreKept() throws Exception {
        minimal();
        String jwtLike = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl-_~+/==";
        String atLimit = "a".repeat(TokenText.MAX_ACCESS_TOKEN_LENGTH);
        props.put("apiwarden.refresh-token", jwtLike);
        props.put("apiwarden.access-token", atLimit);

        WardenConfig c = read();

        assertThat(c.refreshToken()).contains(jwtLike);
        assertThat(c.accessToken()).contains(atLimit);
    }

    @Test
    void aClientSecretNeedNotBeABearerToken() throws Exception {
        minimal();
        props.put("apiwarden.client-id", "my-service");
        props.put("apiwarden.client-secret", "s3cr3t!#$%");

        assertThat(read().clientSecret()).contains("s3cr3t!#$%");
    }

    @ParameterizedTest
    @ValueSource(strings = {"apiwarden.base-url", "apiwarden.auth-url", "apiwarden.token-url"})
    void aPortOutsideTheTcpRangeIsRefusedForEachUrl(String property) {
        minimal();
        for (String port : List.of("99999", "0", "65536", "99999999999", "8o80")) {
            props.put(property, "https://host.example.com:" + port + "/v1");

            assertThat(problems())
                    .as(port)
                    .singleElement()
                    .asString()
                    .startsWith(property + " (or ")
                    .contains("has port " + port, "from 1 to 65535");
        }
    }

    @Test
    void theStoresPortIsCheckedAtStartUpNotAtTheFirstConnect() {
        minimal();
        props.put("apiwarden.store", "redis://cache.internal:99999");

        assertThat(problems())
                .singleElement()
                .asString()
                .startsWith(
                        "apiwarden.store (or APIWARDEN_STORE) has port 99999, which no server can listen on (ports go from 1 to 65535");
    }

    @Test
    void portsAtTheEndsOfTheRangeAreKept() throws Exception {
        minimal();
        props.put("apiwarden.base-url", "https://api.example.com:65535/v1");
        props.put("apiwarden.token-url", "http://[::1]:1/token");

        WardenConfig c = read();

        assertThat(c.scope().baseUrl().getPort()).isEqualTo(65535);
        assertThat(c.tokenUrl()).contains(URI.create("http://[::1]:1/token"));
    }
}

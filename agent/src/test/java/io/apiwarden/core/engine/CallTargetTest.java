package io.apiwarden.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** One rule for a port the request does not name, whatever client made it. */
class CallTargetTest {

    @Test
    void aPortTheRequestDoesNotNameIsTheSchemesDefault() {
        assertThat(CallTarget.of("GET", URI.create("https://api.example/v1/user")).port)
                .isEqualTo(443);
        assertThat(CallTarget.of("GET", URI.create("http://api.example/v1/user")).port)
                .isEqualTo(80);
        assertThat(new CallTarget("GET", "HTTPS://api.example/v1", "HTTPS", "api.example", -1, "/v1").port)
                .isEqualTo(443);
    }

    @Test
    void aNamedPortAndTheRequestAsWrittenAreKept() {
        CallTarget t = CallTarget.of("POST", URI.create("https://api.example:8443/v1/items%20x?q=1"));

        assertThat(t.port).isEqualTo(8443);
        assertThat(t.host).isEqualTo("api.example");
        assertThat(t.rawPath).isEqualTo("/v1/items%20x");
        assertThat(t.url).isEqualTo("https://api.example:8443/v1/items%20x?q=1");
    }
}

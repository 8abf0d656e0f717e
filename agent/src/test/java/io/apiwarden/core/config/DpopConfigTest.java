package io.apiwarden.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.core.dpop.DpopKey;
import io.apiwarden.testing.TestWardens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code apiwarden.dpop.*}: off unless asked, a key generated or read, a key file required for shared tokens. */
class DpopConfigTest {
    private static final String BASE = "https://api.example.com/v1";

    @TempDir
    Path dir;

    private static AgentConfig read(String... keyValues) throws ConfigException {
        Map<String, String> props = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            props.put(keyValues[i], keyValues[i + 1]);
        }
        return AgentConfig.from(props::get, props.keySet(), Map.of(), List.of());
    }

    @Test
    void offUnlessEnabled() {
        assertThat(TestWardens.config("apiwarden.base-url", BASE, "apiwarden.access-token", "a-1")
                        .dpop())
                .isEmpty();
    }

    @Test
    void withoutAKeyFileAnEs256KeyIsGeneratedAndTheConfigurationSaysDpopNeverTheKey() {
        WardenConfig config = TestWardens.config(
                "apiwarden.base-url", BASE, "apiwarden.access-token", "a-1", "apiwarden.dpop.enabled", "true");

        DpopKey key = config.dpop().orElseThrow();
        assertThat(key.generated()).isTrue();
        assertThat(key.algorithm()).isEqualTo(DpopKey.Algorithm.ES256);
        assertThat(config.toString()).contains("dpop=ES256");
    }

    @Test
    void aKeyFileIsReadWithTheAlgorithmAsked() throws Exception {
        Path key = Paths.get(getClass().getResource("/dpop/rsa-2048.pem").toURI());

        WardenConfig config = TestWardens.config(
                "apiwarden.base-url",
                BASE,
                "apiwarden.access-token",
                "a-1",
                "apiwarden.dpop.enabled",
                "true",
                "apiwarden.dpop.key-file",
                key.toString(),
                "apiwarden.dpop.algorithm",
                "RS256");

        assertThat(config.dpop().orElseThrow().algorithm()).isEqualTo(DpopKey.Algorithm.RS256);
        assertThat(config.dpop().orElseThrow().generated()).isFalse();
    }

    @Test
    void sharedTokensWithoutAKeyFileAreAConfigurationErrorSayingWhatToSet() {
        assertThatThrownBy(() -> read(
                        "apiwarden.base-url",
                        BASE,
                        "apiwarden.access-token",
                        "a-1",
                        "apiwarden.dpop.enabled",
                        "true",
                        "apiwarden.store",
                        "redis://localhost:6379"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("every JVM must hold the same one")
                .hasMessageContaining("apiwarden.dpop.key-file");
    }

    @Test
    void aBadKeyFileIsAConfigurationErrorNamingTheProperty() throws Exception {
        Path bad = Files.writeString(dir.resolve("key.pem"), "-----BEGIN EC PRIVATE KEY-----\nAAAA\n");

        assertThatThrownBy(() -> read(
                        "apiwarden.base-url",
                        BASE,
                        "apiwarden.access-token",
                        "a-1",
                        "apiwarden.dpop.enabled",
                        "true",
                        "apiwarden.dpop.key-file",
                        bad.toString()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("apiwarden.dpop.key-file")
                .hasMessageContaining("openssl pkcs8 -topk8");
    }

    @Test
    void dpopIsAnIdentityPropertyANamedApiSetsForItself() throws Exception {
        AgentConfig config = read(
                "apiwarden.base-url", BASE,
                "apiwarden.access-token", "a-1",
                "apiwarden.dpop.enabled", "true",
                "apiwarden.api.crm.base-url", "https://crm.example.com/api",
                "apiwarden.api.crm.access-token", "c-1",
                "apiwarden.api.pay.base-url", "https://pay.example.com/v2",
                "apiwarden.api.pay.access-token", "p-1",
                "apiwarden.api.pay.dpop.enabled", "true");

        assertThat(config.apis())
                .extracting(WardenConfig::name, c -> c.dpop().isPresent())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("default", true),
                        org.assertj.core.groups.Tuple.tuple("crm", false),
                        org.assertj.core.groups.Tuple.tuple("pay", true));
    }
}

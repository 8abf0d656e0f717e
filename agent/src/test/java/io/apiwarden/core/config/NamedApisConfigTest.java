package io.apiwarden.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Named APIs, their inheritance of the unnamed properties, and the configuration file. */
class NamedApisConfigTest {
    private final Map<String, String> props = new HashMap<>();
    private final Map<String, String> env = new HashMap<>();

    @TempDir
    Path dir;

    private AgentConfig read() throws ConfigException {
        return AgentConfig.from(props::get, props.keySet(), env, List.of());
    }

    private void api(String name, String host) {
        props.put("apiwarden.api." + name + ".base-url", "https://" + host + "/v1");
        props.put("apiwarden.api." + name + ".auth-url", "https://auth." + host);
        props.put("apiwarden.api." + name + ".refresh-token", name + "-refresh");
    }

    private WardenConfig named(AgentConfig config, String name) {
        return config.apis().stream()
                .filter(a -> a.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aNamedApiTakesUnnamedTuningButNeverAnUnnamedIdentity() throws Exception {
        props.put("apiwarden.base-url", "https://orders.example.com/v1");
        props.put("apiwarden.auth-url", "https://auth.orders.example.com");
        props.put("apiwarden.refresh-token", "orders-refresh");
        props.put("apiwarden.client-id", "orders-client");
        props.put("apiwarden.scope", "orders");
        props.put("apiwarden.backoff.initial-delay", "300ms");
        api("payments", "pay.example.com");
        props.put("apiwarden.api.payments.backoff.max-retries", "2");

        AgentConfig config = read();

        assertThat(config.apis()).extracting(WardenConfig::name).containsExactly("default", "payments");
        WardenConfig payments = named(config, "payments");
        assertThat(payments.backoffInitialDelay()).isEqualTo(Duration.ofMillis(300));
        assertThat(payments.backoffMaxRetries()).isEqualTo(2);
        assertThat(config.first().backoffMaxRetries()).isEqualTo(5);
        assertThat(payments.clientId()).isEmpty();
        assertThat(payments.grant().scope()).isNull();
        assertThat(payments.refreshToken()).contains("payments-refresh");
        assertThat(payments.tokenUrl())
                .hasValueSatisfying(u -> assertThat(u.getHost()).isEqualTo("auth.pay.example.com"));
    }

    @Test
    void onlyNamedApisWhenNoUnnamedIdentityIsSet() throws Exception {
        props.put("apiwarden.backoff.initial-delay", "300ms");
        api("payments", "pay.example.com");
        env.put("APIWARDEN_API_CRM_EU_BASE_URL", "https://crm.example.com/v1");
        env.put("APIWARDEN_API_CRM_EU_ACCESS_TOKEN", "crm-access");

        AgentConfig config = read();

        assertThat(config.apis()).extracting(WardenConfig::name).containsExactly("crm-eu", "payments");
        assertThat(named(config, "crm-eu").accessToken()).contains("crm-access");
    }

    @Test
    void aNamedApiWithoutItsOwnIdentityIsAProblemNamingItsProperties() {
        props.put("apiwarden.base-url", "https://orders.example.com/v1");
        props.put("apiwarden.access-token", "orders-access");
        props.put("apiwarden.api.payments.backoff.max-retries", "2");

        assertThatThrownBy(this::read)
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "apiwarden.api.payments.base-url (or APIWARDEN_API_PAYMENTS_BASE_URL) is required")
                .hasMessageContaining("apiwarden.api.payments.refresh-token");
    }

    @Test
    void badNamesUnknownPropertiesAndTheNameDefaultAreProblems() {
        api("payments", "pay.example.com");
        props.put("apiwarden.api.Pay_ments.base-url", "https://x.example.com");
        props.put("apiwarden.api.crm.colour", "blue");
        props.put("apiwarden.api.default.base-url", "https://y.example.com");

        assertThatThrownBy(this::read)
                .hasMessageContaining("names the API 'Pay_ments'")
                .hasMessageContaining("apiwarden.api.crm.colour is not a property of an API")
                .hasMessageContaining("apiwarden.api.default.base-url names the API 'default'");
    }

    @Test
    void twoApisWithOneBaseAreAProblemAndNestedBasesAreSaid() throws Exception {
        api("payments", "pay.example.com");
        api("refunds", "pay.example.com");
        assertThatThrownBy(this::read).hasMessageContaining("the APIs payments and refunds have the same base");

        props.put("apiwarden.api.refunds.base-url", "https://pay.example.com/v1/refunds");
        assertThat(read().routing())
                .containsExactly("calls under https://pay.example.com/v1/refunds go to refunds,"
                        + " the rest of https://pay.example.com/v1 to payments");
    }

    @Test
    void theConfigurationFileHoldsTheKeysAndSystemPropertiesAndEnvironmentWinOverIt() throws Exception {
        Path file = dir.resolve("apiwarden.properties");
        Files.writeString(
                file,
                "# the orders service\n"
                        + "apiwarden.base-url=https://file.example.com/v1\n"
                        + "apiwarden.access-token-file=" + dir.resolve("none") + "\n"
                        + "apiwarden.backoff.initial-delay=700ms\n"
                        + "apiwarden.backoff.max-retries=7\n"
                        + "apiwarden.api.payments.base-url=https://pay.example.com/v1\n"
                        + "apiwarden.api.payments.access-token-file=" + dir.resolve("none") + "\n");
        Files.writeString(dir.resolve("none"), "file-access");
        props.put("apiwarden.config-file", file.toString());
        props.put("apiwarden.backoff.initial-delay", "200ms");
        env.put("APIWARDEN_BACKOFF_MAX_RETRIES", "3");

        AgentConfig config = read();

        assertThat(config.apis()).extracting(WardenConfig::name).containsExactly("default", "payments");
        assertThat(config.first().scope().baseUrl().getHost()).isEqualTo("file.example.com");
        assertThat(config.first().backoffInitialDelay()).isEqualTo(Duration.ofMillis(200));
        assertThat(config.first().backoffMaxRetries()).isEqualTo(3);
        assertThat(named(config, "payments").backoffMaxRetries()).isEqualTo(3);
        assertThat(config.warnings()).noneMatch(w -> w.contains("a secret"));
    }

    @Test
    void theLogLevelIsReadFromTheConfigurationFileAndASystemPropertyWinsOverIt() throws Exception {
        Path file = dir.resolve("apiwarden.properties");
        Files.writeString(file, "apiwarden.log.level=debug\n");
        props.put("apiwarden.config-file", file.toString());

        assertThat(AgentConfig.logLevel(props::get, env)).isEqualTo("debug");

        props.put("apiwarden.log.level", "warn");
        assertThat(AgentConfig.logLevel(props::get, env)).isEqualTo("warn");
    }

    @Test
    void aConfigurationFileMustBeARegularFileOfBoundedSize() throws Exception {
        props.put("apiwarden.config-file", dir.toString());
        assertThatThrownBy(this::read)
                .hasMessageContaining("apiwarden.config-file")
                .hasMessageContaining("a folder");

        Path big = dir.resolve("big.properties");
        Files.writeString(big, "#".repeat(PropertySource.MAX_FILE_BYTES + 1));
        props.put("apiwarden.config-file", big.toString());
        assertThatThrownBy(this::read).hasMessageContaining("more than a settings file can hold");
    }

    @Test
    void aSecretWrittenInAFileOthersMayReadIsWarnedAbout() throws Exception {
        Path file = dir.resolve("apiwarden.properties");
        Files.writeString(
                file,
                "apiwarden.base-url=https://api.example.com/v1\napiwarden.access-token=in-the-file-5e6f\n"
                        + "java.version=not-ours\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        env.put("APIWARDEN_CONFIG_FILE", file.toString());

        assertThatThrownBy(this::read).hasMessageContaining("holds java.version, which is no property of the agent");
        Files.writeString(
                file, "apiwarden.base-url=https://api.example.com/v1\napiwarden.access-token=in-the-file-5e6f\n");

        AgentConfig config = read();

        assertThat(config.first().accessToken()).contains("in-the-file-5e6f");
        assertThat(config.warnings())
                .anyMatch(w -> w.contains("holds apiwarden.access-token, a secret") && w.contains("every user"));
        assertThat(String.join(" ", config.warnings())).doesNotContain("in-the-file-5e6f");
    }
}

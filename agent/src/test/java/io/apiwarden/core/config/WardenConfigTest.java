package io.apiwarden.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WardenConfigTest {
    @TempDir
    Path dir;

    private final Map<String, String> props = new HashMap<>();
    private final Map<String, String> env = new HashMap<>();

    private WardenConfig read() throws ConfigException {
        return WardenConfig.from(props::get, env);
    }

    private void minimal() {
        props.put("apiwarden.base-url", "https://api.example.com/v1");
        props.put("apiwarden.auth-url", "https://auth.example.com/");
        props.put("apiwarden.refresh-token", "r-1");
    }

    @Test
    void defaultsFollowTheSpec() throws Exception {
        minimal();
        WardenConfig c = read();

        assertThat(c.tokenUrl()).contains(URI.create("https://auth.example.com/token"));
        assertThat(c.backoffInitialDelay()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.backoffMaxRetries()).isEqualTo(5);
        assertThat(c.backoffMaxDelay()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.authorizationMode()).isEqualTo(WardenConfig.AuthorizationMode.IF_ABSENT);
        assertThat(c.accessToken()).isEmpty();
    }

    @Test
    void eachClientIsSwitchedByItsNameUnderTheNamesUsersAlreadyHave() throws Exception {
        minimal();
        props.put("apiwarden.instrumentation.okhttp.enabled", "false");
        env.put("APIWARDEN_INSTRUMENTATION_REACTOR_NETTY_ENABLED", "FALSE");
        WardenConfig c = WardenConfig.from(props::get, env, List.of("jdk-http-client", "okhttp", "reactor-netty"));

        assertThat(c.clientEnabled("jdk-http-client"))
                .as("on unless switched off")
                .isTrue();
        assertThat(c.clientEnabled("okhttp")).isFalse();
        assertThat(c.clientEnabled("reactor-netty")).isFalse();
        assertThatThrownBy(() -> c.clientEnabled("apache-httpclient"))
                .as("a switch that was not read is not guessed")
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aClientSwitchThatIsNeitherTrueNorFalseIsNamed() {
        minimal();
        props.put("apiwarden.instrumentation.okhttp.enabled", "no");

        assertThatThrownBy(() -> WardenConfig.from(props::get, env, List.of("okhttp")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "apiwarden.instrumentation.okhttp.enabled (or APIWARDEN_INSTRUMENTATION_OKHTTP_ENABLED) is 'no'")
                .hasMessageContaining("true or false");
    }

    @Test
    void environmentVariablesWorkAndSystemPropertiesWin() throws Exception {
        env.put("APIWARDEN_BASE_URL", "https://env.example.com");
        env.put("APIWARDEN_ACCESS_TOKEN", "from-env");
        env.put("APIWARDEN_BACKOFF_INITIAL_DELAY", "500ms");
        props.put("apiwarden.backoff.initial-delay", "1m");

        WardenConfig c = read();

        assertThat(c.scope().baseUrl()).isEqualTo(URI.create("https://env.example.com"));
        assertThat(c.accessToken()).contains("from-env");
        assertThat(c.backoffInitialDelay()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void anExplicitTokenUrlWinsOverTheAuthUrl() throws Exception {
        minimal();
        props.put("apiwarden.token-url", "https://auth.example.com/oauth2/token");

        assertThat(read().tokenUrl()).contains(URI.create("https://auth.example.com/oauth2/token"));
    }

    @Test
    void aMissingBaseUrlIsNamedWithWhatToDo() {
        props.put("apiwarden.access-token", "a");

        assertThatThrownBy(this::read)
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("apiwarden.base-url (or APIWARDEN_BASE_URL) is required");
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        props.put("apiwarden.base-url", "ftp://api.example.com");
        props.put("apiwarden.backoff.initial-delay", "-2s");
        props.put("apiwarden.backoff.max-retries", "50");
        props.put("apiwarden.authorization", "sometimes");
        props.put("apiwarden.enabled", "yes");

        assertThatThrownBy(this::read).isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                .anySatisfy(p -> assertThat(p).contains("apiwarden.base-url", "http or https"))
                .anySatisfy(p -> assertThat(p).contains("apiwarden.backoff.initial-delay", "500ms, 2s, 1m or 1h"))
                .anySatisfy(p -> assertThat(p).contains("apiwarden.backoff.max-retries", "0 to 10"))
                .anySatisfy(p -> assertThat(p).contains("apiwarden.authorization", "if-absent or always"))
                .anySatisfy(p -> assertThat(p).contains("apiwarden.enabled", "true or false"))
                .anySatisfy(p -> assertThat(p).contains("no token is configured")));
    }

    @Test
    void theRecordedBodyBoundIsASizeOneMebibyteByDefaultAndABadOneSaysWhatToWrite() throws Exception {
        minimal();
        assertThat(read().maxRecordedBody()).isEqualTo(1024 * 1024);
        props.put("apiwarden.resend.max-recorded-body", "256 KiB");
        assertThat(read().maxRecordedBody()).isEqualTo(256 * 1024);
        props.put("apiwarden.resend.max-recorded-body", "0");
        assertThat(read().maxRecordedBody()).isZero();

        props.put("apiwarden.resend.max-recorded-body", "1MB");
        assertThatThrownBy(this::read).isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                .singleElement()
                .asString()
                .contains("apiwarden.resend.max-recorded-body", "'1MB' is not a size", "64KiB, 1MiB"));
        props.put("apiwarden.resend.max-recorded-body", "65MiB");
        assertThatThrownBy(this::read).isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                .singleElement()
                .asString()
                .contains("apiwarden.resend.max-recorded-body", "at most 64MiB"));
    }

    @Test
    void aTokenWithControlCharactersIsRejectedWithoutEchoingIt() {
        minimal();
        props.put("apiwarden.access-token", "abc\u0007secret-part");

        assertThatThrownBy(this::read)
                .hasMessageContaining("apiwarden.access-token contains spaces or control characters")
                .hasMessageNotContaining("secret-part");
    }

    @Test
    void tokensAreReadFromFilesWithoutTheTrailingNewline() throws Exception {
        Path file = dir.resolve("refresh");
        Files.writeString(file, "file-token\n");
        props.put("apiwarden.base-url", "https://api.example.com");
        props.put("apiwarden.auth-url", "https://auth.example.com");
        props.put("apiwarden.refresh-token-file", file.toString());

        WardenConfig c = read();

        assertThat(c.refreshToken()).contains("file-token");
        assertThat(c.refreshTokenFile()).contains(file);
    }

    @Test
    void aRefreshTokenFileOthersCanReadOrReplaceIsWarnedAboutByName() throws Exception {
        Path folder = Files.createDirectory(
                dir.resolve("secrets"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path file = Files.writeString(folder.resolve("refresh"), "file-token\n");
        props.put("apiwarden.base-url", "https://api.example.com");
        props.put("apiwarden.auth-url", "https://auth.example.com");
        props.put("apiwarden.refresh-token-file", file.toString());

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertThat(read().warnings()).isEmpty();

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(read().warnings())
                .singleElement()
                .asString()
                .contains("apiwarden.refresh-token-file", file.toString(), "every user");

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThat(read().warnings())
                .singleElement()
                .asString()
                .contains(file.toString(), "folder every user may write");

        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
        Files.setAttribute(file, "unix:uid", 12345);
        assertThat(read().warnings())
                .singleElement()
                .asString()
                .contains(file.toString(), "owned by", "not by the user this process runs as");
    }

    @Test
    void anUnreadableFileIsNamed() {
        minimal();
        props.remove("apiwarden.refresh-token");
        props.put("apiwarden.refresh-token-file", dir.resolve("missing").toString());

        assertThatThrownBy(this::read)
                .hasMessageContaining("cannot read apiwarden.refresh-token-file")
                .hasMessageContaining("missing");
    }

    @Test
    void aSecretMayNotComeFromBothItsPropertyAndItsFile() {
        minimal();
        props.put("apiwarden.refresh-token-file", "/x");

        assertThatThrownBy(this::read)
                .hasMessageContaining("both apiwarden.refresh-token and apiwarden.refresh-token-file are set");
    }

    @Test
    void aRefreshTokenNeedsATokenEndpoint() {
        props.put("apiwarden.base-url", "https://api.example.com");
        props.put("apiwarden.refresh-token", "r");

        assertThatThrownBy(this::read).hasMessageContaining("there is no token endpoint");
    }

    @Test
    void credentialsInTheUrlAreRefused() {
        minimal();
        props.put("apiwarden.base-url", "https://user:pw@api.example.com");

        assertThatThrownBy(this::read).hasMessageContaining("user information").hasMessageNotContaining("pw@");
    }

    @Test
    void waitsAreBoundedAndTheCapIsNoShorterThanTheFirstWait() {
        minimal();
        props.put("apiwarden.backoff.initial-delay", "10m");
        props.put("apiwarden.token.timeout", "48h");

        assertThatThrownBy(this::read).isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                .anySatisfy(p -> assertThat(p)
                        .contains("apiwarden.backoff.max-delay", "shorter than apiwarden.backoff.initial-delay"))
                .anySatisfy(p -> assertThat(p).contains("apiwarden.token.timeout", "at most 24h")));
    }

    @Test
    void anAuthUrlWithAQueryIsRefusedBecauseTheTokenPathWouldLandInIt() {
        minimal();
        props.put("apiwarden.auth-url", "https://auth.example.com/oauth?tenant=7");

        assertThatThrownBy(this::read)
                .hasMessageContaining("apiwarden.auth-url")
                .hasMessageContaining("apiwarden.token-url");
    }

    @Test
    void cleartextToAnotherHostIsWarnedAboutButLoopbackIsNot() throws Exception {
        minimal();
        props.put("apiwarden.base-url", "http://api.example.com/v1");
        props.put("apiwarden.auth-url", "http://127.0.0.1:8080");

        assertThat(read().warnings())
                .singleElement()
                .asString()
                .contains("apiwarden.base-url", "plain http", "api.example.com");
    }

    @Test
    void toStringNeverShowsSecrets() throws Exception {
        minimal();
        props.put("apiwarden.access-token", "access-secret");
        props.put("apiwarden.client-id", "svc");
        props.put("apiwarden.client-secret", "client-secret-value");

        assertThat(read().toString())
                .doesNotContain("access-secret", "r-1", "client-secret-value")
                .contains("svc", "<set>");
    }

    @Test
    void onlyEnabledFalseTurnsTheAgentOff() {
        assertThat(WardenConfig.isEnabled(k -> null, Map.of())).isTrue();
        assertThat(WardenConfig.isEnabled(k -> null, Map.of("APIWARDEN_ENABLED", "FALSE")))
                .isFalse();
        assertThat(WardenConfig.isEnabled(k -> k.equals("apiwarden.enabled") ? "false" : null, Map.of()))
                .isFalse();
    }

    @Test
    void durationsHaveUnits() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThatThrownBy(() -> Durations.parse("2")).hasMessageContaining("500ms, 2s, 1m or 1h");
        assertThat(Durations.format(Duration.ofSeconds(120))).isEqualTo("2m");
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
    }
}

package io.apiwarden.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.core.token.ClientAuthentication;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code apiwarden.grant}, {@code apiwarden.client-auth} and {@code apiwarden.scope}, and what each grant requires. */
class GrantConfigTest {
    private static final String SECRET = "cs-8f2a61d0c4";

    @TempDir
    Path dir;

    private final Map<String, String> props = new HashMap<>();

    private WardenConfig read() throws ConfigException {
        return WardenConfig.from(props::get, Map.of());
    }

    private void clientCredentials() {
        props.put("apiwarden.base-url", "https://api.example.com/v1");
        props.put("apiwarden.auth-url", "https://auth.example.com");
        props.put("apiwarden.grant", "client_credentials");
        props.put("apiwarden.client-id", "svc-orders");
        props.put("apiwarden.client-secret", SECRET);
    }

    @Test
    void theRefreshTokenGrantWithHttpBasicIsTheDefault() throws Exception {
        props.put("apiwarden.base-url", "https://api.example.com/v1");
        props.put("apiwarden.auth-url", "https://auth.example.com");
        props.put("apiwarden.refresh-token", "r-1");

        WardenConfig c = read();

        assertThat(c.grant().type()).isEqualTo("refresh_token");
        assertThat(c.grant().scope()).isNull();
        assertThat(c.clientAuthentication()).isEqualTo(ClientAuthentication.BASIC);
    }

    @Test
    void clientCredentialsNeedNoTokenAtAll() throws Exception {
        clientCredentials();

        WardenConfig c = read();

        assertThat(c.grant().type()).isEqualTo("client_credentials");
        assertThat(c.refreshToken()).isEmpty();
        assertThat(c.toString())
                .contains("grant=client_credentials", "client-secret=<set>", "client-auth=basic")
                .doesNotContain(SECRET);
    }

    @Test
    void theGrantMayBeWrittenWithAHyphenAndInAnyCase() throws Exception {
        clientCredentials();
        props.put("apiwarden.grant", "Client-Credentials");

        assertThat(read().grant().type()).isEqualTo("client_credentials");
    }

    @Test
    void theClientSecretMayComeFromAFile() throws Exception {
        clientCredentials();
        props.remove("apiwarden.client-secret");
        Path file = dir.resolve("secret");
        Files.writeString(file, SECRET + "\n");
        props.put("apiwarden.client-secret-file", file.toString());

        assertThat(read().clientSecret()).contains(SECRET);
    }

    @Test
    void clientCredentialsWithoutIdSecretOrEndpointNameEachMissingSetting() {
        props.put("apiwarden.base-url", "https://api.example.com/v1");
        props.put("apiwarden.grant", "client_credentials");

        assertThatThrownBy(this::read).isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                .anySatisfy(
                        p -> assertThat(p).contains("apiwarden.client-id", "required for the client_credentials grant"))
                .anySatisfy(p ->
                        assertThat(p).contains("apiwarden.client-secret", "required for the client_credentials grant"))
                .anySatisfy(p -> assertThat(p).contains("no token endpoint", "apiwarden.auth-url"))
                .noneSatisfy(p -> assertThat(p).contains("no token is configured")));
    }

    @Test
    void aRefreshTokenBesideClientCredentialsIsAMistakeNamedAsSuch() {
        clientCredentials();
        props.put("apiwarden.refresh-token", "r-never-used-1");

        assertThatThrownBy(this::read).isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                .singleElement()
                .asString()
                .contains("apiwarden.refresh-token", "uses no refresh token", "apiwarden.grant=refresh_token")
                .doesNotContain("r-never-used-1"));
    }

    @Test
    void anUnknownGrantOrClientAuthenticationIsRefusedWithTheChoices() {
        clientCredentials();
        props.put("apiwarden.grant", "password");
        props.put("apiwarden.client-auth", "jwt");

        assertThatThrownBy(this::read).isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                .anySatisfy(p -> assertThat(p).contains("apiwarden.grant", "refresh_token or client_credentials"))
                .anySatisfy(p -> assertThat(p).contains("apiwarden.client-auth", "basic", "post")));
    }

    @Test
    void postClientAuthenticationIsRead() throws Exception {
        clientCredentials();
        props.put("apiwarden.client-auth", "POST");

        assertThat(read().clientAuthentication()).isEqualTo(ClientAuthentication.POST);
    }

    @Test
    void aScopeIsNormalisedToSingleSpaces() throws Exception {
        clientCredentials();
        props.put("apiwarden.scope", " orders.read \t api://orders/.default ");

        assertThat(read().grant().scope()).isEqualTo("orders.read api://orders/.default");
    }

    @Test
    void aScopeWithAQuoteOrANonAsciiLetterIsRefused() {
        clientCredentials();
        props.put("apiwarden.scope", "read \"write\"");
        assertThatThrownBy(this::read).hasMessageContaining("apiwarden.scope");

        props.put("apiwarden.scope", "lecture-\u00e9crite");
        assertThatThrownBy(this::read).hasMessageContaining("apiwarden.scope");
    }
}

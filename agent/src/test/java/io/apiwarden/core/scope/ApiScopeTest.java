package io.apiwarden.core.scope;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class ApiScopeTest {
    private final ApiScope scope = ApiScope.of(URI.create("https://api.example.com/v1"));

    private boolean in(String url) {
        return scope.contains(URI.create(url));
    }

    @Test
    void pathsUnderTheBaseOnASegmentBoundaryAreInScope() {
        assertThat(in("https://api.example.com/v1")).isTrue();
        assertThat(in("https://api.example.com/v1/")).isTrue();
        assertThat(in("https://api.example.com/v1/user?x=1")).isTrue();
        assertThat(in("https://api.example.com/v1beta/user")).isFalse();
        assertThat(in("https://api.example.com/v2/user")).isFalse();
        assertThat(in("https://api.example.com/")).isFalse();
    }

    @Test
    void schemeHostAndPortMustMatchWithDefaultsAndCaseFolded() {
        assertThat(in("https://API.Example.com:443/v1/user")).isTrue();
        assertThat(in("http://api.example.com/v1/user")).isFalse();
        assertThat(in("https://api.example.com:8443/v1/user")).isFalse();
        assertThat(in("https://evil.example.com/v1/user")).isFalse();
        assertThat(in("https://api.example.com.evil.net/v1/user")).isFalse();
    }

    @Test
    void aRootBaseCoversTheWholeOrigin() {
        ApiScope root = ApiScope.of(URI.create("http://localhost:8080/"));

        assertThat(root.contains(URI.create("http://localhost:8080/anything"))).isTrue();
        assertThat(root.contains(URI.create("http://localhost:8081/anything"))).isFalse();
    }

    @Test
    void theTokenEndpointIsNeverInScopeEvenUnderTheBase() {
        ApiScope withToken = scope.excluding(URI.create("https://api.example.com/v1/oauth/token"));

        assertThat(withToken.contains(URI.create("https://api.example.com/v1/oauth/token")))
                .isFalse();
        assertThat(withToken.contains(URI.create("https://api.example.com/v1/oauth/token/")))
                .isFalse();
        assertThat(withToken.contains(URI.create("https://api.example.com/v1/user")))
                .isTrue();
    }

    @Test
    void ipv6HostsMatchBracketedOrBare() {
        ApiScope v6 = ApiScope.of(URI.create("http://[::1]:8080/v1"));

        assertThat(v6.contains(URI.create("http://[::1]:8080/v1/user"))).isTrue();
        assertThat(v6.contains("http", "::1", 8080, "/v1/user"))
                .as("as OkHttp gives it")
                .isTrue();
        assertThat(v6.contains("http", "::2", 8080, "/v1/user")).isFalse();
    }

    @Test
    void pathsThatAServerResolvesOutsideTheBaseAreOutOfScope() {
        assertThat(in("https://api.example.com/v1/../admin")).isFalse();
        assertThat(in("https://api.example.com/v1/./../../admin")).isFalse();
        assertThat(in("https://api.example.com/v1/user/../../admin")).isFalse();
        assertThat(in("https://api.example.com/v1/..;/admin"))
                .as("Tomcat reads ..;x as ..")
                .isFalse();
        assertThat(in("https://api.example.com/v1//../admin"))
                .as("nginx merges slashes first")
                .isFalse();
        assertThat(in("https://api.example.com/v1/..")).isFalse();
    }

    @Test
    void dotSegmentsThatStayUnderTheBaseKeepTheCallInScope() {
        assertThat(in("https://api.example.com/v1/./user")).isTrue();
        assertThat(in("https://api.example.com/v1/a/../user")).isTrue();
        assertThat(in("https://api.example.com/v1/.well-known/x")).isTrue();
        assertThat(in("https://api.example.com/v1/user.json")).isTrue();
    }

    @Test
    void encodedDotsSlashesAndBackslashesAreNeverInScope() {
        assertThat(in("https://api.example.com/v1/%2e%2e/admin")).isFalse();
        assertThat(in("https://api.example.com/v1/%2E%2E/admin")).isFalse();
        assertThat(in("https://api.example.com/v1/..%2Fadmin")).isFalse();
        assertThat(in("https://api.example.com/v1/..%5cadmin")).isFalse();
        assertThat(scope.contains("https", "api.example.com", 443, "/v1/..%2fadmin"))
                .as("as OkHttp gives it")
                .isFalse();
        assertThat(in("https://api.example.com/v1/caf%C3%A9"))
                .as("other escapes are fine")
                .isTrue();
    }

    @Test
    void theTokenEndpointReachedThroughDotSegmentsIsStillExcluded() {
        ApiScope withToken = scope.excluding(URI.create("https://api.example.com/v1/oauth/token"));

        assertThat(withToken.contains(URI.create("https://api.example.com/v1/user/../oauth/token")))
                .isFalse();
    }

    @Test
    void removingDotSegmentsFollowsRfc3986() {
        // The examples of RFC 3986 section 5.2.4 and 5.4.
        assertThat(RequestPath.removeDotSegments("/a/b/c/./../../g")).isEqualTo("/a/g");
        assertThat(RequestPath.removeDotSegments("/a/b/..")).isEqualTo("/a/");
        assertThat(RequestPath.removeDotSegments("/..")).isEqualTo("/");
        assertThat(RequestPath.removeDotSegments("/a/./b/")).isEqualTo("/a/b/");
        assertThat(RequestPath.removeDotSegments("/a//../b")).isEqualTo("/a/b");
    }
}

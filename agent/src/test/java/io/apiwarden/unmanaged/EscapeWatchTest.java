package io.apiwarden.unmanaged;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.scope.ApiScope;
import java.net.URI;
import java.net.URL;
import java.net.URLConnection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a watch tells the woven code, and the one warning it gives, for calls through HttpURLConnection. */
class EscapeWatchTest {
    private final ApiScope scope = ApiScope.of(URI.create("https://api.example.com/v1"));
    private final List<String> warnings = new ArrayList<>();
    /** The clients the agent manages, as the agent's client modules name them. */
    private static final String MANAGED = "OkHttp or Reactor Netty";

    private final EscapeWatch watch =
            new EscapeWatch(UnmanagedClient.HTTP_URL_CONNECTION, scope, MANAGED, warnings::add);

    @Test
    void withSeveralApisTheFirstCallToAnyOfThemWarnsNamingIt() throws Exception {
        EscapeWatch several = new EscapeWatch(
                UnmanagedClient.HTTP_URL_CONNECTION,
                List.of(
                        WatchedApi.named("payments", ApiScope.of(URI.create("https://pay.example.com/v1"))),
                        WatchedApi.named("crm", scope)),
                MANAGED,
                warnings::add);

        assertThat(several.test(connection("https://pay.example.com/v2/user"), null))
                .isFalse();
        assertThat(several.test(connection("https://api.example.com/v1/user"), null))
                .as("the second API's")
                .isTrue();

        assertThat(warnings)
                .singleElement()
                .asString()
                .startsWith("a call to https://api.example.com went out through HttpURLConnection")
                .contains("calls to the API crm through it get no bearer token");
    }

    @Test
    void callsElsewhereKeepTheWatchGoingAndWarnNobody() throws Exception {
        assertThat(watch.test(connection("https://other.example.com/v1/user"), null))
                .isFalse();
        assertThat(watch.test(connection("http://api.example.com/v1/user"), null))
                .as("another scheme")
                .isFalse();
        assertThat(watch.test(connection("https://api.example.com:8443/v1/user"), null))
                .as("another port")
                .isFalse();
        assertThat(watch.test(connection("https://api.example.com/v2/user"), null))
                .as("outside the base path")
                .isFalse();
        assertThat(warnings).isEmpty();
    }

    @Test
    void theFirstCallToTheApiEndsTheWatchWithOneWarning() throws Exception {
        assertThat(watch.test(connection("https://API.example.com:443/v1/user?secret=s3cr3t"), null))
                .isTrue();
        assertThat(watch.test(connection("https://api.example.com/v1/other"), null))
                .isTrue();
        assertThat(watch.test(connection("https://other.example.com/"), null))
                .as("over for good")
                .isTrue();

        assertThat(warnings)
                .singleElement()
                .asString()
                .startsWith(
                        "a call to https://api.example.com went out through HttpURLConnection, which the agent does not manage")
                .contains("no bearer token, no refresh, no back-off on rate limits and no spans")
                .doesNotContain("/v1/user", "s3cr3t");
    }

    @Test
    void anArgumentItCannotReadEndsTheWatchWithoutAWarning() {
        assertThat(watch.test("not a connection", null)).isTrue();
        assertThat(watch.test(null, null)).isTrue();
        assertThat(warnings).isEmpty();
    }

    @Test
    void apacheClientsAreReadThroughTheirPublicApiEvenWhenTheirClassesAreNot() throws Exception {
        List<String> seen = new ArrayList<>();
        EscapeWatch apache = new EscapeWatch(UnmanagedClient.APACHE_HTTPCLIENT_4, scope, MANAGED, seen::add);

        assertThat(apache.test(null, new Shapes.Request("/v1/user")))
                .as("no target, a bare path: cannot tell")
                .isFalse();
        assertThat(apache.test(new Shapes.Host("https", "other.example.com", -1), new Shapes.Request("/v1/user")))
                .isFalse();
        assertThat(apache.test(new Shapes.Host("https", "api.example.com", -1), new Shapes.Request("/v2/x")))
                .isFalse();
        assertThat(seen).isEmpty();
        assertThat(apache.test(new Shapes.Host("https", "api.example.com", 443), new Shapes.Request("/v1/user")))
                .isTrue();
        assertThat(seen).singleElement().asString().contains("through Apache HttpClient 4,");
    }

    @Test
    void anAsyncApacheCallIsJudgedByItsTargetAlone() {
        EscapeWatch apache5 = new EscapeWatch(UnmanagedClient.APACHE_HTTPCLIENT_5, scope, MANAGED, warnings::add);

        assertThat(apache5.test(new Shapes.Host("https", "other.example.com", 443), null))
                .isFalse();
        assertThat(apache5.test(new Shapes.Host("https", "api.example.com", 443), null))
                .isTrue();
        assertThat(warnings)
                .singleElement()
                .asString()
                .contains("through Apache HttpClient 5,")
                .as("the managed clients as the agent's modules name them")
                .contains("through a managed client: " + MANAGED + " (");
    }

    private static URLConnection connection(String url) throws Exception {
        // openConnection() makes the object without connecting.
        return new URL(url).openConnection();
    }
}

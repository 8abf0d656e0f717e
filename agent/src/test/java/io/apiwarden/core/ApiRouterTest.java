package io.apiwarden.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.config.AgentConfig;
import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.log.LogCapture;
import io.apiwarden.core.time.DelayScheduler;
import io.apiwarden.core.token.TokenRefreshException;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each request goes to the API whose base contains it, the longest base winning; others to none. */
class ApiRouterTest {
    private final Map<String, String> props = new HashMap<>();
    private final List<String> started = new ArrayList<>();

    private ApiRouter router() throws Exception {
        AgentConfig config = AgentConfig.from(props::get, props.keySet(), Map.of(), List.of());
        MutableClock clock = MutableClock.atEpochDay();
        DelayScheduler scheduler = FakeTimer.atOnce(clock);
        List<ApiRouter.Route> routes = new ArrayList<>();
        for (WardenConfig api : config.apis()) {
            routes.add(new ApiRouter.Route(
                    api.tokenUrl().map(api.scope()::excluding).orElse(api.scope()), () -> {
                        started.add(api.name());
                        return new Warden(api, null, scheduler, clock);
                    }));
        }
        return new ApiRouter(routes);
    }

    private void api(String name, String base, String tokenUrl) {
        props.put("apiwarden.api." + name + ".base-url", base);
        props.put("apiwarden.api." + name + ".access-token", name + "-access");
        if (tokenUrl != null) {
            props.put("apiwarden.api." + name + ".token-url", tokenUrl);
        }
    }

    private static String name(Warden w) {
        return w == null ? null : w.name();
    }

    @Test
    void theLongestBaseContainingTheRequestWins() throws Exception {
        api("v1", "https://api.example.com/v1", null);
        api("admin", "https://api.example.com/v1/admin", "https://api.example.com/v1/admin/token");
        api("crm", "https://crm.example.com", null);
        ApiRouter router = router();

        assertThat(name(router.forRequest(URI.create("https://api.example.com/v1/user"))))
                .isEqualTo("v1");
        assertThat(name(router.forRequest(URI.create("https://API.example.com./v1/admin/users"))))
                .isEqualTo("admin");
        assertThat(name(router.forRequest(URI.create("https://api.example.com/v1/administrators"))))
                .isEqualTo("v1");
        assertThat(name(router.forRequest(URI.create("https://crm.example.com/contacts"))))
                .isEqualTo("crm");
        assertThat(router.forRequest(URI.create("https://api.example.com/v2/user")))
                .isNull();
        assertThat(router.forRequest(URI.create("http://api.example.com/v1/user")))
                .isNull();
        assertThat(router.forRequest(URI.create("https://other.example.com/v1")))
                .isNull();
        assertThat(router.forRequest(URI.create("https://api.example.com/v1/admin/token")))
                .as("an API's token endpoint never falls to a shorter base's API")
                .isNull();
    }

    @Test
    void anApisWardenIsMadeOnTheFirstRequestToItAndOnlyOnce() throws Exception {
        api("payments", "https://pay.example.com/v1", null);
        api("crm", "https://crm.example.com/v1", null);
        ApiRouter router = router();

        router.forRequest(URI.create("https://elsewhere.example.com/"));
        assertThat(started).isEmpty();
        Warden first = router.forRequest(URI.create("https://pay.example.com/v1/a"));
        Warden again = router.forRequest("https", "pay.example.com", 443, "/v1/b");

        assertThat(again).isSameAs(first);
        assertThat(started).containsExactly("payments");
    }

    @Test
    void aHostHasAnApiWhenSomeApisBaseIsOnIt() throws Exception {
        api("payments", "https://pay.example.com/v1", null);
        api("crm", "https://crm.example.com/v1", null);
        ApiRouter router = router();

        assertThat(router.hasApiOn("pay.example.com")).isTrue();
        assertThat(router.hasApiOn("CRM.example.com.")).isTrue();
        assertThat(router.hasApiOn("other.example.com")).isFalse();
        assertThat(router.hasApiOn(null)).isFalse();
        assertThat(started).as("asking starts no API").isEmpty();
    }

    @Test
    void oneApiRoutesByItsScope() throws Exception {
        api("only", "https://api.example.com/v1", null);
        ApiRouter router = router();

        assertThat(name(router.forRequest(URI.create("https://api.example.com/v1/x"))))
                .isEqualTo("only");
        assertThat(router.forRequest(URI.create("https://api.example.com/v1/../admin")))
                .isNull();
        assertThat(router.forRequest((URI) null)).isNull();
        assertThat(router.hasApiOn("API.example.com")).isTrue();
        assertThat(router.hasApiOn("crm.example.com")).isFalse();
    }

    @Test
    void anApisScopeLeavesOutTheApisNestedInItSoThatEvenARedirectThereGoesWithoutItsToken() throws Exception {
        api("v1", "https://api.example.com/v1", "https://api.example.com/v1/oauth/token");
        api("admin", "https://api.example.com/v1/admin", "https://api.example.com/v1/admin/token");
        AgentConfig config = AgentConfig.from(props::get, props.keySet(), Map.of(), List.of());
        MutableClock clock = MutableClock.atEpochDay();
        Warden v1 = new Warden(config.apis().get(1), null, FakeTimer.atOnce(clock), clock);
        Warden admin = new Warden(config.apis().get(0), null, FakeTimer.atOnce(clock), clock);

        assertThat(admin.name()).isEqualTo("admin");
        assertThat(v1.scope().contains(URI.create("https://api.example.com/v1/users")))
                .isTrue();
        assertThat(v1.scope().contains(URI.create("https://api.example.com/v1/administrators")))
                .isTrue();
        assertThat(v1.scope().contains(URI.create("https://api.example.com/v1/admin/users")))
                .isFalse();
        assertThat(v1.scope().contains(URI.create("https://api.example.com/v1/admin")))
                .isFalse();
        assertThat(v1.scope().contains(URI.create("https://api.example.com/v1/x/../admin/users")))
                .isFalse();
        assertThat(v1.scope().contains(URI.create("https://api.example.com/v1/oauth/token")))
                .as("its own token endpoint stays out too")
                .isFalse();
        assertThat(admin.scope().contains(URI.create("https://api.example.com/v1/admin/users")))
                .isTrue();
        assertThat(admin.scope().contains(URI.create("https://api.example.com/v1/users")))
                .isFalse();
    }

    @Test
    void withSeveralApisAnApisLogLinesNameIt() throws Exception {
        api("payments", "https://pay.example.com/v1", "https://auth.pay.example.com/token");
        props.put("apiwarden.api.payments.refresh-token", "payments-refresh");
        api("crm", "https://crm.example.com/v1", null);
        AgentConfig config = AgentConfig.from(props::get, props.keySet(), Map.of(), List.of());
        MutableClock clock = MutableClock.atEpochDay();
        FakeTokenEndpoint failing =
                new FakeTokenEndpoint().failingWith(new TokenRefreshException("the token service timed out", false));
        Warden payments = new Warden(config.apis().get(1), failing, FakeTimer.atOnce(clock), clock);

        try (LogCapture log = LogCapture.at("warn")) {
            payments.tokens()
                    .tokenAfterRejection(payments.tokens().current())
                    .handle((token, failure) -> failure)
                    .join();

            assertThat(payments.name()).isEqualTo("payments");
            assertThat(log.text()).contains("WARN [api payments] token refresh failed: the token service timed out");
        }
    }
}

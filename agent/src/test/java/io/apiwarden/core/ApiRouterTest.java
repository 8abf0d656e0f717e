package io.apiwarden.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.config.AgentConfig;
import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.time.DelayScheduler;
import io.apiwarden.testing.FakeTimer;
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
}

package io.apiwarden.unmanaged;

import io.apiwarden.core.scope.ApiScope;
import java.net.URI;

/** One API the watches look out for: its scope, and its name when the warning says it (there are several). */
public final class WatchedApi {
    final ApiScope scope;
    /** Null when the agent manages one API: the warning then says "the API", as it always did. */
    private final String name;

    private WatchedApi(ApiScope scope, String name) {
        this.scope = scope;
        this.name = name;
    }

    /** The only API: warnings do not name it. */
    public static WatchedApi only(ApiScope scope) {
        return new WatchedApi(scope, null);
    }

    /** One of several APIs: warnings name it. */
    public static WatchedApi named(String name, ApiScope scope) {
        return new WatchedApi(scope, name);
    }

    /** Scheme, host and port only: never a path, or a user-info part a base URL might carry. */
    String origin() {
        URI base = scope.baseUrl();
        return base.getScheme() + "://" + base.getHost() + (base.getPort() == -1 ? "" : ":" + base.getPort());
    }

    /** "the API's host and port", or "the host and port of the API payments" when there are several. */
    String hostAndPort() {
        return name == null ? "the API's host and port" : "the host and port of " + theApi();
    }

    /** "the API", or "the API payments" when there are several. */
    String theApi() {
        return name == null ? "the API" : "the API " + name;
    }
}

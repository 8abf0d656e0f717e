package io.apiwarden.core.telemetry.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** One token refresh, from its start to its result: its duration is the event's. Never carries a token. */
@Name("apiwarden.TokenRefresh")
@Label("Token Refresh")
@Category("API Warden")
@Description("A token request of the agent (all its retries included), or a newer token adopted from the shared store")
@StackTrace(false)
final class TokenRefreshEvent extends Event {
    @Label("API")
    String api;

    @Label("Grant")
    @Description("refresh_token or client_credentials")
    String grant;

    @Label("Result")
    @Description("success, adopted, failed (may heal) or refused (permanent)")
    String result;

    @Label("Adopted From The Store")
    @Description("No token request was sent: another JVM's newer token was taken from the shared store")
    boolean adopted;

    @Label("Token Endpoint Host")
    String tokenHost;
}

package io.apiwarden.core.telemetry.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** The agent decided to send a managed call again, and why. */
@Name("apiwarden.Resend")
@Label("Resend")
@Category("API Warden")
@Description("A managed call is sent again: after a token refresh (invalid_token) or a wait (global_rate_limit)")
@StackTrace(false)
final class ResendEvent extends Event {
    @Label("API")
    String api;

    @Label("Method")
    String method;

    @Label("Host")
    String host;

    @Label("Reason")
    @Description("invalid_token, global_rate_limit or use_dpop_nonce")
    String reason;

    @Label("Attempt")
    @Description("The number of the resend: 1 for the first")
    int attempt;
}

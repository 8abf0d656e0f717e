package io.apiwarden.core.telemetry.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A managed call waited: backing off before a resend, or at the gate of the API's global rate limit. Committed
 * when the wait is known (a back-off when decided, a gate's wait when it ended), so its length is a field.
 */
@Name("apiwarden.Wait")
@Label("Wait")
@Category("API Warden")
@Description("A managed call waits before its next attempt: a back-off for the global rate limit, or at its gate")
@StackTrace(false)
final class WaitEvent extends Event {
    @Label("API")
    String api;

    @Label("Method")
    String method;

    @Label("Host")
    String host;

    @Label("Kind")
    @Description("backoff (decided now, waited next) or gate (waited just now)")
    String kind;

    @Label("Reason")
    @Description("backoff: backoff or retry-after (the server asked for longer); gate: first (it then went first) or"
            + " behind")
    String reason;

    @Label("Waited")
    @Timespan(Timespan.NANOSECONDS)
    long waited;
}

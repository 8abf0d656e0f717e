package io.apiwarden.core.telemetry.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** The gate of an API's global rate limit closed: managed calls are held back for the window. */
@Name("apiwarden.GateClosed")
@Label("Gate Closed")
@Category("API Warden")
@Description("The API's global rate limit holds managed calls back: an answer of this JVM's (a refusal, or no quota"
        + " left), or a window another JVM of the fleet announced")
@StackTrace(false)
final class GateClosedEvent extends Event {
    @Label("API")
    String api;

    @Label("Host")
    String host;

    @Label("Source")
    @Description("answer (an answer to this JVM's call) or fleet (another JVM, through the shared store)")
    String source;

    @Label("Window")
    @Timespan(Timespan.NANOSECONDS)
    long window;
}

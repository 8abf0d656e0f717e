package io.apiwarden.it.apps;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;

/**
 * An app that traces its own work with the OpenTelemetry API (run under the OpenTelemetry Java
 * agent) and makes a managed call inside its span. Prints its span's trace and span IDs.
 */
public final class TracedApp {
    private TracedApp() {}

    public static void main(String[] args) throws Exception {
        Span work = GlobalOpenTelemetry.getTracer("traced-app")
                .spanBuilder("app work")
                .startSpan();
        try (Scope ignored = work.makeCurrent()) {
            HttpClient client = HttpClient.newHttpClient();
            int status = client.send(HttpRequest.newBuilder(URI.create(args[0])).build(), BodyHandlers.ofString())
                    .statusCode();
            System.out.println("STATUS " + status);
        } finally {
            work.end();
        }
        System.out.println("APP " + work.getSpanContext().getTraceId() + " "
                + work.getSpanContext().getSpanId());
    }
}

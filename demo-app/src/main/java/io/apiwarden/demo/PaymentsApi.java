package io.apiwarden.demo;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The demo's second API, {@code payments}: a {@link SimulatedApi} of its own (its own token service and global
 * rate limit), configured beside the first as a named API ({@code apiwarden.api.payments.*}).
 */
final class PaymentsApi {
    private PaymentsApi() {}

    /** Calm: no faults, the default limit of 60 calls a minute; its tokens come from its own token service. */
    static SimulatedApi.Settings settings() {
        return SimulatedApi.Settings.builder().build();
    }

    /** The app's options for it: its own base, token service and refresh-token file. */
    static List<String> options(SimulatedApi payments, Path refreshTokenFile) {
        return List.of(
                "-D" + DemoProgram.PAYMENTS_BASE_URL_PROPERTY + "=" + payments.baseUrl(),
                "-Dapiwarden.api.payments.auth-url=" + payments.authUrl(),
                "-Dapiwarden.api.payments.refresh-token-file=" + refreshTokenFile);
    }

    /** What it saw, counted by its server. */
    static void printReport(SimulatedApi payments, PrintStream out) {
        ApiCounters c = payments.counters();
        out.println("payments API (its own token service and rate limit; called during the first API's burst)");
        out.println("  requests to the API      : " + c.apiRequests());
        out.println("  token requests           : " + c.tokenRequests() + " (to its own token service)");
        out.println("  429 rate limit exceeded  : " + c.rateLimited()
                + " (the first API's rate limit held none of its calls)");
    }
}

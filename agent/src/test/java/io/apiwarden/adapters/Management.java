package io.apiwarden.adapters;

import io.apiwarden.adapters.ClientFace.Running;
import io.apiwarden.core.Warden;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockWebServer;

/**
 * Who manages the clients of {@link ClientAdapterContract}'s cases, and so whose time their waits are
 * on: a warden of each case's own on the test's time ({@link LibraryManagement}), or the agent the
 * test's JVM was started with, on its own timer ({@code io.apiwarden.it.AgentManagement}). The cases
 * are written once against this: what they assert holds both ways ("nothing is sent before a wait
 * ends" as gaps between arrivals on {@link #nanoTime()}, and counts), never how long anything took.
 */
public interface Management extends AutoCloseable {

    /** The API's server for one case, answering with {@code api}; its token endpoint is at {@code /auth/token}. */
    MockWebServer apiServer(Dispatcher api) throws Exception;

    /** The time the server's arrivals are stamped with, in nanoseconds: where the agent's waits are. */
    long nanoTime();

    /**
     * The warden that manages the case's client in library mode, with {@code properties} (the suite's and the
     * case's own); null when the agent manages it, which weaves the plain client. A case needing
     * properties the agent was not started with is aborted, naming them.
     */
    Warden warden(String apiBaseUrl, Map<String, String> properties);

    /** How many times the token was refreshed, for all cases so far. */
    int refreshes();

    /** From now on the agent's waits stay pending until {@link #endHeldWaits()}, when the test holds its time. */
    void holdWaits();

    /** Waits until a wait began after {@code sent} requests to {@code path}; false when none did within {@code patience}. */
    boolean awaitWaitBegun(ScriptedApi api, String path, int sent, Duration patience) throws InterruptedException;

    /** Ends the waits held now, and lets every later wait end at once (on the test's time) or on its own. */
    void endHeldWaits();

    /**
     * Asserts that no thread is kept parked in the agent's code while {@code calls} (all of {@code face}) wait
     * out the rate limit, then lets the waits end.
     */
    void assertNoThreadHeldWhileWaiting(ClientFace face, List<Running> calls) throws Exception;

    /**
     * Asserts that the one wait under way was given up, once a wait of {@code asked} would have ended;
     * then lets any wait left end, so that a resend the cancel failed to stop would reach the server.
     */
    void assertWaitGivenUp(Duration asked) throws Exception;

    /** Frees what one case used. */
    @Override
    void close();
}

package io.apiwarden.it;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * A token service with strict rotation and an API, for MockWebServer. Every refresh issues a new
 * refresh token and revokes the one it was asked with ({@code invalid_grant} from then on), and
 * notes when its response left. Access tokens live {@link #EXPIRES_IN_SECONDS}, so an app that calls
 * without pause rotates about once a second.
 *
 * <p>The API checks on every call what the agent promises: an access token is only ever used once its
 * refresh token is in the file. A call made with the access token of refresh number k while the file
 * holds an older refresh token is noted as a violation.
 */
final class RotatingTokenService extends Dispatcher {
    /** The shortest life {@code expires_in} can say; the agent refreshes ahead after four fifths of it. */
    static final int EXPIRES_IN_SECONDS = 1;

    /** A refresh token the service issued, with the access token of the same response. */
    static final class Issued {
        final int number;
        final String refreshToken;
        /** Null for a refresh token handed out by a new sign-in rather than by a refresh. */
        final String accessToken;
        /** {@link System#nanoTime()} when the response carrying it was handed to the server to send. */
        final long sentNanos;
        /** Which app run asked for it, and which of that run's refreshes it was (1 for the first). */
        final int run;

        final int ofRun;

        Issued(int number, String refreshToken, String accessToken, long sentNanos, int run, int ofRun) {
            this.number = number;
            this.refreshToken = refreshToken;
            this.accessToken = accessToken;
            this.sentNanos = sentNanos;
            this.run = run;
            this.ofRun = ofRun;
        }

        boolean byRefresh() {
            return accessToken != null;
        }
    }

    private final SecureRandom random = new SecureRandom();
    private final Path refreshTokenFile;
    private final long latencyMillis;
    private final List<Issued> issued = new ArrayList<>();
    private final Map<String, Issued> byRefreshToken = new HashMap<>();
    private final Map<String, Issued> byAccessToken = new HashMap<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final List<String> refusals = new CopyOnWriteArrayList<>();
    private int run;
    private int refreshesThisRun;
    private int lateRequests;

    /** @param latencyMillis how long the service takes to answer a token request, as a remote one would */
    RotatingTokenService(Path refreshTokenFile, long latencyMillis) {
        this.refreshTokenFile = refreshTokenFile;
        this.latencyMillis = latencyMillis;
    }

    /** A user signs in again: the current refresh token is revoked and a new one issued, returned here. */
    synchronized String signIn() {
        return issue(false).refreshToken;
    }

    /**
     * Starts app run {@code run}, whose calls go to {@link #apiPath} and {@link #authPath} of that run.
     * Only the latest run is served: a request of a killed run that reaches the service late (it was on
     * the wire at the kill) rotates nothing, just as if the kill had come before it was sent.
     */
    synchronized void startRun(int run) {
        this.run = run;
        this.refreshesThisRun = 0;
    }

    /** Serves no run: called once the app was killed, before its file is looked at. */
    synchronized void endRun() {
        this.run = 0;
    }

    static String apiPath(int run) {
        return "/run" + run + "/api/v1";
    }

    static String authPath(int run) {
        return "/run" + run + "/auth";
    }

    /** The one refresh token the service accepts now. */
    synchronized Issued current() {
        return issued.get(issued.size() - 1);
    }

    /** The record of {@code refreshToken}, or null when the service never issued it. */
    synchronized Issued issuedAs(String refreshToken) {
        return byRefreshToken.get(refreshToken);
    }

    synchronized List<Issued> issued() {
        return List.copyOf(issued);
    }

    /** Waits until the current run has made {@code refreshes} refreshes; false if it did not in time. */
    synchronized boolean awaitRefreshes(int refreshes, long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (refreshesThisRun < refreshes) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** API calls made with an access token whose refresh token was not yet in the file. */
    List<String> violations() {
        return List.copyOf(violations);
    }

    /** Token requests refused, with why; none is expected while the file keeps up. */
    List<String> refusals() {
        return List.copyOf(refusals);
    }

    /** Token requests of killed runs that arrived after the kill and were not served. */
    synchronized int lateRequests() {
        return lateRequests;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String path = request.getUrl().encodedPath();
        int ofRun = runOf(path);
        if (path.equals(authPath(ofRun) + "/token")) {
            if (latencyMillis > 0) {
                try {
                    Thread.sleep(latencyMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return refresh(
                    ofRun,
                    formValue(request.getBody() == null ? "" : request.getBody().utf8(), "refresh_token"));
        }
        if (path.startsWith(apiPath(ofRun))) {
            return api(request.getHeaders().get("Authorization"));
        }
        return new MockResponse.Builder().code(404).build();
    }

    private synchronized MockResponse refresh(int ofRun, String refreshToken) {
        if (ofRun != run) {
            lateRequests++;
            return json(503, "{\"error\":\"temporarily_unavailable\"}");
        }
        Issued asked = refreshToken == null ? null : byRefreshToken.get(refreshToken);
        if (asked == null || asked != current()) {
            refusals.add("run " + run + ": refresh token #" + (asked == null ? "unknown" : asked.number)
                    + " refused, the current one is #" + current().number);
            return json(400, "{\"error\":\"invalid_grant\",\"error_description\":\"refresh token revoked\"}");
        }
        Issued next = issue(true);
        notifyAll();
        return json(
                200,
                "{\"access_token\":\"" + next.accessToken + "\",\"token_type\":\"Bearer\",\"expires_in\":"
                        + EXPIRES_IN_SECONDS + ",\"refresh_token\":\"" + next.refreshToken + "\"}");
    }

    private Issued issue(boolean byRefresh) {
        int number = issued.size();
        String refreshToken = "rt" + number + "-" + randomText();
        String accessToken = byRefresh ? "at" + number + "-" + randomText() : null;
        if (byRefresh) {
            refreshesThisRun++;
        }
        // Taken last: the response goes out right after this method returns.
        Issued i =
                new Issued(number, refreshToken, accessToken, System.nanoTime(), run, byRefresh ? refreshesThisRun : 0);
        issued.add(i);
        byRefreshToken.put(refreshToken, i);
        if (accessToken != null) {
            byAccessToken.put(accessToken, i);
        }
        return i;
    }

    private MockResponse api(String authorization) {
        Issued used;
        synchronized (this) {
            used = authorization == null || !authorization.startsWith("Bearer ")
                    ? null
                    : byAccessToken.get(authorization.substring("Bearer ".length()));
        }
        if (used == null) {
            return new MockResponse.Builder()
                    .code(401)
                    .addHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"")
                    .body("{\"message\":\"OAuth invalid token\"}")
                    .build();
        }
        String inFile = readFile();
        Issued kept = inFile == null ? null : issuedAs(inFile);
        if (kept == null || kept.number < used.number) {
            violations.add("the access token of refresh #" + used.number + " was used while the file held "
                    + (kept == null ? "no token the service issued" : "refresh token #" + kept.number));
        }
        return new MockResponse.Builder().code(200).body("user").build();
    }

    private String readFile() {
        try {
            return Files.readString(refreshTokenFile).trim();
        } catch (IOException e) {
            return null;
        }
    }

    private String randomText() {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            s.append(Long.toHexString(random.nextLong() | Long.MIN_VALUE));
        }
        return s.toString();
    }

    private static int runOf(String path) {
        int end = path.indexOf('/', 1);
        try {
            return path.startsWith("/run") && end > 4 ? Integer.parseInt(path.substring(4, end)) : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String formValue(String form, String name) {
        for (String pair : form.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) {
                return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder()
                .code(code)
                .addHeader("Content-Type", "application/json")
                .body(body)
                .build();
    }
}

package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.RecordedBody;
import io.apiwarden.core.log.AgentLog;
import java.io.IOException;
import java.util.function.BiConsumer;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/** The request one attempt sends, for both faces: the app's, with the attempt's headers and, for a one-shot body, its recording. */
final class AttemptRequest {
    static final String AUTHORIZATION = "Authorization";

    private AttemptRequest() {}

    /**
     * {@code app} with {@code headers} set, all but the agent's {@code Authorization} when
     * {@code keepAppsAuthorization} (the app set its own after the driver prepared the attempt).
     */
    static Request of(Request app, AttemptHeaders headers, boolean keepAppsAuthorization, CallDriver<Response> driver) {
        Request.Builder sent = app.newBuilder();
        RequestBody body = body(app, driver);
        if (body != null) {
            sent.method(app.method(), body);
        }
        headers.forEach(new HeaderSetter(sent, keepAppsAuthorization));
        if (!keepAppsAuthorization && headers.get(AUTHORIZATION) != null) {
            // Marks the agent's token, so the network interceptor takes it off a hop outside the API.
            sent.tag(TokenFence.AgentToken.class, new TokenFence.AgentToken(driver.warden()));
        }
        return sent.build();
    }

    /** Sets each header on the request: a class, not a lambda, which would cost a class spun on the first call. */
    private static final class HeaderSetter implements BiConsumer<String, String> {
        private final Request.Builder sent;
        private final boolean keepAppsAuthorization;

        HeaderSetter(Request.Builder sent, boolean keepAppsAuthorization) {
            this.sent = sent;
            this.keepAppsAuthorization = keepAppsAuthorization;
        }

        @Override
        public void accept(String name, String value) {
            if (!keepAppsAuthorization || !AUTHORIZATION.equalsIgnoreCase(name)) {
                sent.header(name, value);
            }
        }
    }

    /** Whether {@code sent} carries the agent's token. */
    static boolean carriesAgentsToken(Request sent) {
        return sent.tag(TokenFence.AgentToken.class) != null;
    }

    /**
     * One-shot and duplex bodies (and any body on an OkHttp too old to say) cannot be sent twice
     * as they are; a one-shot one may have been recorded ({@link #body}).
     */
    static boolean isRepeatable(RequestBody body) {
        if (body == null) {
            return true;
        }
        try {
            return !body.isOneShot() && !body.isDuplex();
        } catch (LinkageError olderOkHttp) {
            return false;
        }
    }

    /**
     * The body of this attempt when it is not the app's own: a one-shot body recorded as it is
     * sent, or sent again from its recording (the driver, and its recording, span the call's
     * attempts). Null for a body OkHttp can send again, which is never copied.
     */
    private static RequestBody body(Request request, CallDriver<Response> driver) {
        RequestBody app = request.body();
        try {
            if (app == null || !app.isOneShot() || app.isDuplex()) {
                // A duplex body is written while the response is read: never the agent's to resend.
                return null;
            }
            RecordedBody recording = driver.recordBody(app.contentLength());
            if (recording == null) {
                return null;
            }
            return recording.isComplete()
                    ? RecordingBodies.replay(app, recording)
                    : RecordingBodies.recording(app, recording);
        } catch (IOException | RuntimeException | LinkageError e) {
            // An OkHttp before 3.14 has no one-shot bodies to record; anything else: sent as without the agent.
            if (!(e instanceof LinkageError)) {
                AgentLog.once(
                        AgentLog.Level.WARN, "body-recording", "a request body could not be recorded for a resend", e);
            }
            return null;
        }
    }
}

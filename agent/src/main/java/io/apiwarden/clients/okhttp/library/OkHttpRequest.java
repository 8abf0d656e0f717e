package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.engine.Exchange;
import java.util.List;
import java.util.function.Function;
import okhttp3.Request;
import okhttp3.Response;

/** The request part both OkHttp faces share ({@link OkHttpExchange}, {@link EnqueuedCall}): the app's request, as the driver asks about it. */
abstract class OkHttpRequest implements Exchange<Response> {
    /** The app's request, as the agent's interceptor (execute) or the app's call (enqueue) holds it. */
    final Request request;

    OkHttpRequest(Request request) {
        this.request = request;
    }

    @Override
    public boolean hasHeader(String name) {
        return request.header(name) != null;
    }

    @Override
    public boolean bodyRepeatable() {
        return AttemptRequest.isRepeatable(request.body());
    }

    @Override
    public boolean expectContinue() {
        return false;
    }

    @Override
    public Exception timedOut() {
        // Each attempt carries what is left of the app's call timeout: OkHttp fails it as without the agent.
        return null;
    }

    @Override
    public int status(Response response) {
        return response.code();
    }

    @Override
    public Function<String, List<String>> headers(Response response) {
        return new ResponseHeaders(response);
    }
}

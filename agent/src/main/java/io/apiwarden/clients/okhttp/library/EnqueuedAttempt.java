package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.Judge;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * One attempt of an {@link EnqueuedCall}: a copy of the app's call, enqueued with this as its
 * callback, and the attempt's future, which the callback completes. The agent's interceptor, on
 * the copy's dispatcher thread, sends it once ({@link #send}); cancelling the future cancels the copy.
 */
final class EnqueuedAttempt extends CompletableFuture<Attempt.Async<Response>> implements Callback {
    private final Warden warden;
    private final EnqueuedCall call;
    private final Call copy;
    private final AttemptHeaders headers;
    private final Judge judge;
    /** The response as the agent's interceptor got and judged it; null until then. */
    private volatile OkHttpAttempt judged;

    EnqueuedAttempt(Warden warden, EnqueuedCall call, Call copy, AttemptHeaders headers, Judge judge) {
        this.warden = warden;
        this.call = call;
        this.copy = copy;
        this.headers = headers;
        this.judge = judge;
    }

    /**
     * In the agent's interceptor: sends the attempt down the rest of the chain, once, and judges
     * its response, which goes back up the chain to the app's interceptors and then to {@link #onResponse}.
     */
    Response send(Interceptor.Chain chain) throws IOException {
        Request arriving = chain.request();
        boolean appsAuthorization = call.appSetAuthorization(arriving, headers);
        Request sent = AttemptRequest.of(arriving, headers, appsAuthorization, call.driver);
        Response response = chain.proceed(sent);
        try {
            judged = new OkHttpAttempt(
                    warden, arriving, response, AttemptRequest.carriesAgentsToken(sent), appsAuthorization, judge);
        } catch (RuntimeException | Error e) {
            response.close();
            throw e;
        }
        return response;
    }

    @Override
    public void onResponse(Call c, Response response) {
        call.attemptEnded(copy);
        OkHttpAttempt attempt = judged;
        if (attempt == null) {
            attempt = new OkHttpAttempt(warden, response);
        } else {
            attempt.reachedTheCallback(response);
        }
        if (!complete(attempt)) {
            // Cancelled meanwhile: nobody takes it.
            response.close();
        }
    }

    @Override
    public void onFailure(Call c, IOException e) {
        call.attemptEnded(copy);
        completeExceptionally(e);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        copy.cancel();
        return super.cancel(mayInterruptIfRunning);
    }
}

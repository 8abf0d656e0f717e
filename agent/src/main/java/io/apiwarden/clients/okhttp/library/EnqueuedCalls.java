package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;

/**
 * The enqueued calls the agent runs on the engine's asynchronous face ({@link EnqueuedCall}), and
 * the copies their attempts are sent as, so that the interceptor sends a copy once and never
 * manages it as a call of its own.
 */
final class EnqueuedCalls {
    /** OkHttp's {@code RealCall.client} (3.x, 4.x and 5.x): the client whose dispatcher calls the app back. */
    private static final ClassValue<Field> CLIENT = new ClassValue<>() {
        @Override
        protected Field computeValue(Class<?> type) {
            try {
                Field f = type.getDeclaredField("client");
                if (f.getType() != OkHttpClient.class) {
                    return null;
                }
                f.setAccessible(true);
                return f;
            } catch (NoSuchFieldException | RuntimeException e) {
                return null;
            }
        }
    };

    private final Wardens wardens;
    /** The app's calls the agent took, to their run: {@code cancel()} finds it here. */
    private final Map<Call, EnqueuedCall> calls = new ConcurrentHashMap<>();
    /** The copies in flight, to their attempt. */
    private final Map<Call, EnqueuedAttempt> attempts = new ConcurrentHashMap<>();

    EnqueuedCalls(Wardens wardens) {
        this.wardens = wardens;
    }

    /**
     * Takes {@code call}, about to be enqueued with {@code callback}, onto the engine's asynchronous
     * face when it goes to the API on a client the agent manages with {@code interceptor}.
     *
     * @return false when OkHttp is to enqueue it as ever: outside the API, on a client without the
     *     agent, a copy of the agent's, a call already executed (OkHttp refuses it) or one OkHttp
     *     does not let the agent see the client of
     */
    boolean take(Call call, Callback callback, Interceptor interceptor) {
        if (callback == null
                || callback instanceof EnqueuedAttempt
                || attempts.containsKey(call)
                || calls.containsKey(call)
                || call.isExecuted()) {
            return false;
        }
        Warden warden = WardenInterceptor.route(wardens, call.request().url());
        if (warden == null) {
            return false;
        }
        OkHttpClient client = clientOf(call);
        if (client == null || !client.interceptors().contains(interceptor)) {
            return false;
        }
        EnqueuedCall enqueued = new EnqueuedCall(
                warden, this, call, callback, client.dispatcher().executorService());
        calls.put(call, enqueued);
        try {
            enqueued.start();
        } catch (RuntimeException e) {
            // Nothing went out: OkHttp enqueues it as ever, and the interceptor manages it.
            calls.remove(call);
            throw e;
        }
        return true;
    }

    /** The app cancelled {@code call}. */
    void cancelled(Call call) {
        EnqueuedCall enqueued = calls.get(call);
        if (enqueued != null) {
            enqueued.cancel();
        }
    }

    /** The attempt {@code call} is a copy for, or null when it is a call of the app's. */
    EnqueuedAttempt attemptOf(Call call) {
        return attempts.get(call);
    }

    void sending(Call copy, EnqueuedAttempt attempt) {
        attempts.put(copy, attempt);
    }

    void sent(Call copy) {
        attempts.remove(copy);
    }

    void ended(Call call) {
        calls.remove(call);
    }

    private static OkHttpClient clientOf(Call call) {
        Field f = CLIENT.get(call.getClass());
        try {
            return f == null ? null : (OkHttpClient) f.get(call);
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }
}

package io.apiwarden.clients.vertx.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.time.DelayScheduler;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.RequestOptions;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The Vert.x line of the copy of Vert.x core this glue is defined beside, told by its {@code HttpClientRequest}:
 * 4.5 has the callback overload {@code end(Handler)}, 5 dropped it and added {@code cancel()}. Each line has its
 * own managed request ({@link ManagedClientRequest4}; {@code ManagedClientRequest5}, compiled against Vert.x 5 after
 * this class, so made through a constructor looked up by name once); the rest of the glue is shared.
 */
interface VertxLine {
    /** The managed request of this line for {@code first}, the client's own request. */
    ManagedClientRequest manage(
            Warden warden,
            HttpClient client,
            RequestOptions options,
            HttpClientRequest first,
            Context context,
            DelayScheduler timer);

    /** The line of this copy of Vert.x, or null for one neither 4.5 nor 5 (its calls are not managed). */
    static VertxLine ofThisVertx() {
        if (isFourDotFive()) {
            return ManagedClientRequest4::new;
        }
        return has("cancel") ? five() : null;
    }

    /** Whether this copy of Vert.x is 4.5 (its {@code HttpClientRequest} has the callback {@code end(Handler)}). */
    static boolean isFourDotFive() {
        return has("end", Handler.class);
    }

    private static VertxLine five() {
        MethodType made = MethodType.methodType(
                void.class,
                Warden.class,
                HttpClient.class,
                RequestOptions.class,
                HttpClientRequest.class,
                Context.class,
                DelayScheduler.class);
        MethodHandle constructor;
        try {
            Class<?> type = Class.forName(
                    VertxLine.class.getPackageName() + ".ManagedClientRequest5",
                    true,
                    VertxLine.class.getClassLoader());
            constructor = MethodHandles.lookup().findConstructor(type, made);
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
        return (warden, client, options, first, context, timer) -> {
            try {
                return (ManagedClientRequest) constructor.invoke(warden, client, options, first, context, timer);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("making a managed Vert.x 5 request failed", t);
            }
        };
    }

    private static boolean has(String name, Class<?>... parameters) {
        try {
            HttpClientRequest.class.getMethod(name, parameters);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}

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
 * own managed request ({@link ManagedClientRequest4}; {@code ManagedClientRequest5}) and its own library-mode
 * client ({@link ManagedHttpClient}; {@code ManagedHttpClient5}); the 5 ones are compiled against Vert.x 5 after
 * this class, so they are made through constructors looked up by name once. The rest of the glue is shared.
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

    /** Library mode's client of this line: {@code client}, its requests handed to {@code glue}. */
    HttpClient libraryClient(HttpClient client, VertxHttpGlue glue);

    /** The line of this copy of Vert.x, or null for one neither 4.5 nor 5 (its calls are not managed). */
    static VertxLine ofThisVertx() {
        if (has("end", Handler.class)) {
            return new VertxLine() {
                @Override
                public ManagedClientRequest manage(
                        Warden warden,
                        HttpClient client,
                        RequestOptions options,
                        HttpClientRequest first,
                        Context context,
                        DelayScheduler timer) {
                    return new ManagedClientRequest4(warden, client, options, first, context, timer);
                }

                @Override
                public HttpClient libraryClient(HttpClient client, VertxHttpGlue glue) {
                    return new ManagedHttpClient(client, glue);
                }
            };
        }
        return has("cancel") ? five() : null;
    }

    private static VertxLine five() {
        MethodHandle request = fiveConstructor(
                "ManagedClientRequest5",
                Warden.class,
                HttpClient.class,
                RequestOptions.class,
                HttpClientRequest.class,
                Context.class,
                DelayScheduler.class);
        MethodHandle libraryClient = fiveConstructor("ManagedHttpClient5", HttpClient.class, VertxHttpGlue.class);
        if (request == null || libraryClient == null) {
            return null;
        }
        return new VertxLine() {
            @Override
            public ManagedClientRequest manage(
                    Warden warden,
                    HttpClient client,
                    RequestOptions options,
                    HttpClientRequest first,
                    Context context,
                    DelayScheduler timer) {
                try {
                    return (ManagedClientRequest) request.invoke(warden, client, options, first, context, timer);
                } catch (Throwable t) {
                    throw unchecked(t);
                }
            }

            @Override
            public HttpClient libraryClient(HttpClient client, VertxHttpGlue glue) {
                try {
                    return (HttpClient) libraryClient.invoke(client, glue);
                } catch (Throwable t) {
                    throw unchecked(t);
                }
            }
        };
    }

    /** The constructor of the class {@code simpleName} of this package (compiled against Vert.x 5), or null. */
    private static MethodHandle fiveConstructor(String simpleName, Class<?>... parameters) {
        try {
            Class<?> type = Class.forName(
                    VertxLine.class.getPackageName() + "." + simpleName, true, VertxLine.class.getClassLoader());
            return MethodHandles.lookup().findConstructor(type, MethodType.methodType(void.class, parameters));
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
    }

    /** What a constructor threw, as it was when unchecked; a checked one (they declare none) wrapped. */
    private static RuntimeException unchecked(Throwable thrown) {
        if (thrown instanceof RuntimeException) {
            return (RuntimeException) thrown;
        }
        if (thrown instanceof Error) {
            throw (Error) thrown;
        }
        return new IllegalStateException("making a Vert.x 5 object of the agent failed", thrown);
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

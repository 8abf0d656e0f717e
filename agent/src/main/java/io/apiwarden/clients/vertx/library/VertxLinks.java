package io.apiwarden.clients.vertx.library;

import io.vertx.core.Future;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.StreamResetException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The engine side's calls into Vert.x that a call compiled against one line would not link on the other, made
 * version-neutral: {@code HttpClientRequest.reset(long, Throwable)} returns {@code boolean} on 4.5 and
 * {@code Future<Void>} on 5 (looked up once per copy of Vert.x: this class is defined beside each), and the
 * client's redirect chooser, {@code redirectHandler()}, is on {@code HttpClient} in 4.5 and on the internal
 * {@code HttpClientInternal} in 5 (looked up once per client class, on a public type that declares it).
 */
final class VertxLinks {
    private static final MethodHandle RESET = resetHandle();

    private static final ClassValue<MethodHandle> REDIRECT_CHOOSER = new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> client) {
            return chooserHandle(client);
        }
    };

    private VertxLinks() {}

    /** Resets {@code request} as its {@code reset()} does, whatever it returns. */
    static void reset(HttpClientRequest request) {
        reset(request, 0, new StreamResetException(0));
    }

    /** Resets {@code request} with {@code code} and {@code cause}, whatever {@code reset} returns. */
    static void reset(HttpClientRequest request, long code, Throwable cause) {
        try {
            RESET.invokeExact(request, code, cause);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            // reset declares no checked exception: one thrown anyway is Vert.x failing to reset.
            throw new IllegalStateException("resetting a Vert.x request failed", t);
        }
    }

    /** The redirect chooser of {@code client} (its default, or the app's), or null when its class has none. */
    @SuppressWarnings("unchecked")
    static Function<HttpClientResponse, Future<RequestOptions>> redirectChooser(HttpClient client) {
        MethodHandle chooser = REDIRECT_CHOOSER.get(client.getClass());
        if (chooser == null) {
            return null;
        }
        try {
            return (Function<HttpClientResponse, Future<RequestOptions>>) chooser.invokeExact(client);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("asking a Vert.x client for its redirect chooser failed", t);
        }
    }

    private static MethodHandle resetHandle() {
        try {
            return MethodHandles.publicLookup()
                    .unreflect(HttpClientRequest.class.getMethod("reset", long.class, Throwable.class))
                    .asType(MethodType.methodType(void.class, HttpClientRequest.class, long.class, Throwable.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this Vert.x's HttpClientRequest has no reset(long, Throwable)", e);
        }
    }

    /**
     * {@code redirectHandler()} as {@code (HttpClient) -> Function}, from the first public type of {@code client} with
     * it that this code may call: on the module path a public class of a package Vert.x does not export refuses the
     * lookup, and the interface that declares it may not.
     */
    private static MethodHandle chooserHandle(Class<?> client) {
        List<Method> candidates = new ArrayList<>();
        publicRedirectHandlers(client, candidates);
        for (Method method : candidates) {
            try {
                return MethodHandles.publicLookup()
                        .unreflect(method)
                        .asType(MethodType.methodType(Function.class, HttpClient.class));
            } catch (IllegalAccessException e) {
                // the next one
            }
        }
        return null;
    }

    /** Adds the public {@code redirectHandler()} methods of {@code type}'s public types, the class's first. */
    private static void publicRedirectHandlers(Class<?> type, List<Method> found) {
        if (type == null) {
            return;
        }
        if (Modifier.isPublic(type.getModifiers())) {
            for (Method m : type.getDeclaredMethods()) {
                if (m.getName().equals("redirectHandler")
                        && m.getParameterCount() == 0
                        && Modifier.isPublic(m.getModifiers())
                        && Function.class.isAssignableFrom(m.getReturnType())
                        && !found.contains(m)) {
                    found.add(m);
                }
            }
        }
        publicRedirectHandlers(type.getSuperclass(), found);
        for (Class<?> i : type.getInterfaces()) {
            publicRedirectHandlers(i, found);
        }
    }
}

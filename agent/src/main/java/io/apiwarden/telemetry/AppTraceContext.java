package io.apiwarden.telemetry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import java.lang.reflect.Method;

/**
 * The app's trace context: the OpenTelemetry API the app uses itself, or, when the app has none
 * but the OpenTelemetry Java agent runs, that agent's copy in the bootstrap class loader. The
 * agent's own OpenTelemetry is relocated and keeps a context of its own, so it reaches the app's
 * by reflection, through the API's public types.
 *
 * <p>Reading it makes the agent's spans children of the app's current span; writing it (for the
 * time an attempt is on the wire) makes another agent's client span a child of the attempt's.
 */
final class AppTraceContext {
    /** Does nothing: for apps without any OpenTelemetry. */
    static final AutoCloseable NO_SCOPE = new NoScope();

    private static volatile Api api;

    private AppTraceContext() {}

    /** A context whose parent is the app's current span, or the root context when there is none. */
    static Context parent() {
        SpanContext app = parentSpan();
        return app.isValid() ? Context.root().with(Span.wrap(app)) : Context.root();
    }

    /** The app's current span, as a remote parent; an invalid span context when it has none. */
    static SpanContext parentSpan() {
        Api a = api();
        if (a == null) {
            return SpanContext.getInvalid();
        }
        try {
            Object ctx = a.getSpanContext.invoke(a.current.invoke(null));
            if (!(boolean) a.isValid.invoke(ctx)) {
                return SpanContext.getInvalid();
            }
            return SpanContext.createFromRemoteParent(
                    (String) a.getTraceId.invoke(ctx),
                    (String) a.getSpanId.invoke(ctx),
                    (boolean) a.isSampled.invoke(ctx) ? TraceFlags.getSampled() : TraceFlags.getDefault(),
                    TraceState.getDefault());
        } catch (ReflectiveOperationException | RuntimeException e) {
            return SpanContext.getInvalid();
        }
    }

    /** Makes {@code span} the app's current span until the returned scope is closed. */
    static AutoCloseable makeCurrent(SpanContext span) {
        Api a = api();
        if (a == null || !span.isValid()) {
            return NO_SCOPE;
        }
        try {
            Object flags = span.isSampled() ? a.sampled.invoke(null) : a.notSampled.invoke(null);
            Object appContext =
                    a.create.invoke(null, span.getTraceId(), span.getSpanId(), flags, a.defaultState.invoke(null));
            Object scope = a.makeCurrent.invoke(a.wrap.invoke(null, appContext));
            return new AppScope(a, scope);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return NO_SCOPE;
        }
    }

    /** Makes {@code span} the app's current span while an attempt is on the wire (see {@link #makeCurrent}). */
    static io.apiwarden.core.telemetry.Scope onTheWire(SpanContext span) {
        AutoCloseable scope = makeCurrent(span);
        if (scope == NO_SCOPE) {
            return io.apiwarden.core.telemetry.Scope.NONE;
        }
        return new QuietScope(scope);
    }

    // Classes, not lambdas: each lambda costs a class spun on the first call (docs/benchmarks.md).
    private static final class NoScope implements AutoCloseable {
        @Override
        public void close() {}
    }

    /** The app's scope, closed through its API. */
    private static final class AppScope implements AutoCloseable {
        private final Api api;
        private final Object scope;

        AppScope(Api api, Object scope) {
            this.api = api;
            this.scope = scope;
        }

        @Override
        public void close() throws ReflectiveOperationException {
            api.close.invoke(scope);
        }
    }

    private static final class QuietScope implements io.apiwarden.core.telemetry.Scope {
        private final AutoCloseable scope;

        QuietScope(AutoCloseable scope) {
            this.scope = scope;
        }

        @Override
        public void close() {
            try {
                scope.close();
            } catch (Exception e) {
                // the other context's scope is gone already; nothing to restore
            }
        }
    }

    private static Api api() {
        Api a = api;
        if (a == null) {
            a = Api.find();
            api = a == null ? Api.NONE : a;
        }
        return a == Api.NONE ? null : a;
    }

    /** The reflective handles on one copy of the API. */
    private static final class Api {
        static final Api NONE = new Api();

        Method current;
        Method getSpanContext;
        Method isValid;
        Method getTraceId;
        Method getSpanId;
        Method isSampled;
        Method create;
        Method sampled;
        Method notSampled;
        Method defaultState;
        Method wrap;
        Method makeCurrent;
        Method close;

        static Api find() {
            // Names built at run time: the shade plugin would relocate them if they were literals.
            String app = String.join(".", "io", "opentelemetry") + ".";
            String javaAgent =
                    String.join(".", "io", "opentelemetry", "javaagent", "shaded", "io", "opentelemetry") + ".";
            ClassLoader[] loaders = {
                ClassLoader.getSystemClassLoader(), Thread.currentThread().getContextClassLoader()
            };
            for (ClassLoader loader : loaders) {
                Api a = load(app, loader);
                if (a != null) {
                    return a;
                }
            }
            return load(javaAgent, null);
        }

        private static Api load(String prefix, ClassLoader loader) {
            try {
                Class<?> span = Class.forName(prefix + "api.trace.Span", false, loader);
                Class<?> ctx = Class.forName(prefix + "api.trace.SpanContext", false, loader);
                Class<?> flags = Class.forName(prefix + "api.trace.TraceFlags", false, loader);
                Class<?> state = Class.forName(prefix + "api.trace.TraceState", false, loader);
                Class<?> scope = Class.forName(prefix + "context.Scope", false, loader);
                Api a = new Api();
                a.current = span.getMethod("current");
                a.getSpanContext = span.getMethod("getSpanContext");
                a.isValid = ctx.getMethod("isValid");
                a.getTraceId = ctx.getMethod("getTraceId");
                a.getSpanId = ctx.getMethod("getSpanId");
                a.isSampled = ctx.getMethod("isSampled");
                a.create = ctx.getMethod("create", String.class, String.class, flags, state);
                a.sampled = flags.getMethod("getSampled");
                a.notSampled = flags.getMethod("getDefault");
                a.defaultState = state.getMethod("getDefault");
                a.wrap = span.getMethod("wrap", ctx);
                a.makeCurrent = span.getMethod("makeCurrent");
                a.close = scope.getMethod("close");
                return a;
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                return null;
            }
        }
    }
}

package io.apiwarden.telemetry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;

import java.lang.reflect.Method;

/**
 * The app's current span, read from the app's own OpenTelemetry API (and so from the
 * OpenTelemetry Java agent's context when that agent runs too). The agent's OpenTelemetry is
 * relocated and keeps a context of its own, so it reads the app's by reflection, through the
 * API's public interfaces.
 */
final class AppTraceContext {
    /** Span.current, Span.getSpanContext, SpanContext.isValid/getTraceId/getSpanId/isSampled; null without the API. */
    private static final Method[] API = find();

    private AppTraceContext() {
    }

    /** A context whose parent is the app's current span, or the root context when there is none. */
    static Context parent() {
        if (API == null) {
            return Context.root();
        }
        try {
            Object span = API[0].invoke(null);
            Object ctx = API[1].invoke(span);
            if (!(boolean) API[2].invoke(ctx)) {
                return Context.root();
            }
            SpanContext remote = SpanContext.createFromRemoteParent((String) API[3].invoke(ctx), (String) API[4].invoke(ctx),
                    (boolean) API[5].invoke(ctx) ? TraceFlags.getSampled() : TraceFlags.getDefault(), TraceState.getDefault());
            return Context.root().with(Span.wrap(remote));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Context.root();
        }
    }

    private static Method[] find() {
        // Built at run time: the shade plugin would relocate this name if it were a literal, and
        // the relocated copy is the agent's own, not the app's.
        String pkg = String.join(".", "io", "opentelemetry", "api", "trace") + ".";
        for (ClassLoader loader : new ClassLoader[] {ClassLoader.getSystemClassLoader(), Thread.currentThread().getContextClassLoader()}) {
            try {
                Class<?> span = Class.forName(pkg + "Span", false, loader);
                Class<?> ctx = Class.forName(pkg + "SpanContext", false, loader);
                return new Method[] {span.getMethod("current"), span.getMethod("getSpanContext"), ctx.getMethod("isValid"),
                        ctx.getMethod("getTraceId"), ctx.getMethod("getSpanId"), ctx.getMethod("isSampled")};
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                // not visible from this loader
            }
        }
        return null;
    }
}

package io.apiwarden.agent;

import io.apiwarden.bridge.OkHttpBridge;
import io.apiwarden.core.Warden;
import io.apiwarden.core.log.AgentLog;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * What the advice woven into OkHttp calls. OkHttp lives in a loader that can see the agent's
 * (the system loader or one of its children), so the advice links here directly. Each method
 * swallows every failure: OkHttp then works as without the agent.
 */
public final class OkHttpHook {
    static final String GLUE_PACKAGE = "io.apiwarden.okhttp.";
    private static final String GLUE_CLASS = GLUE_PACKAGE + "OkHttpGlue";
    /**
     * The glue of each OkHttp class the advice runs in. A {@link ClassValue} keeps it with the
     * class, so the glue (which holds the app's loader through its own) never pins an undeployed
     * web app's loader in memory.
     */
    private static final ClassValue<OkHttpBridge> BY_CLASS = new ClassValue<>() {
        @Override
        protected OkHttpBridge computeValue(Class<?> type) {
            return glueOf(type.getClassLoader());
        }
    };
    /** One glue per loader, shared by that loader's OkHttp classes; held weakly on both sides for the same reason. */
    private static final Map<ClassLoader, WeakReference<OkHttpBridge>> BY_LOADER = new WeakHashMap<>();

    private OkHttpHook() {
    }

    /** Before an {@code OkHttpClient} is built from {@code builder}. */
    public static void beforeBuild(Object builder) {
        try {
            OkHttpBridge glue = glueFor(builder.getClass());
            if (glue != null) {
                glue.beforeBuild(builder);
                ClientsInUse.okHttpBuilt();
            }
        } catch (Throwable t) {
            AgentLog.once(AgentLog.Level.WARN, "okhttp-build", "an OkHttpClient could not be managed; it works without the agent", t);
        }
    }

    /** Before a call is enqueued: returns the callback to use. */
    public static Object onEnqueue(Object call, Object callback) {
        try {
            OkHttpBridge glue = glueFor(call.getClass());
            return glue == null ? callback : glue.onEnqueue(call, callback);
        } catch (Throwable t) {
            AgentLog.once(AgentLog.Level.WARN, "okhttp-enqueue", "an asynchronous OkHttp call could not be managed", t);
            return callback;
        }
    }

    /** After a call was cancelled. */
    public static void onCancel(Object call) {
        try {
            OkHttpBridge glue = glueFor(call.getClass());
            if (glue != null) {
                glue.onCancel(call);
            }
        } catch (Throwable t) {
            AgentLog.once(AgentLog.Level.WARN, "okhttp-cancel", "a cancel could not be passed on to a pending retry", t);
        }
    }

    private static OkHttpBridge glueFor(Class<?> okHttpClass) {
        return AgentRuntime.warden() == null ? null : BY_CLASS.get(okHttpClass);
    }

    private static OkHttpBridge glueOf(ClassLoader loader) {
        synchronized (BY_LOADER) {
            WeakReference<OkHttpBridge> ref = BY_LOADER.get(loader);
            OkHttpBridge glue = ref == null ? null : ref.get();
            if (glue == null) {
                try {
                    ClassLoader glueLoader = new GlueClassLoader(loader, GLUE_PACKAGE, OkHttpHook.class.getClassLoader());
                    glue = (OkHttpBridge) glueLoader.loadClass(GLUE_CLASS).getConstructor(Warden.class)
                            .newInstance(AgentRuntime.warden());
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("the OkHttp glue could not be defined", e);
                }
                BY_LOADER.put(loader, new WeakReference<>(glue));
            }
            return glue;
        }
    }
}

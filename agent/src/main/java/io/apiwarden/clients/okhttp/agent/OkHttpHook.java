package io.apiwarden.clients.okhttp.agent;

import io.apiwarden.agent.ClientsInUse;
import io.apiwarden.agent.Glues;
import io.apiwarden.clients.okhttp.bridge.OkHttpBridge;
import io.apiwarden.core.log.AgentLog;
import java.util.List;

/**
 * What the advice woven into OkHttp calls. OkHttp lives in a loader that can see the agent's
 * (the system loader or one of its children), so the advice links here directly. Each method
 * swallows every failure: OkHttp then works as without the agent.
 */
public final class OkHttpHook {
    /** The glue beside each copy of OkHttp, kept with its classes so it never pins an undeployed app's loader. */
    private static final Glues<OkHttpBridge> GLUES =
            new Glues<>("io.apiwarden.clients.okhttp.library.", "OkHttpGlue", OkHttpBridge.class);

    private static final ClientsInUse IN_USE = ClientsInUse.onFirstClient(new OkHttpModule());

    private OkHttpHook() {}

    /** The glue's first call's classes, defined and linked ahead beside the OkHttp in {@code libraryLoader}. */
    static void prepare(ClassLoader libraryLoader, List<String> glueClasses) {
        GLUES.prepare(libraryLoader, glueClasses);
    }

    /** Before an {@code OkHttpClient} is built from {@code builder}. */
    public static void beforeBuild(Object builder) {
        try {
            OkHttpBridge glue = GLUES.of(builder.getClass());
            if (glue != null) {
                glue.beforeBuild(builder);
                IN_USE.seen();
            }
        } catch (Throwable t) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "okhttp-build",
                    "an OkHttpClient could not be managed; it works without the agent",
                    t);
        }
    }

    /** Before a call is enqueued: whether the agent runs it itself, and OkHttp's {@code enqueue} returns at once. */
    public static boolean enqueue(Object call, Object callback) {
        try {
            OkHttpBridge glue = GLUES.of(call.getClass());
            return glue != null && glue.enqueue(call, callback);
        } catch (Throwable t) {
            AgentLog.once(AgentLog.Level.WARN, "okhttp-enqueue", "an asynchronous OkHttp call could not be managed", t);
            return false;
        }
    }

    /** After a call was cancelled. */
    public static void onCancel(Object call) {
        try {
            OkHttpBridge glue = GLUES.of(call.getClass());
            if (glue != null) {
                glue.onCancel(call);
            }
        } catch (Throwable t) {
            AgentLog.once(AgentLog.Level.WARN, "okhttp-cancel", "a cancel could not be passed on to a waiting call", t);
        }
    }
}

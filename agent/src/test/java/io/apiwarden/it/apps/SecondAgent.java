package io.apiwarden.it.apps;

import java.lang.instrument.Instrumentation;

/**
 * Another Java agent beside API Warden, as an APM agent would be: it keeps the JVM's instrumentation so
 * that an app step can retransform classes the way such agents do when they attach late or reconfigure.
 */
public final class SecondAgent {
    private static volatile Instrumentation instrumentation;

    private SecondAgent() {}

    public static void premain(String args, Instrumentation inst) {
        instrumentation = inst;
    }

    /** Retransforms {@code className} (the JVM re-runs every retransforming agent's transformers on it). */
    static void retransform(String className) throws Exception {
        if (instrumentation == null) {
            throw new IllegalStateException("SecondAgent was not started with -javaagent");
        }
        instrumentation.retransformClasses(Class.forName(className));
    }
}

package io.apiwarden.clients.jdk.agent;

import io.apiwarden.agent.HookTransformer;
import io.apiwarden.agent.ReturnThroughHook;
import io.apiwarden.core.log.AgentLog;
import java.util.Arrays;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Makes {@code jdk.internal.net.http.HttpClientBuilderImpl.build()}, through which every JDK client is
 * built ({@code HttpClient.newHttpClient()} too), hand its result to {@link JdkHttpClientHook#wrap}.
 *
 * <p>Each {@code return client;} becomes, in effect:
 * <pre>{@code
 * try {
 *     client = (HttpClient) Class.forName("io.apiwarden.clients.jdk.agent.JdkHttpClientHook", true, systemLoader)
 *             .getMethod("wrap", HttpClient.class).invoke(null, client);
 * } catch (Throwable t) {
 *     // the app gets the client the JDK built
 * }
 * return client;
 * }</pre>
 * Reflection, because the code runs inside the {@code java.net.http} module, which cannot link to the
 * agent's classes on the class path; a client is built rarely, so its cost does not matter.
 */
final class JdkHttpClientInstrumentation {
    static final String BUILDER_CLASS = "jdk/internal/net/http/HttpClientBuilderImpl";
    private static final String BUILD = "build";
    private static final String BUILD_DESCRIPTOR = "()Ljava/net/http/HttpClient;";
    private static final String HTTP_CLIENT = "java/net/http/HttpClient";

    private JdkHttpClientInstrumentation() {}

    /** Each woven class (internal name) to its weaving: asked once, when the first of them is defined. */
    static Map<String, HookTransformer.Weaving> weavings() {
        return Map.of(BUILDER_CLASS, weaving(JdkHttpClientHook.class.getName(), "wrap"));
    }

    /**
     * The weaving of a class's {@code build()} that returns an {@code HttpClient}, calling the public
     * static {@code hookClass.hookMethod(HttpClient)}; tests name a hook of their own.
     */
    static HookTransformer.Weaving weaving(String hookClass, String hookMethod) {
        return new BuildWeaving(hookClass, hookMethod);
    }

    /** Classes, not lambdas: each lambda costs a class spun in premain or on the first build (docs/benchmarks.md). */
    private static final class BuildWeaving implements HookTransformer.Weaving {
        private final String hookClass;
        private final String hookMethod;

        BuildWeaving(String hookClass, String hookMethod) {
            this.hookClass = hookClass;
            this.hookMethod = hookMethod;
        }

        @Override
        public ClassVisitor visitor(ClassReader original, ClassVisitor next) {
            // The JDK's build() is "return HttpClientImpl.create(this);": no try, no local of its own.
            int maxLocals = ReturnThroughHook.localsAtReturn(original, BUILD, BUILD_DESCRIPTOR);
            if (maxLocals < 0) {
                AgentLog.once(
                        AgentLog.Level.WARN,
                        "jdk-builder-shape",
                        "this JDK's HttpClient builder has no build() "
                                + "of the shape the agent weaves (a return outside any try); JDK HttpClient calls stay unmanaged",
                        null);
            }
            return HookTransformer.rewritingMethods(next, new BuildRewrite(maxLocals, hookClass, hookMethod));
        }
    }

    private static final class BuildRewrite implements HookTransformer.MethodRewrite {
        private final int maxLocals;
        private final String hookClass;
        private final String hookMethod;

        BuildRewrite(int maxLocals, String hookClass, String hookMethod) {
            this.maxLocals = maxLocals;
            this.hookClass = hookClass;
            this.hookMethod = hookMethod;
        }

        @Override
        public MethodVisitor rewrite(int access, String name, String descriptor, MethodVisitor mv) {
            return maxLocals < 0 || !name.equals(BUILD) || !descriptor.equals(BUILD_DESCRIPTOR)
                    ? mv
                    : wrapReturnedClient(mv, maxLocals, hookClass, hookMethod);
        }
    }

    /**
     * The rewriting of each {@code ARETURN}: the client is kept in a new local after all of the method's own,
     * which the inserted frames declare as TOP (whatever they hold, it is not used again before the return).
     */
    private static ReturnThroughHook wrapReturnedClient(
            MethodVisitor next, int firstFreeLocal, String hookClass, String hookMethod) {
        Object[] frameLocals = new Object[firstFreeLocal + 1];
        Arrays.fill(frameLocals, Opcodes.TOP);
        frameLocals[firstFreeLocal] = HTTP_CLIENT;
        return new ReturnThroughHook(next, hookClass, hookMethod, frameLocals);
    }
}

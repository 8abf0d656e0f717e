package io.apiwarden.agent;

import io.apiwarden.core.log.AgentLog;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.pool.TypePool;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Puts {@link HttpClientBuilderAdvice} into the JDK's client builder. The transformer compares
 * one class name per loaded class and leaves every other class alone, so an app pays nothing
 * for classes the agent does not touch.
 */
final class JdkHttpClientInstrumentation implements ClassFileTransformer {
    static final String BUILDER_CLASS = "jdk/internal/net/http/HttpClientBuilderImpl";

    private JdkHttpClientInstrumentation() {
    }

    /** Registers the transformer, and applies it to the builder class if it is already loaded (late attach). */
    static void install(Instrumentation inst) {
        inst.addTransformer(new JdkHttpClientInstrumentation(), true);
        String name = BUILDER_CLASS.replace('/', '.');
        for (Class<?> loaded : inst.getAllLoadedClasses()) {
            if (loaded.getName().equals(name)) {
                try {
                    inst.retransformClasses(loaded);
                } catch (Exception | LinkageError e) {
                    AgentLog.warn("clients built before the agent was loaded stay unmanaged, and so will new ones: " + e);
                }
            }
        }
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
        if (!BUILDER_CLASS.equals(className)) {
            return null;
        }
        try {
            String typeName = className.replace('/', '.');
            ClassFileLocator locator = new ClassFileLocator.Compound(
                    ClassFileLocator.Simple.of(typeName, bytes),
                    ClassFileLocator.ForClassLoader.of(loader == null ? ClassLoader.getPlatformClassLoader() : loader));
            TypePool pool = TypePool.Default.of(locator);
            return new ByteBuddy()
                    .with(TypeValidation.DISABLED)
                    .redefine(pool.describe(typeName).resolve(), locator)
                    .visit(Advice.to(HttpClientBuilderAdvice.class).on(named("build").and(takesArguments(0))))
                    .make()
                    .getBytes();
        } catch (Throwable t) {
            AgentLog.error("java.net.http.HttpClient cannot be instrumented on this JVM; its calls stay unmanaged", t);
            return null;
        }
    }
}

package io.apiwarden.agent;

import io.apiwarden.core.log.AgentLog;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.pool.TypePool;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Weaves advice into a few classes named up front. For every other class the JVM loads, the
 * cost is one map look-up of its name; Byte Buddy is only touched when a named class appears.
 */
final class AdviceTransformer implements ClassFileTransformer {
    private final String what;
    /** Internal class names (with slashes) to the advice to weave into each; built lazily. */
    private final Map<String, Supplier<AsmVisitorWrapper>> targets;

    /**
     * @param what the library, for the log line if weaving fails
     */
    AdviceTransformer(String what, Map<String, Supplier<AsmVisitorWrapper>> targets) {
        this.what = what;
        this.targets = targets;
    }

    /** Registers the transformer and applies it to the named classes that are already loaded (late attach). */
    void install(Instrumentation inst) {
        inst.addTransformer(this, true);
        for (Class<?> loaded : inst.getAllLoadedClasses()) {
            if (targets.containsKey(loaded.getName().replace('.', '/'))) {
                try {
                    inst.retransformClasses(loaded);
                } catch (Exception | LinkageError e) {
                    AgentLog.warn(what + " was loaded before the agent and cannot be changed now; its clients stay unmanaged ("
                            + e.getClass().getSimpleName() + ")");
                }
            }
        }
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
        Supplier<AsmVisitorWrapper> advice = className == null ? null : targets.get(className);
        if (advice == null) {
            return null;
        }
        try {
            String typeName = className.replace('/', '.');
            ClassFileLocator locator = new ClassFileLocator.Compound(
                    ClassFileLocator.Simple.of(typeName, bytes),
                    ClassFileLocator.ForClassLoader.of(loader == null ? ClassLoader.getPlatformClassLoader() : loader));
            return new ByteBuddy()
                    .with(TypeValidation.DISABLED)
                    .redefine(TypePool.Default.of(locator).describe(typeName).resolve(), locator)
                    .visit(advice.get())
                    .make()
                    .getBytes();
        } catch (Throwable t) {
            AgentLog.error(what + " cannot be instrumented (" + typeName(className) + "); its calls stay unmanaged", t);
            return null;
        }
    }

    private static String typeName(String className) {
        return className.replace('/', '.');
    }
}

package io.apiwarden.agent;

import io.apiwarden.core.log.AgentLog;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;

/**
 * Weaves calls to the agent's hooks into a few classes named up front. For every other class the
 * JVM loads, the cost is one map look-up of its name.
 *
 * <p>The weaving is a single ASM pass (the ASM inside Byte Buddy, relocated with it) that inserts a
 * handful of instructions; Byte Buddy's {@code Advice} did the same through its type pool and
 * method graph, which loaded some 900 classes and took about 400 ms of the app's start-up.
 */
public final class HookTransformer implements ClassFileTransformer {
    /** Rewrites one class so that it calls the agent. */
    public interface Weaving {
        /** The library woven, for the log lines about it; null: the transformer's own name for what it weaves. */
        default String library() {
            return null;
        }

        /**
         * Whether the inserted code links to the agent's classes directly (rather than by reflection):
         * a class in a named module then needs to read the agent's module first.
         */
        default boolean linksToAgent() {
            return false;
        }

        /**
         * Whether the hooks are reachable from classes of {@code loader}; a class whose loader cannot
         * see the agent is left as it is (its calls stay unmanaged) rather than made to fail.
         */
        default boolean canWeave(ClassLoader loader) {
            return true;
        }

        /** A visitor that passes the class to {@code next} with the hooks inserted. */
        ClassVisitor visitor(ClassReader original, ClassVisitor next);

        /**
         * The class was woven as {@code loader} defines it. Told on the thread defining it, inside the transformer:
         * nothing here may load a class of {@code loader} or wait.
         */
        default void woven(ClassLoader loader) {}
    }

    /** Whether classes of {@code loader} link {@code hook}'s name to the agent's own class, for {@link Weaving#canWeave}. */
    public static boolean linksTo(ClassLoader loader, Class<?> hook) {
        try {
            return Class.forName(hook.getName(), false, loader) == hook;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Chooses, for each method of a class being woven, the visitor its code goes through. */
    public interface MethodRewrite {
        /** {@code original} when the method stays as it is, else a visitor that inserts into it. */
        MethodVisitor rewrite(int access, String name, String descriptor, MethodVisitor original);
    }

    /** A class visitor that passes every method's code through what {@code rewrite} chooses for it. */
    public static ClassVisitor rewritingMethods(ClassVisitor next, MethodRewrite rewrite) {
        return Weaver.rewritingMethods(next, rewrite);
    }

    private final String what;
    /** Internal class names (with slashes) to the weaving of each. */
    private final Map<String, Weaving> targets;
    /** Set by {@link #install}: lets a named module read the agent's before hooks link to it. */
    private volatile Instrumentation inst;

    /**
     * Whether the weavings add fields or methods, which the JVM allows only when a class is first defined:
     * such a transformer leaves classes loaded before it alone. A class it wove at definition is woven the
     * same way again whenever another agent retransforms or redefines it, so the class keeps the members
     * it has. It is registered as able to retransform all the same, like every transformer of the agent:
     * a transformer that cannot retransform has the JVM run a second chain of transformers for every
     * class the app loads, with a copy of each class file, which cost tens of milliseconds of start-up.
     */
    private final boolean addsMembers;

    /**
     * @param what the library, for the log line if weaving fails
     */
    public HookTransformer(String what, Map<String, Weaving> targets) {
        this(what, targets, false);
    }

    public HookTransformer(String what, Map<String, Weaving> targets, boolean addsMembers) {
        this.what = what;
        this.targets = targets;
        this.addsMembers = addsMembers;
    }

    /** Registers the transformer and applies it to the named classes that are already loaded (late attach). */
    public void install(Instrumentation inst) {
        this.inst = inst;
        inst.addTransformer(this, true);
        if (addsMembers) {
            return;
        }
        // Compared by the binary names, made once: not one internal name made for each of the JVM's loaded classes.
        Map<String, Weaving> byBinaryName = new HashMap<>();
        for (Map.Entry<String, Weaving> target : targets.entrySet()) {
            byBinaryName.put(target.getKey().replace('/', '.'), target.getValue());
        }
        for (Class<?> loaded : inst.getAllLoadedClasses()) {
            Weaving weaving = byBinaryName.get(loaded.getName());
            if (weaving != null) {
                try {
                    inst.retransformClasses(loaded);
                } catch (Exception | LinkageError e) {
                    AgentLog.warn(what(weaving)
                            + " was loaded before the agent and cannot be changed now; its clients stay unmanaged ("
                            + e.getClass().getSimpleName() + ")");
                }
            }
        }
    }

    @Override
    public byte[] transform(
            Module module,
            ClassLoader loader,
            String className,
            Class<?> redefined,
            ProtectionDomain domain,
            byte[] bytes) {
        Weaving weaving = className == null ? null : targets.get(className);
        if (weaving == null || addsMembers && redefined != null && !wovenAtDefinition(redefined)) {
            // A class defined before the agent cannot be given members now. One woven when it was defined
            // and retransformed or redefined since (by another agent) is woven again: its new bytes must keep
            // the members it has.
            return null;
        }
        try {
            if (!weaving.canWeave(loader) || weaving.linksToAgent() && !readsAgent(module)) {
                AgentLog.once(
                        AgentLog.Level.WARN,
                        "unreachable-" + className,
                        what(weaving) + " in " + loader + " cannot see the agent's classes; its calls stay unmanaged",
                        null);
                return null;
            }
            byte[] woven = weave(weaving, bytes);
            toldWoven(weaving, loader);
            return woven;
        } catch (Throwable t) {
            AgentLog.error(
                    what(weaving) + " cannot be instrumented (" + className.replace('/', '.')
                            + "); its calls stay unmanaged",
                    t);
            return null;
        }
    }

    /** Tells the weaving; a failure there (a thread that cannot be started) never costs the class its weaving. */
    private static void toldWoven(Weaving weaving, ClassLoader loader) {
        try {
            weaving.woven(loader);
        } catch (Throwable t) {
            AgentLog.once(AgentLog.Level.DEBUG, "woven", "a woven class's follow-up failed", t);
        }
    }

    private String what(Weaving weaving) {
        String library = weaving.library();
        return library == null ? what : library;
    }

    private static boolean wovenAtDefinition(Class<?> type) {
        try {
            // Never null: the lookup throws NoSuchFieldException when the class was not woven.
            return type.getDeclaredField(UnmanagedCallWeaving.OVER) != null;
        } catch (NoSuchFieldException | RuntimeException | LinkageError e) {
            // A field type that cannot be loaded: treated as not woven, so the class is left as it is.
            return false;
        }
    }

    /**
     * Whether code in {@code module} can link to the agent's classes. The unnamed modules of class-path
     * code read every module; a named one (OkHttp 5 on the module path, say) is given a read edge to the
     * agent's module, as it would otherwise fail at the first woven call with an IllegalAccessError.
     */
    private boolean readsAgent(Module module) {
        Module agent = HookTransformer.class.getModule();
        if (module == null || module.canRead(agent)) {
            return true;
        }
        Instrumentation i = inst;
        if (i != null && i.isModifiableModule(module)) {
            i.redefineModule(module, Set.of(agent), Map.of(), Map.of(), Set.of(), Map.of());
        }
        return module.canRead(agent);
    }

    /** The class with the hooks in. */
    public static byte[] weave(Weaving weaving, byte[] original) {
        return Weaver.weave(weaving, original);
    }
}

package io.apiwarden.agent;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;

/**
 * The weaving of a client library's class whose inserted code calls a hook class of the agent directly
 * (not by reflection, as {@link ReturnThroughHook} does for the JDK's own classes): a class in a named
 * module is made to read the agent's module first, and a class whose loader does not link the hook's name
 * to the agent's own class is left as it is, its calls unmanaged. Each method's code goes through what
 * {@code rewrite} chooses for it.
 */
public final class LinkedWeaving implements HookTransformer.Weaving {
    private final Class<?> hook;
    private final HookTransformer.MethodRewrite rewrite;

    /**
     * @param hook the agent's class the inserted code calls
     */
    public LinkedWeaving(Class<?> hook, HookTransformer.MethodRewrite rewrite) {
        this.hook = hook;
        this.rewrite = rewrite;
    }

    @Override
    public boolean linksToAgent() {
        return true;
    }

    @Override
    public boolean canWeave(ClassLoader loader) {
        return HookTransformer.linksTo(loader, hook);
    }

    @Override
    public ClassVisitor visitor(ClassReader original, ClassVisitor next) {
        return HookTransformer.rewritingMethods(next, rewrite);
    }
}

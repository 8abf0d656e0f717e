package io.apiwarden.agent;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;

/**
 * A client module's weaving of one class, asked of the module only when that class is first met. {@code premain}
 * registers every switched-on module's class names with one transformer; a module's weaving code, its hooks and ASM
 * load when the app first loads a class of that client. Each module registered its own transformer before, loading
 * its weaving at start-up and making every class the JVM loaded go through ten transformers instead of one.
 */
final class ModuleWeaving implements HookTransformer.Weaving {
    private final Weavings module;
    private final String className;

    private ModuleWeaving(Weavings module, String className) {
        this.module = module;
        this.className = className;
    }

    /** Each class {@code module} weaves, to its weaving as asked of the module when first needed. */
    static Map<String, HookTransformer.Weaving> of(ClientModule module) {
        Weavings weavings = new Weavings(module);
        Map<String, HookTransformer.Weaving> targets = new HashMap<>();
        for (String woven : module.wovenClasses()) {
            targets.put(woven, new ModuleWeaving(weavings, woven));
        }
        return targets;
    }

    @Override
    public String library() {
        return module.module.displayName();
    }

    @Override
    public boolean linksToAgent() {
        return module.weaving(className).linksToAgent();
    }

    @Override
    public boolean canWeave(ClassLoader loader) {
        return module.weaving(className).canWeave(loader);
    }

    @Override
    public ClassVisitor visitor(ClassReader original, ClassVisitor next) {
        return module.weaving(className).visitor(original, next);
    }

    @Override
    public void woven(ClassLoader loader) {
        module.firstWoven(loader);
    }

    /** One module's weavings, asked of it once: classes of one client may share a weaving (OkHttp 3's and 4's call). */
    private static final class Weavings {
        private final ClientModule module;
        private Map<String, HookTransformer.Weaving> weavings;
        private final AtomicBoolean warmedUp = new AtomicBoolean();

        Weavings(ClientModule module) {
            this.module = module;
        }

        synchronized HookTransformer.Weaving weaving(String className) {
            if (weavings == null) {
                weavings = module.weavings();
            }
            HookTransformer.Weaving weaving = weavings.get(className);
            if (weaving == null) {
                // The module lists a class it has no weaving for: a bug of the module, caught by ClientModulesTest.
                throw new IllegalStateException(module.name() + " names " + className + " but has no weaving for it");
            }
            return weaving;
        }

        /** The module's first call's classes are loaded ahead once, in the loader of the first class woven. */
        void firstWoven(ClassLoader loader) {
            if (!module.firstCallClasses().isEmpty() && warmedUp.compareAndSet(false, true)) {
                FirstCallClasses.warmUpInBackground(module, loader);
            }
        }
    }
}

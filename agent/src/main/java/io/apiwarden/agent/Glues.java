package io.apiwarden.agent;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The glue of one client library, defined beside each copy of the library the app loads (see
 * {@link GlueClassLoader}) and reached through a bridge interface of the agent's loader.
 *
 * <p>Glue is kept per library class in a {@link ClassValue}, and per loader weakly, so that it
 * (which holds the app's loader through its own) never pins an undeployed web app's loader.
 *
 * @param <B> the bridge interface the glue implements
 */
public final class Glues<B> {
    private final String gluePackage;
    private final String glueClass;
    private final Class<B> bridge;
    private final ClassValue<B> byClass = new ClassValue<>() {
        @Override
        protected B computeValue(Class<?> type) {
            return glueOf(type.getClassLoader());
        }
    };
    private final Map<ClassLoader, WeakReference<B>> byLoader = new WeakHashMap<>();

    /**
     * @param gluePackage the glue's package, with a trailing dot: its classes are defined beside the library
     * @param glueClass the simple name of the class implementing {@code bridge}, constructed with the router
     */
    public Glues(String gluePackage, String glueClass, Class<B> bridge) {
        this.gluePackage = gluePackage;
        this.glueClass = gluePackage + glueClass;
        this.bridge = bridge;
    }

    /** The glue for the copy of the library {@code libraryClass} belongs to, or null when the agent is not configured. */
    public B of(Class<?> libraryClass) {
        return AgentRuntime.router() == null ? null : byClass.get(libraryClass);
    }

    /**
     * The glue, given the router when it routes each request to its API ({@code Glue(Wardens)}); a glue that takes
     * one {@link Warden} manages the first API's requests only.
     */
    private static Object construct(Class<?> glue) throws ReflectiveOperationException {
        try {
            return glue.getConstructor(Wardens.class).newInstance(AgentRuntime.router());
        } catch (NoSuchMethodException e) {
            return glue.getConstructor(Warden.class).newInstance(AgentRuntime.warden());
        }
    }

    private B glueOf(ClassLoader loader) {
        synchronized (byLoader) {
            WeakReference<B> ref = byLoader.get(loader);
            B glue = ref == null ? null : ref.get();
            if (glue == null) {
                try {
                    ClassLoader glueLoader = new GlueClassLoader(loader, gluePackage, Glues.class.getClassLoader());
                    glue = bridge.cast(construct(glueLoader.loadClass(glueClass)));
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("the glue " + glueClass + " could not be defined", e);
                }
                byLoader.put(loader, new WeakReference<>(glue));
            }
            return glue;
        }
    }
}

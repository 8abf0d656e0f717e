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
     * The loader each library loader's glue is defined in, made when its glue is first prepared or built. Held weakly:
     * the glue holds its own; one prepared and then collected before any glue was built is made again.
     */
    private final Map<ClassLoader, WeakReference<ClassLoader>> glueLoaders = new WeakHashMap<>();

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

    /**
     * Loads and links, without initializing, the named glue classes beside the copy of the library in {@code
     * libraryLoader}, for {@link ClientModule#warmUp}: the glue then built for that copy finds them defined. Nothing of
     * the library is initialized here, so this never waits on the app's thread initializing it.
     */
    public void prepare(ClassLoader libraryLoader, Iterable<String> glueClasses) {
        FirstCallClasses.loadAndLink(glueLoaderFor(libraryLoader), glueClasses);
    }

    /** The loader the glue for the copy of the library in {@code libraryLoader} is defined in. */
    ClassLoader glueLoaderFor(ClassLoader libraryLoader) {
        synchronized (byLoader) {
            return glueLoaderOf(libraryLoader);
        }
    }

    private ClassLoader glueLoaderOf(ClassLoader libraryLoader) {
        WeakReference<ClassLoader> ref = glueLoaders.get(libraryLoader);
        ClassLoader glueLoader = ref == null ? null : ref.get();
        if (glueLoader == null) {
            glueLoader = new GlueClassLoader(libraryLoader, gluePackage, Glues.class.getClassLoader());
            glueLoaders.put(libraryLoader, new WeakReference<>(glueLoader));
        }
        return glueLoader;
    }

    private B glueOf(ClassLoader loader) {
        synchronized (byLoader) {
            WeakReference<B> ref = byLoader.get(loader);
            B glue = ref == null ? null : ref.get();
            if (glue == null) {
                try {
                    glue = bridge.cast(construct(glueLoaderOf(loader).loadClass(glueClass)));
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("the glue " + glueClass + " could not be defined", e);
                }
                byLoader.put(loader, new WeakReference<>(glue));
            }
            return glue;
        }
    }
}

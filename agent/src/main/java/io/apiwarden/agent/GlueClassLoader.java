package io.apiwarden.agent;

import java.io.IOException;
import java.io.InputStream;

/**
 * Defines the agent's glue for a client library next to that library: the parent is the loader
 * the library lives in (so {@code okhttp3.*} links to the app's OkHttp, whichever loader that is,
 * a Spring Boot fat jar's or a servlet container's), the glue's own classes are defined here
 * from the agent jar, and the rest of the agent comes from the agent's loader, shared by all.
 */
final class GlueClassLoader extends ClassLoader {
    static {
        registerAsParallelCapable();
    }

    private final String gluePackage;
    private final ClassLoader agentLoader;

    GlueClassLoader(ClassLoader libraryLoader, String gluePackage, ClassLoader agentLoader) {
        super("apiwarden-glue", libraryLoader);
        this.gluePackage = gluePackage;
        this.agentLoader = agentLoader;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                if (name.startsWith(gluePackage)) {
                    c = defineGlue(name);
                } else if (name.startsWith("io.apiwarden.")) {
                    c = agentLoader.loadClass(name);
                } else {
                    c = super.loadClass(name, false);
                }
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    private Class<?> defineGlue(String name) throws ClassNotFoundException {
        String resource = name.replace('.', '/') + ".class";
        try (InputStream in = agentLoader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new ClassNotFoundException(name);
            }
            byte[] bytes = in.readAllBytes();
            return defineClass(name, bytes, 0, bytes.length, GlueClassLoader.class.getProtectionDomain());
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
    }
}

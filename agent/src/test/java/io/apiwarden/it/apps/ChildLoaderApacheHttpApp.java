package io.apiwarden.it.apps;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs {@link ApacheHttpClientApp} with Apache HttpClient 5 in a child class loader, as a Spring Boot
 * fat jar or a servlet container does: the client is not on this JVM's class path at all, and the
 * app's class is defined by the child too, so that it links to the child's copy. Args: the folder of
 * the client's jars, then the app's steps.
 */
public final class ChildLoaderApacheHttpApp {
    private ChildLoaderApacheHttpApp() {}

    public static void main(String[] args) throws Exception {
        List<URL> jars = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Paths.get(args[0]), "*.jar")) {
            for (Path jar : dir) {
                jars.add(jar.toUri().toURL());
            }
        }
        try (URLClassLoader child =
                new AppFirst(jars.toArray(new URL[0]), ChildLoaderApacheHttpApp.class.getClassLoader())) {
            child.loadClass(ApacheHttpClientApp.class.getName())
                    .getMethod("main", String[].class)
                    .invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        }
    }

    /** Defines the app's own class itself; everything else goes to the parent first, as usual. */
    private static final class AppFirst extends URLClassLoader {
        AppFirst(URL[] urls, ClassLoader parent) {
            super("fat-jar", urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(ApacheHttpClientApp.class.getName())) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    String resource = name.replace('.', '/') + ".class";
                    try (InputStream in = getParent().getResourceAsStream(resource)) {
                        byte[] bytes = in.readAllBytes();
                        c = defineClass(name, bytes, 0, bytes.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                return c;
            }
        }
    }
}
